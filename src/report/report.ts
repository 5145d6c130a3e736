import { openSession, type SessionOptions } from '../session/index.js';
import { currentCalibration } from '../session/state.js';
import { UnknownSessionError } from '../store/errors.js';
import { isEventLedger, type StoredEvent } from '../store/events.js';
import { pagesForward } from '../store/pages.js';
import type { Store } from '../store/store.js';
import { FALLBACK_CONTEXT_WINDOW, lookupModel } from '../tokens/models.js';
import { type ReportData, reportData } from './data.js';
import { renderPage } from './page.js';
import { Replay } from './replay.js';

/** How many ledger events a report lists besides those the session quoted (the ledger's cap). */
const LEDGER_EVENTS = 1_000;

/**
 * An HTML report of a stored session, as one self-contained file (no network): the prompt size of
 * every request against the window, the trigger and the usable budget, prunes and compactions
 * marked; each compaction's figures, summary, details and what it kept and summarized; what fills
 * the window now; the forks and the events ledger. Read-only: the session is opened with pruning
 * and the at-open check off, so nothing is written. `options` are the session's options (model,
 * limits, preset budget, system prompt, tools), as the agent opens it.
 */
export async function report(store: Store, sessionId: string, options: SessionOptions = {}): Promise<string> {
  return renderPage(await reportOf(store, sessionId, options));
}

/** The figures `report` draws. */
export async function reportOf(
  store: Store,
  sessionId: string,
  options: SessionOptions = {},
): Promise<ReportData> {
  const record = await store.getSession(sessionId);
  if (!record) throw new UnknownSessionError(sessionId);
  const session = await openSession(store, sessionId, {
    ...options,
    prune: false,
    checks: { ...options.checks, atOpen: false },
  });
  await session.loadWindow();
  const { config } = session;
  const active = session.activeEntries();
  const replay = new Replay({
    model: config.model,
    overheadRaw: session.overheadRaw,
    estimator: config.estimator,
    local: config.checks.estimate === 'local',
    activeFromSeq: active[0]?.seq ?? Number.POSITIVE_INFINITY,
  });
  // A page at a time (pages small enough that their strings die young): the log is never held
  // whole, each page's content dropped once replayed.
  let entries = 0;
  for await (const page of pagesForward(store, sessionId, 0, record.nextSeq)) {
    for (const entry of page) replay.add(entry);
    entries += page.length;
  }
  const replayed = replay.finish();
  const sessions = await store.listSessions();
  const next = session.estimate();
  const calibrated = (currentCalibration(record.state, config.model)?.samples ?? 0) > 0;
  return reportData({
    replayed,
    active,
    session: {
      id: sessionId,
      model: config.model,
      store: store.kind,
      entries,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    },
    budget: {
      window: config.budget.contextWindow,
      usable: config.budget.usable,
      trigger: config.budget.limit,
      windowFallback:
        !lookupModel(config.model).known && config.budget.contextWindow === FALLBACK_CONTEXT_WINDOW,
    },
    next: {
      tokens: next.tokens,
      basis:
        next.method === 'usage+delta'
          ? 'last reported prompt + estimate of what came since'
          : calibrated
            ? 'calibrated estimate'
            : 'estimate, uncalibrated',
    },
    estimate: next,
    overheadRaw: session.overheadRaw,
    systemTokens: config.system ? config.estimator.text(config.system) : 0,
    sessions,
    events: await ledgerEvents(store, replayed.quoted),
    now: config.now(),
  });
}

/** The ledger's first events and every event the session quoted; null when the store keeps none. */
async function ledgerEvents(store: Store, quoted: Map<string, number>): Promise<StoredEvent[] | null> {
  if (!isEventLedger(store)) return null;
  const listed = await store.listEvents({ limit: LEDGER_EVENTS });
  const have = new Set(listed.map((e) => e.id));
  const missing = [...quoted.keys()].filter((id) => !have.has(id));
  const fetched = await Promise.all(missing.map((id) => store.getEvent(id)));
  const all = [...listed, ...fetched.filter((e): e is StoredEvent => e !== undefined)];
  return all.sort((a, b) => a.at - b.at || a.seq - b.seq);
}
