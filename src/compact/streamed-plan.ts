import type { CompactionEntry, MessageEntry } from '../model/entry.js';
import { messageText } from '../model/message.js';
import type { CompactionPlan } from './plan.js';
import { requestText } from './requests.js';
import { isMarkerOnly, isTurnStart } from './turns.js';

/**
 * The plan of a span summarized as it is read (Summarizer.readSpan) and never held: what
 * planCompaction of [previousPivot, ...span] keeping nothing gives, from figures gathered a page
 * at a time, with no entries in `toSummarize` (the summary read them). Only the newest request
 * and turn opener are kept, for their text. A previous pivot that kept a tail is the span's
 * previous pivot all the same: its tail is in the span, summarized on top of it.
 */
export class StreamedSpanPlan {
  private tokens = 0;
  private last: MessageEntry | undefined;
  private request: MessageEntry | undefined;
  private opener: MessageEntry | undefined;

  constructor(private readonly previousPivot: CompactionEntry | null) {}

  /** Reads the span's next entries, in log order (marker-only messages are no part of a plan). */
  read(entries: readonly MessageEntry[]): void {
    for (const entry of entries) {
      if (isMarkerOnly(entry)) continue;
      this.tokens += entry.tokens;
      this.last = entry;
      if (isTurnStart(entry)) this.opener = entry;
      if (entry.message.role === 'user' && requestText(entry) !== '') this.request = entry;
    }
  }

  /** The seq of the last entry read (-1 before any). */
  get lastSeq(): number {
    return this.last?.seq ?? -1;
  }

  /** The plan of what was read; null when nothing was. */
  plan(): CompactionPlan | null {
    const { last, previousPivot, request, opener } = this;
    if (last === undefined) return null;
    const plan: CompactionPlan = {
      toSummarize: [],
      toKeep: [],
      previousPivot,
      summarizedThroughId: last.id,
      firstKeptId: null,
      tokensBefore: (previousPivot?.tokens ?? 0) + this.tokens,
      predictedTailTokens: 0,
      requestInTail: false,
    };
    const latest = request ? requestText(request) : previousPivot?.pivot.details.lastUserRequest;
    if (latest !== undefined) plan.latestUserRequest = latest;
    if (opener) plan.replayRequest = messageText(opener.message);
    return plan;
  }
}
