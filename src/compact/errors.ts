/**
 * Typed compaction failures. Each carries the numbers that explain it, so the caller can report
 * them and stop; nothing here is meant to be retried in a loop.
 */
export class CompactionError extends Error {
  override name = 'CompactionError';
  constructor(
    readonly code: 'floor-too-large' | 'request-too-large' | 'no-progress' | 'summary-rejected' | 'stopped',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** One message named in an error: where it is and what it costs. */
export interface NamedMessage {
  entryId: string;
  seq: number;
  role: string;
  tokens: number;
  bytes: number;
}

const describe = (m: NamedMessage) =>
  `entry ${m.entryId} (seq ${m.seq}, ${m.role}: ${m.tokens} tokens, ${m.bytes} bytes)`;

/**
 * The part that can never be summarized (system prompt + latest request + kept tail) is over budget.
 * When one message alone is over it, `largest` names it: no compaction can ever help.
 */
export class FloorTooLargeError extends CompactionError {
  override name = 'FloorTooLargeError';
  readonly floorTokens: number;
  readonly budget: number;
  /** The one message that alone is over the budget, when there is one. */
  readonly largest?: NamedMessage;
  constructor(
    { floorTokens, budget, largest }: { floorTokens: number; budget: number; largest?: NamedMessage },
    options?: { cause?: unknown },
  ) {
    super(
      'floor-too-large',
      largest
        ? `cannot fit the request: ${describe(largest)} alone is over the budget of ${budget} tokens; ` +
            "open the session with oversize: 'truncate' to send such messages truncated with a marker"
        : `cannot compact: the floor (system prompt + latest request + kept tail) is ${floorTokens} tokens, ` +
            `over the budget of ${budget} tokens`,
      options,
    );
    this.floorTokens = floorTokens;
    this.budget = budget;
    if (largest) this.largest = largest;
  }
}

/**
 * The request is over the provider's byte limit even after compaction (images and files count their
 * bytes, not their few tokens). Names the largest message.
 */
export class RequestTooLargeError extends CompactionError {
  override name = 'RequestTooLargeError';
  constructor(
    readonly bytes: number,
    readonly limit: number,
    readonly largest: NamedMessage | null,
    options?: { cause?: unknown },
  ) {
    super(
      'request-too-large',
      `the request is ${bytes} bytes, over the limit of ${limit} bytes` +
        (largest ? `; its largest message is ${describe(largest)}` : '') +
        ': remove or shrink it, or raise budget.maxRequestBytes',
      options,
    );
  }
}

/** Compacting would not make the context smaller, so it is refused instead of looping. */
export class NoProgressError extends CompactionError {
  override name = 'NoProgressError';
  readonly tokensBefore: number;
  readonly predictedAfter: number;
  constructor({ tokensBefore, predictedAfter }: { tokensBefore: number; predictedAfter: number }) {
    super(
      'no-progress',
      `compaction would not shrink the context: ${tokensBefore} tokens before, ${predictedAfter} predicted after`,
    );
    this.tokensBefore = tokensBefore;
    this.predictedAfter = predictedAfter;
  }
}

/**
 * Automatic compaction failed this many times in a row and is off until a manual `compact()`:
 * a summarizer that keeps failing is not called again at every turn (Claude Code stops after 3).
 */
export class CompactionStoppedError extends CompactionError {
  override name = 'CompactionStoppedError';
  constructor(
    readonly failures: number,
    cause: unknown,
  ) {
    const last = cause instanceof Error ? cause.message : String(cause);
    super(
      'stopped',
      `automatic compaction stopped after ${failures} consecutive failures (last: ${last}); ` +
        'call compact() to try again',
      { cause },
    );
  }
}
