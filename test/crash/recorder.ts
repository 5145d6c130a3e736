/**
 * The crash child's view of its store: every write is announced before it starts (`intent`, with
 * the rows and entries it will leave) and acknowledged when it returns (`done`), and every
 * persistence step — before a write, inside the store, after it — is a kill point (`point NAME`).
 * `CRASH_KILL=NAME@K` kills the process at the K-th point of that name, `CRASH_KILL=#N` at the
 * N-th point of any name (0-based). Lines go to stdout, which is synchronous on a pipe: a line
 * printed before the kill reaches the parent.
 */
import type { Entry } from '../../src/model/entry.js';
import type { Commit, NewSession, PartsUpdate, Store } from '../../src/store/store.js';
import { digest, type Intent, partsDigest, type RowDigest, rowDigest, type SessionChange } from './digest.js';

export const out = (line: string) => process.stdout.write(`${line}\n`);

/** Counts points and dies at the one CRASH_KILL names. */
export function killSwitch(spec = process.env.CRASH_KILL): (name: string) => void {
  const byName = spec?.match(/^(.+)@(\d+)$/);
  const overall = spec?.match(/^#(\d+)$/);
  const seen = new Map<string, number>();
  let total = 0;
  return (name) => {
    out(`point ${name}`);
    const k = (seen.get(name) ?? 0) + 1;
    seen.set(name, k);
    const hit = byName
      ? byName[1] === name && Number(byName[2]) === k
      : overall && Number(overall[1]) === total;
    total++;
    if (hit) process.kill(process.pid, 'SIGKILL');
  };
}

const commitRow = (c: Commit): RowDigest => ({
  version: c.expectedVersion + 1,
  headId: c.headId,
  nextSeq: c.nextSeq,
  state: digest(c.state),
});

const added = (entries: readonly Entry[]) =>
  entries.map((e) => ({ id: e.id, seq: e.seq, digest: digest(e) }));

function created({ record, initial }: NewSession): SessionChange {
  return {
    id: record.id,
    before: null,
    after: initial ? commitRow(initial.commit) : rowDigest(record),
    added: added(initial?.entries ?? []),
    updated: [],
  };
}

/**
 * The child's recorder. Points are named `PHASE/METHOD: STEP`: the phase of the operation the
 * child is in (`phase`, e.g. `compact`), the store write in flight (`append#2` for the phase's
 * second write), and the step — `before`, `after`, or what the store factory reports to `step`
 * (steps while the store opens and recovers are `open/-: STEP`). `point` is the kill switch;
 * `wrap` gives the store the session writes through.
 */
export function recorder(point: (name: string) => void): {
  step: (name: string) => void;
  phase: (name: string) => void;
  wrap: (inner: Store) => Store;
} {
  let phase = 'open';
  let inPhase = 0;
  let inFlight = '-';
  let n = 0;
  const write: Write = async (method, changes, run) => {
    const intent: Intent = { n: n++, method, changes: await changes() };
    out(`intent ${JSON.stringify(intent)}`);
    inPhase++;
    const name = `${phase}/${method}${inPhase > 1 ? `#${inPhase}` : ''}`;
    point(`${name}: before`);
    inFlight = name;
    try {
      const result = await run();
      point(`${name}: after`);
      out(`done ${intent.n}`);
      return result;
    } catch (error) {
      out(`failed ${intent.n}`);
      throw error;
    } finally {
      inFlight = '-';
    }
  };
  return {
    step: (name) => point(inFlight === '-' ? `${phase}/-: ${name}` : `${inFlight}: ${name}`),
    phase: (name) => {
      phase = name;
      inPhase = 0;
    },
    wrap: (inner) => wrapped(inner, write),
  };
}

type Write = <T>(
  method: string,
  changes: () => Promise<SessionChange[]>,
  run: () => Promise<T>,
) => Promise<T>;

function wrapped(inner: Store, write: Write): Store {
  /** The one session a commit changes: its row now, the row the commit leaves, what it writes. */
  const change = async (
    commit: Commit,
    entries: readonly Entry[],
    updated: SessionChange['updated'] = [],
  ): Promise<SessionChange[]> => {
    const record = await inner.getSession(commit.sessionId);
    const before = record ? rowDigest(record) : null;
    return [{ id: commit.sessionId, before, after: commitRow(commit), added: added(entries), updated }];
  };
  async function partsChanges(sessionId: string, updates: readonly PartsUpdate[]) {
    const updated: SessionChange['updated'] = [];
    for (const u of updates) {
      const entry = await inner.getEntry(sessionId, u.entryId);
      if (!entry) throw new Error(`updateParts of a missing entry ${u.entryId}`);
      updated.push({
        id: u.entryId,
        before: partsDigest(entry),
        after: digest([u.parts, u.partTokens, u.tokens]),
      });
    }
    return updated;
  }
  const store = Object.create(inner) as Store;
  return Object.assign(store, {
    append: (entries: Entry[], commit: Commit) =>
      write(
        'append',
        () => change(commit, entries),
        () => inner.append(entries, commit),
      ),
    updateParts: async (updates: PartsUpdate[], commit: Commit) =>
      write(
        'updateParts',
        async () => change(commit, [], await partsChanges(commit.sessionId, updates)),
        () => inner.updateParts(updates, commit),
      ),
    createSession: (record: NewSession['record'], initial?: NewSession['initial']) =>
      write(
        'createSession',
        async () => [created({ record, initial })],
        () => inner.createSession(record, initial),
      ),
    createSessions: (batch: readonly NewSession[]) =>
      write(
        'createSessions',
        async () => batch.map(created),
        () => inner.createSessions(batch),
      ),
    deleteSession: () => Promise.reject(new Error('the crash tests do not delete sessions')),
  });
}
