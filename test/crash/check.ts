/**
 * The parent's look at a store a child was killed over: it opens without error, every session
 * satisfies the invariants, every write the child made is old-or-new, nothing stored before the
 * child ran is lost, and the sessions it wrote still work — an append lands and prepare() gives a
 * valid request (then the store kind's own checks, on what those appends settled).
 */
import { validate } from '../../src/context/index.js';
import { openSession } from '../../src/session/index.js';
import type { Store } from '../../src/store/store.js';
import { historyViolations, type Snapshot, snapshot } from './history.js';
import { sessionViolations } from './invariants.js';
import type { CrashOp } from './ops.js';
import { searchViolations } from './search-check.js';
import { type Landing, type Stored, type Transcript, verdict } from './verdict.js';

export interface Checked {
  violations: string[];
  /** Where the write the child died in landed; null when it died between writes. */
  inFlight: Landing | null;
  /** The store after the checks (they append): what the next child must not lose. */
  after: Snapshot;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What a store kind checks besides (its files, say), on the sessions the check wrote to. */
export type ExtraCheck = (store: Store, ids: string[]) => Promise<string[]>;

export async function checkAfterKill(
  open: () => Promise<Store>,
  t: Transcript,
  op: CrashOp,
  before: Snapshot,
  extra?: ExtraCheck,
): Promise<Checked> {
  let store: Store;
  try {
    store = await open();
  } catch (error) {
    return { violations: [`the store does not open: ${message(error)}`], inFlight: null, after: before };
  }
  try {
    const violations: string[] = [];
    const load = async (id: string): Promise<Stored> => ({
      record: await store.getSession(id),
      entries: await store.loadFrom(id, 0),
    });
    for (const { id } of await store.listSessions()) {
      const { record, entries } = await load(id);
      if (record) violations.push(...sessionViolations(record, entries));
    }
    const judged = await verdict(t, load);
    violations.push(...judged.violations, ...historyViolations(before, await snapshot(store), t));
    if (op.searchTerm) violations.push(...(await searchViolations(store, op.searchTerm)));
    if (violations.length === 0) {
      const written = [...new Set(t.intents.flatMap((i) => i.changes.map((c) => c.id)))];
      const ids = [];
      for (const id of written.slice(-3)) if (await store.getSession(id)) ids.push(id);
      violations.push(...(await stillWorks(store, ids, op)));
      if (extra) violations.push(...(await extra(store, ids)));
    }
    return { violations, inFlight: judged.inFlight, after: await snapshot(store) };
  } catch (error) {
    return { violations: [`reading the store failed: ${message(error)}`], inFlight: null, after: before };
  } finally {
    await store.close();
  }
}

/** Each session opens, takes an append (unless the operation forbids it), and prepares a valid request. */
async function stillWorks(store: Store, ids: string[], op: CrashOp): Promise<string[]> {
  const found: string[] = [];
  for (const id of ids) {
    try {
      const session = await openSession(store, id, op.options);
      if (op.appendAfterKill !== false) {
        await session.append({ role: 'user', parts: [{ type: 'text', text: 'Carry on after the crash.' }] });
        const after = await store.loadFrom(id, session.record.nextSeq - 1);
        if (after[0]?.kind !== 'message')
          found.push(`session ${id}: the append after recovery is not stored`);
      }
      const prepared = await session.prepare();
      const problems = validate(prepared.messages, 'ai-sdk');
      if (problems.length > 0)
        found.push(`session ${id}: prepare() gave an invalid request: ${JSON.stringify(problems)}`);
      found.push(...sessionViolations((await store.getSession(id))!, await store.loadFrom(id, 0)));
    } catch (error) {
      found.push(`session ${id}: unusable after the kill: ${message(error)}`);
    }
  }
  return found;
}
