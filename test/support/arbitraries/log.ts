/** Session-log arbitraries: message entries with compaction entries (pivots) interleaved. */
import fc from 'fast-check';
import { buildCompactionEntry, buildMessageEntry } from '../../../src/model/build.js';
import type { Entry, Pivot } from '../../../src/model/entry.js';
import type { Message } from '../../../src/model/message.js';
import { heuristicEstimator } from '../../../src/tokens/estimator.js';
import { type HistoryOptions, historyArb } from './messages.js';

/** A compaction to insert: after `at` messages, keeping the last `keep` of them verbatim. */
interface CompactionPlan {
  at: number;
  keep: number;
  withMarker: boolean;
  summary: string;
}

const planArb = fc.record({
  at: fc.nat(),
  keep: fc.nat(),
  withMarker: fc.boolean(),
  summary: fc.string({ minLength: 1, maxLength: 60 }),
});

export interface EntryLogOptions extends HistoryOptions {
  maxCompactions?: number;
  sessionId?: string;
}

/**
 * A session log: message entries with 0..n compaction entries (pivots) interleaved, seq and parent
 * chain consistent, each pivot pointing at entries that exist (firstKeptId null or inside the log,
 * optional answered marker message just before it, previousPivotId chained).
 */
export function entryLogArb(opts: EntryLogOptions = {}): fc.Arbitrary<Entry[]> {
  return fc
    .tuple(historyArb(opts), fc.array(planArb, { maxLength: opts.maxCompactions ?? 3 }))
    .map(([messages, plans]) => assembleLog(messages, plans, opts.sessionId ?? 'prop'));
}

function assembleLog(messages: Message[], plans: CompactionPlan[], sessionId: string): Entry[] {
  const estimator = heuristicEstimator();
  const cuts = new Map<number, CompactionPlan>();
  for (const p of plans) if (messages.length > 0) cuts.set(1 + (p.at % messages.length), p);
  const log: Entry[] = [];
  const messageIds: string[] = [];
  let previousPivotId: string | null = null;
  let minKeptIndex = 0;
  const place = () => ({
    sessionId,
    seq: log.length,
    parentId: log.at(-1)?.id ?? null,
    id: `e${log.length}`,
  });
  const pushMessage = (m: Message) => {
    const entry = buildMessageEntry(m, place(), estimator);
    log.push(entry);
    messageIds.push(entry.id);
    return entry.id;
  };
  messages.forEach((m, i) => {
    pushMessage(m);
    const plan = cuts.get(i + 1);
    if (plan === undefined) return;
    const markerId = plan.withMarker
      ? pushMessage({ role: 'user', parts: [{ type: 'compaction', auto: true }] })
      : undefined;
    // Kept messages come from this compaction's own span: after what earlier pivots kept.
    const before = messageIds.length - (markerId ? 1 : 0);
    const span = before - minKeptIndex;
    const keep = span <= 1 ? 0 : plan.keep % span;
    const firstKeptIndex = keep === 0 ? null : before - keep;
    const throughIndex = (firstKeptIndex ?? before) - 1;
    const pivot: Pivot = {
      summary: plan.summary,
      summarizedThroughId: messageIds[Math.max(0, throughIndex)]!,
      firstKeptId: firstKeptIndex === null ? null : messageIds[firstKeptIndex]!,
      tokensBefore: 1000,
      tokensAfter: 100,
      auto: true,
      summarizer: 'extractive',
      details: { filesRead: [], filesModified: [] },
      previousPivotId,
      ...(markerId ? { markerId } : {}),
    };
    const entry = buildCompactionEntry(pivot, place(), estimator);
    log.push(entry);
    previousPivotId = entry.id;
    minKeptIndex = firstKeptIndex ?? messageIds.length;
  });
  return log;
}
