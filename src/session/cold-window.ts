import {
  buildSummaryRequest,
  type CompactionPlan,
  isMarkerOnly,
  isNothingToCompact,
  type NothingToCompact,
  type PlanOptions,
  planCompaction,
  type SummaryBudget,
} from '../compact/index.js';
import { buildCompactionEntry } from '../model/build.js';
import { type CompactionEntry, type Entry, isMessageEntry, type MessageEntry } from '../model/entry.js';
import type { StepContext } from './step-context.js';
import { pagesForward } from './window-read.js';

/**
 * Model windows of entries summarized per chunk: each chunk re-chooses the running summary's
 * excerpts, a cost that does not shrink with the chunk, so fewer, larger chunks summarize a
 * 100,000-entry window in 13 steps instead of 52 (7 s instead of 11 s) while one chunk's text stays
 * a few tens of MB in memory.
 */
const CHUNK_WINDOWS = 40;

export interface ChunkOptions {
  instructions?: string;
  signal?: AbortSignal;
  /** Each chunk's running summary keeps to this size. */
  budget?: SummaryBudget;
}

/**
 * The compaction plan of a window held only in part (Log `whole` false: a never-compacted import
 * far larger than the model's window). The part not held is streamed from the store a page at a
 * time and summarized in chunks, each summary carried into the next as its previous pivot, so a
 * million-entry window compacts in bounded memory and each row is read once. The plan is then
 * made as usual over the held tail, with that running summary as the previous pivot. Nothing is
 * written here: a failed chunk leaves the session as it was.
 */
export async function planHeldInPart(
  session: StepContext,
  options: PlanOptions,
  opts: ChunkOptions,
): Promise<CompactionPlan | NothingToCompact> {
  const { log } = session;
  const { id, state } = log.record;
  const chunkTokens = CHUNK_WINDOWS * session.config.budget.contextWindow || Number.POSITIVE_INFINITY;
  let running = await latestPivot(session);
  let chunk: MessageEntry[] = [];
  let tokens = 0;
  // Entries to stream, by seq: what a progress display counts against.
  const total = Math.max(0, log.heldFromSeq - state.activeFromSeq);
  let read = 0;
  for await (const page of pagesForward(log.store, id, state.activeFromSeq, log.heldFromSeq)) {
    read += page.length;
    session.events.emit('compaction:progress', { read, total });
    for (const entry of page) {
      if (entry.kind !== 'message' || isMarkerOnly(entry)) continue;
      chunk.push(entry);
      tokens += entry.tokens;
      if (tokens < chunkTokens) continue;
      running = await summarizeChunk(session, running, chunk, opts);
      chunk = [];
      tokens = 0;
    }
  }
  if (chunk.length > 0) running = await summarizeChunk(session, running, chunk, opts);
  const held = log.active.filter(isMessageEntry);
  const window: Entry[] = running === null ? held : [running, ...held];
  const plan = planCompaction(window, options);
  // The held tail is one turn that must be kept whole: summarize it too rather than keep the
  // window as large as it is.
  return isNothingToCompact(plan) && running !== null ? planCompaction(window, { keepNone: true }) : plan;
}

async function latestPivot(session: StepContext): Promise<CompactionEntry | null> {
  const { pivotId } = session.log.record.state;
  if (pivotId === null) return null;
  const entry =
    session.log.active.find((e) => e.id === pivotId) ??
    (await session.log.store.getEntry(session.id, pivotId));
  return entry?.kind === 'compaction' ? entry : null;
}

/** One chunk summarized on top of the running summary: the next running summary (never stored). */
async function summarizeChunk(
  session: StepContext,
  running: CompactionEntry | null,
  chunk: MessageEntry[],
  opts: ChunkOptions,
): Promise<CompactionEntry | null> {
  const plan = planCompaction(running === null ? chunk : [running, ...chunk], { keepNone: true });
  if (isNothingToCompact(plan)) return running;
  const { summarizer, estimator, compaction } = session.config;
  const request = buildSummaryRequest(plan, {
    instructions: opts.instructions,
    estimator,
    appendix: compaction.appendix,
    ...(opts.budget ? { budget: opts.budget } : {}),
  });
  const result = await summarizer.summarize(request, opts.signal);
  opts.signal?.throwIfAborted();
  const last = chunk.at(-1)!;
  return buildCompactionEntry(
    {
      summary: result.text,
      summarizedThroughId: plan.summarizedThroughId,
      firstKeptId: null,
      tokensBefore: plan.tokensBefore,
      tokensAfter: 0,
      auto: true,
      summarizer: summarizer.name,
      ...(summarizer.model === undefined ? {} : { model: summarizer.model }),
      details: result.details,
      previousPivotId: running?.id ?? null,
    },
    { sessionId: session.id, seq: last.seq, parentId: last.id, id: `${last.id}~summary` },
    estimator,
  );
}
