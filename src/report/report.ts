import type { Entry } from '../model/entry.js';
import { openSession, type SessionOptions } from '../session/index.js';
import { currentCalibration } from '../session/state.js';
import { UnknownSessionError } from '../store/errors.js';
import { isEventLedger, type StoredEvent } from '../store/events.js';
import type { Store } from '../store/store.js';
import { FALLBACK_CONTEXT_WINDOW, lookupModel } from '../tokens/models.js';
import { type ReportData, reportData } from './data.js';
import { quotingEntries } from './family.js';
import { renderPage } from './page.js';

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
  const [log, sessions] = await Promise.all([session.history(), store.listSessions()]);
  const next = session.estimate();
  const calibrated = (currentCalibration(record.state, config.model)?.samples ?? 0) > 0;
  return reportData({
    log,
    active: session.activeEntries(),
    session: {
      id: sessionId,
      model: config.model,
      store: store.kind,
      entries: log.length,
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
    estimator: config.estimator,
    overheadRaw: session.overheadRaw,
    systemTokens: config.system ? config.estimator.text(config.system) : 0,
    local: config.checks.estimate === 'local',
    sessions,
    events: await ledgerEvents(store, log),
    now: config.now(),
  });
}

/** The ledger's first events and every event the session quoted; null when the store keeps none. */
async function ledgerEvents(store: Store, log: readonly Entry[]): Promise<StoredEvent[] | null> {
  if (!isEventLedger(store)) return null;
  const listed = await store.listEvents({ limit: LEDGER_EVENTS });
  const have = new Set(listed.map((e) => e.id));
  const missing = [...quotingEntries(log).keys()].filter((id) => !have.has(id));
  const quoted = await Promise.all(missing.map((id) => store.getEvent(id)));
  const all = [...listed, ...quoted.filter((e): e is StoredEvent => e !== undefined)];
  return all.sort((a, b) => a.at - b.at || a.seq - b.seq);
}
