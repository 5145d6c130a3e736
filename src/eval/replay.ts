import {
  activeWindow,
  buildSummaryRequest,
  isNothingToCompact,
  type PlanOptions,
  planCompaction,
  type Summarizer,
} from '../compact/index.js';
import { buildCompactionEntry } from '../model/build.js';
import { type Entry, isMessageEntry, type MessageEntry } from '../model/entry.js';
import type { Estimator } from '../tokens/estimator.js';
import { type Context, messageText } from './strategies.js';

/** The log after a replay, and what the model would see next. */
export interface Replayed {
  log: Entry[];
  compactions: number;
  context: Context;
}

/** What the model sees from a log: the latest summary, then the messages it kept and what followed. */
export function viewOf(log: readonly Entry[]): Context {
  const window = activeWindow(log);
  const pivot = log.findLast((e) => e.kind === 'compaction');
  const messages = window.filter(isMessageEntry);
  const summary = pivot?.kind === 'compaction' ? pivot.pivot.summary : undefined;
  return {
    tokens: (pivot?.tokens ?? 0) + messages.reduce((a, e) => a + e.tokens, 0),
    text: [summary ?? '', ...messages.map((e) => messageText(e.message))].join('\n'),
    ...(summary === undefined || pivot?.kind !== 'compaction'
      ? {}
      : {
          summary,
          details: pivot.pivot.details,
          ...(pivot.pivot.details.lastUserRequest === undefined
            ? {}
            : { latestRequest: pivot.pivot.details.lastUserRequest }),
        }),
  };
}

/**
 * Appends the messages one by one, compacting whenever the view outgrows `window` tokens, the
 * way a session does it (plan, summarize, pivot). `onCompact` sees the log after each compaction.
 */
export async function replay(
  messages: readonly MessageEntry[],
  window: number,
  summarizer: Summarizer,
  estimator: Estimator,
  plan: PlanOptions = {},
  onCompact?: (log: readonly Entry[], n: number) => void | Promise<void>,
): Promise<Replayed> {
  const log: Entry[] = [];
  let compactions = 0;
  for (const m of messages) {
    log.push({ ...m, seq: log.length, parentId: log.at(-1)?.id ?? null });
    if (viewOf(log).tokens <= window) continue;
    const p = planCompaction(log, plan);
    if (isNothingToCompact(p)) continue;
    const result = await summarizer.summarize(buildSummaryRequest(p));
    log.push(
      buildCompactionEntry(
        {
          summary: result.text,
          summarizedThroughId: p.summarizedThroughId,
          firstKeptId: p.firstKeptId,
          tokensBefore: p.tokensBefore,
          tokensAfter: 0,
          auto: true,
          summarizer: summarizer.name,
          details: result.details,
          previousPivotId: p.previousPivot?.id ?? null,
        },
        { sessionId: m.sessionId, seq: log.length, parentId: log.at(-1)!.id, id: `pivot-${compactions}` },
        estimator,
      ),
    );
    compactions++;
    await onCompact?.(log, compactions);
  }
  return { log, compactions, context: viewOf(log) };
}
