import {
  buildSummaryRequest,
  type CompactionPlan,
  isMarkerOnly,
  isNothingToCompact,
  type NothingToCompact,
  type PlanOptions,
  planCompaction,
  type SpanSummary,
  StreamedSpanPlan,
  type SummaryBudget,
  type SummaryRequest,
  type SummaryResult,
} from '../compact/index.js';
import { buildCompactionEntry } from '../model/build.js';
import { type CompactionEntry, type Entry, isMessageEntry, type MessageEntry } from '../model/entry.js';
import { pagesForward } from '../store/pages.js';
import type { StepContext } from './step-context.js';

/**
 * Model windows of entries summarized per chunk: each chunk re-chooses the running summary's
 * excerpts, a cost that does not shrink with the chunk, so fewer, larger chunks summarize a
 * 100,000-entry window in 13 steps instead of 52 (7 s instead of 11 s) while one chunk's text stays
 * a few tens of MB in memory. A summarizer that reads the span itself is bounded by what it holds
 * of its reading instead, the same number of tokens: a coding session's tool outputs are let go
 * once read, and 100,000 of its messages make one summary.
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
 * million-entry window compacts in bounded memory and each row is read once. A summarizer with
 * `readSpan` reads the pages itself, and each page can be let go once read. The plan is then
 * made as usual over the held tail, with that running summary as the previous pivot. Nothing is
 * written here: a failed chunk leaves the session as it was.
 */
export async function planHeldInPart(
  session: StepContext,
  options: PlanOptions,
  opts: ChunkOptions,
): Promise<CompactionPlan | NothingToCompact> {
  const { log, config } = session;
  const span: StreamedSpan = {
    pages: streamedMessages(session),
    chunkTokens: CHUNK_WINDOWS * config.budget.contextWindow || Number.POSITIVE_INFINITY,
  };
  let running = await latestPivot(session);
  running = config.summarizer.readSpan
    ? await summarizeRead(session, running, span, opts)
    : await summarizeChunks(session, running, span, opts);
  const held = log.active.filter(isMessageEntry);
  const window: Entry[] = running === null ? held : [running, ...held];
  const plan = planCompaction(window, options);
  // The held tail is one turn that must be kept whole: summarize it too rather than keep the
  // window as large as it is.
  return isNothingToCompact(plan) && running !== null ? planCompaction(window, { keepNone: true }) : plan;
}

/** The part of the window not held, as it streams, and the size a chunk of it may reach. */
interface StreamedSpan {
  /** Its messages a page at a time (marker-only requests are no conversation). */
  pages: AsyncIterable<MessageEntry[]>;
  chunkTokens: number;
}

/** The messages of the part not held, a page at a time, progress reported as each page is read. */
async function* streamedMessages(session: StepContext): AsyncGenerator<MessageEntry[]> {
  const { log } = session;
  const { id, state } = log.record;
  // Entries to stream, by seq: what a progress display counts against.
  const total = Math.max(0, log.heldFromSeq - state.activeFromSeq);
  let read = 0;
  for await (const page of pagesForward(log.store, id, state.activeFromSeq, log.heldFromSeq)) {
    read += page.length;
    session.events.emit('compaction:progress', { read, total });
    yield page.filter((e): e is MessageEntry => e.kind === 'message' && !isMarkerOnly(e));
  }
}

/** The span given whole, a chunk at a time, each chunk's summary the next one's previous pivot. */
async function summarizeChunks(
  session: StepContext,
  first: CompactionEntry | null,
  span: StreamedSpan,
  opts: ChunkOptions,
): Promise<CompactionEntry | null> {
  const summarize = (request: SummaryRequest) => session.config.summarizer.summarize(request, opts.signal);
  let running = first;
  /** The chunk summarized on top of the running summary: the next running summary. */
  const next = async (chunk: MessageEntry[]) => {
    const plan = chunkPlan(running, chunk);
    return isNothingToCompact(plan)
      ? running
      : summarizeSpan(session, plan, chunk.at(-1)!.seq, opts, summarize);
  };
  let chunk: MessageEntry[] = [];
  let tokens = 0;
  for await (const page of span.pages) {
    for (const entry of page) {
      chunk.push(entry);
      tokens += entry.tokens;
      if (tokens < span.chunkTokens) continue;
      running = await next(chunk);
      chunk = [];
      tokens = 0;
    }
  }
  return chunk.length === 0 ? running : next(chunk);
}

