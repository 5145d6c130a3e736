/**
 * Typed compaction failures. Each carries the numbers that explain it, so the caller can report
 * them and stop; nothing here is meant to be retried in a loop (TESTING.md item 4).
 */
export class CompactionError extends Error {
  override name = 'CompactionError';
  constructor(
    readonly code: 'floor-too-large' | 'no-progress' | 'summary-rejected' | 'stopped',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The part that can never be summarized (system prompt + latest request + kept tail) is over budget. */
export class FloorTooLargeError extends CompactionError {
  override name = 'FloorTooLargeError';
  readonly floorTokens: number;
  readonly budget: number;
  constructor({ floorTokens, budget }: { floorTokens: number; budget: number }) {
    super(
      'floor-too-large',
      `cannot compact: the floor (system prompt + latest request + kept tail) is ${floorTokens} tokens, ` +
        `over the budget of ${budget} tokens`,
    );
    this.floorTokens = floorTokens;
    this.budget = budget;
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
