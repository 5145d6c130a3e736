import type { MessageEntry, PivotDetails } from '../model/entry.js';
import { CompactionError } from './errors.js';
import type { SummaryRequest } from './input.js';

/** What a summarizer returns: the summary text (appendix included) and the facts it extracted. */
export interface SummaryResult {
  text: string;
  details: PivotDetails;
}

/**
 * Turns a summary request into a summary. Implementations throw SummaryRejectedError for any
 * result that must not be stored; the caller writes the pivot only after a valid result.
 */
export interface Summarizer {
  /** Stored in the pivot's `summarizer` field ('extractive', 'llm', ...). */
  name: string;
  /** Model id when a model produces the summary. */
  model?: string;
  summarize(request: SummaryRequest, signal?: AbortSignal): Promise<SummaryResult>;
  /**
   * Optional: a summary of a span read a page at a time, on top of the previous pivot's
   * `details`. A window too long to hold (a never-compacted import) is then streamed through it
   * and each page let go once read; a summarizer without it is given the span a chunk at a time.
   * A wrapper that replaces `summarize` (`{ ...inner, summarize }`) must wrap or drop this too,
   * or the streamed spans are summarized by the inner summarizer alone.
   */
  readSpan?(previous: PivotDetails | undefined): SpanSummary;
}

/** A summary fed its span a page at a time (see Summarizer.readSpan). */
export interface SpanSummary {
  /** Reads the span's next messages, in log order. */
  read(entries: readonly MessageEntry[]): void;
  /** About how many tokens of what was read the summary still holds: what bounds a span's length. */
  heldTokens(): number;
  /**
   * The summary of everything read. The request's plan holds no entries to summarize (they were
   * read here), only the figures and the previous pivot. Called once.
   */
  summarize(request: SummaryRequest, signal?: AbortSignal): Promise<SummaryResult>;
}

export type SummaryRejection =
  | 'empty'
  | 'length'
  | 'tool-calls'
  | 'error'
  | 'refusal'
  | 'content-filter'
  | 'aborted'
  | 'too-large'
  /** The quality gate refused it (see gate.ts). */
  | 'refused';

/** A summary that must not become a pivot: why, and what the summarizer said if anything. */
export class SummaryRejectedError extends CompactionError {
  override name = 'SummaryRejectedError';
  /** The rejected text, when there was one (for logs; never stored as a summary). */
  readonly text: string | undefined;
  constructor(
    readonly reason: SummaryRejection,
    message: string,
    options?: { cause?: unknown; text?: string },
  ) {
    super('summary-rejected', `summary rejected (${reason}): ${message}`, options);
    this.text = options?.text;
  }
}