/**
 * A chunk's plan on top of the running summary. A stored pivot that kept a tail stands before the
 * chunk that holds its tail: read as a window, the pivot would be cut off with what it summarized
 * and its summary lost, so its kept tail counts as summarized here (as StreamedSpanPlan reads it).
 */
function chunkPlan(
  running: CompactionEntry | null,
  chunk: MessageEntry[],
): CompactionPlan | NothingToCompact {
  if (running === null) return planCompaction(chunk, { keepNone: true });
  const pivot =
    running.pivot.firstKeptId === null
      ? running
      : { ...running, pivot: { ...running.pivot, firstKeptId: null } };
  return planCompaction([pivot, ...chunk], { keepNone: true });
}

/**
 * The span read by the summarizer itself (Summarizer.readSpan), a page at a time, so that each
 * page is let go once read: a new summary starts only when what the last one holds of its reading
 * reaches a chunk's size.
 */
async function summarizeRead(
  session: StepContext,
  first: CompactionEntry | null,
  span: StreamedSpan,
  opts: ChunkOptions,
): Promise<CompactionEntry | null> {
  const { summarizer } = session.config;
  let running = first;
  let reading: { summary: SpanSummary; plan: StreamedSpanPlan } | undefined;
  const close = async (read: { summary: SpanSummary; plan: StreamedSpanPlan }) => {
    const made = read.plan.plan();
    if (made === null) return;
    running = await summarizeSpan(session, made, read.plan.lastSeq, opts, (r) =>
      read.summary.summarize(r, opts.signal),
    );
  };
  for await (const messages of span.pages) {
    // No summary is made for many pages: a compaction cancelled meanwhile stops here.
    opts.signal?.throwIfAborted();
    reading ??= {
      summary: summarizer.readSpan!(running?.pivot.details),
      plan: new StreamedSpanPlan(running),
    };
    reading.summary.read(messages);
    reading.plan.read(messages);
    if (reading.summary.heldTokens() < span.chunkTokens) continue;
    await close(reading);
    reading = undefined;
  }
  if (reading) await close(reading);
  return running;
}

async function latestPivot(session: StepContext): Promise<CompactionEntry | null> {
  const { pivotId } = session.log.record.state;
  if (pivotId === null) return null;
  const entry =
    session.log.active.find((e) => e.id === pivotId) ??
    (await session.log.store.getEntry(session.id, pivotId));
  return entry?.kind === 'compaction' ? entry : null;
}

/** A span summarized on top of the running summary: the next running summary (never stored). */
async function summarizeSpan(
  session: StepContext,
  plan: CompactionPlan,
  /** The seq of the span's last entry, which the summary stands in for. */
  seq: number,
  opts: ChunkOptions,
  summarize: (request: SummaryRequest) => Promise<SummaryResult>,
): Promise<CompactionEntry> {
  const { summarizer, estimator, compaction } = session.config;
  const request = buildSummaryRequest(plan, {
    instructions: opts.instructions,
    estimator,
    appendix: compaction.appendix,
    ...(opts.budget ? { budget: opts.budget } : {}),
  });
  const result = await summarize(request);
  opts.signal?.throwIfAborted();
  const through = plan.summarizedThroughId;
  return buildCompactionEntry(
    {
      summary: result.text,
      summarizedThroughId: through,
      firstKeptId: null,
      tokensBefore: plan.tokensBefore,
      tokensAfter: 0,
      auto: true,
      summarizer: summarizer.name,
      ...(summarizer.model === undefined ? {} : { model: summarizer.model }),
      details: result.details,
      previousPivotId: plan.previousPivot?.id ?? null,
    },
    { sessionId: session.id, seq, parentId: through, id: `${through}~summary` },
    estimator,
  );
}
