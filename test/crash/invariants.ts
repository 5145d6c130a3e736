/**
 * What every stored session must satisfy whatever a kill interrupted: whole, schema-valid entries
 * numbered without a gap, a session row that matches them (head, next seq, running figures
 * rebuilt from the entries), and pivots that point at entries before them. Each function returns
 * the violations it found, as sentences.
 */
import type { Entry } from '../../src/model/entry.js';
import { entrySchema } from '../../src/model/entry.js';
import type { SessionRecord, SessionState } from '../../src/model/session.js';
import { stateFromEntries } from '../../src/session/state.js';

/** The running figures a write computes incrementally and stateFromEntries rebuilds from scratch. */
const DERIVED = [
  'activeFromSeq',
  'pivotId',
  'activeTokens',
  'unprunedToolTokens',
  'totalTokens',
  'entryCount',
] as const satisfies readonly (keyof SessionState)[];

export function sessionViolations(record: SessionRecord, entries: Entry[]): string[] {
  const found: string[] = [];
  const say = (what: string) => found.push(`session ${record.id}: ${what}`);
  entries.forEach((e, i) => {
    const parsed = entrySchema.safeParse(e);
    if (!parsed.success) say(`entry ${e.id} (seq ${e.seq}) is not a whole entry: ${parsed.error.message}`);
    if (e.seq !== i) say(`entry ${e.id} has seq ${e.seq} at position ${i}`);
    if (e.sessionId !== record.id) say(`entry ${e.id} belongs to ${e.sessionId}`);
    const parent = entries[i - 1]?.id ?? null;
    if (e.parentId !== parent) say(`entry ${e.id} has parent ${e.parentId}, not ${parent}`);
  });
  if (record.nextSeq !== entries.length) say(`nextSeq ${record.nextSeq} with ${entries.length} entries`);
  const head = entries.at(-1)?.id ?? null;
  if (record.headId !== head) say(`headId ${record.headId}, last entry ${head}`);
  const rebuilt = stateFromEntries(entries, record.state);
  for (const key of DERIVED)
    if (rebuilt[key] !== record.state[key])
      say(`state.${key} is ${record.state[key]}, the entries give ${rebuilt[key]}`);
  const bySeq = new Map(entries.map((e) => [e.id, e.seq]));
  for (const e of entries) {
    if (e.kind !== 'compaction') continue;
    const { summary, summarizedThroughId, firstKeptId } = e.pivot;
    if (summary.trim() === '') say(`pivot ${e.id} has an empty summary`);
    const through = bySeq.get(summarizedThroughId);
    if (through === undefined || through >= e.seq)
      say(`pivot ${e.id} summarizes through ${summarizedThroughId}, not an earlier entry`);
    const kept = firstKeptId === null ? e.seq : bySeq.get(firstKeptId);
    if (kept === undefined || kept > e.seq)
      say(`pivot ${e.id} keeps from ${firstKeptId}, not an earlier entry`);
  }
  const { pivotId, pendingMarkerId } = record.state;
  if (pivotId !== null && entries.find((e) => e.id === pivotId)?.kind !== 'compaction')
    say(`state.pivotId ${pivotId} is no stored pivot`);
  if (pendingMarkerId !== null && !bySeq.has(pendingMarkerId))
    say(`state.pendingMarkerId ${pendingMarkerId} is no stored entry`);
  return found;
}
