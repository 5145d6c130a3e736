/**
 * Old or new: the child announced every write (recorder.ts), so after a kill each session it
 * wrote must be exactly as its last write left it — or, for the write in flight when it died,
 * exactly as it was before that write. A write of several sessions (an import) must land for
 * all of them or for none.
 */
import type { Entry } from '../../src/model/entry.js';
import type { SessionRecord } from '../../src/model/session.js';
import { digest, type Intent, partsDigest, type RowDigest, rowDigest, type SessionChange } from './digest.js';

export interface Transcript {
  intents: Intent[];
  done: Set<number>;
}

export function transcript(lines: string[]): Transcript {
  const intents: Intent[] = [];
  const done = new Set<number>();
  for (const line of lines) {
    if (line.startsWith('intent ')) intents.push(JSON.parse(line.slice(7)) as Intent);
    else if (line.startsWith('done ')) done.add(Number(line.slice(5)));
  }
  return { intents, done };
}

export interface Stored {
  record: SessionRecord | undefined;
  entries: Entry[];
}

const sameRow = (a: RowDigest, b: RowDigest) =>
  a.version === b.version && a.headId === b.headId && a.nextSeq === b.nextSeq && a.state === b.state;

/** Whether a session is as the change leaves it. */
function isNew(c: SessionChange, s: Stored): boolean {
  if (!s.record || !sameRow(rowDigest(s.record), c.after)) return false;
  const byId = new Map(s.entries.map((e) => [e.id, e]));
  return (
    c.added.every((a) => s.entries[a.seq]?.id === a.id && digest(s.entries[a.seq]) === a.digest) &&
    c.updated.every((u) => byId.has(u.id) && partsDigest(byId.get(u.id)!) === u.after)
  );
}

/** Whether a session is as it was before the change. */
function isOld(c: SessionChange, s: Stored): boolean {
  if (c.before === null) return s.record === undefined;
  if (!s.record || !sameRow(rowDigest(s.record), c.before)) return false;
  const byId = new Map(s.entries.map((e) => [e.id, e]));
  return (
    s.entries.length === c.before.nextSeq &&
    c.updated.every((u) => byId.has(u.id) && partsDigest(byId.get(u.id)!) === u.before)
  );
}

export type Landing = 'old' | 'new';

/** What a write's sessions hold now, against what it announced (for the message of a violation). */
async function stored(intent: Intent, load: (id: string) => Promise<Stored>): Promise<string> {
  const parts: string[] = [];
  for (const c of intent.changes) {
    const s = await load(c.id);
    const row = s.record ? rowDigest(s.record) : null;
    const byId = new Map(s.entries.map((e) => [e.id, e]));
    const updated = c.updated.map((u) => {
      const now = byId.get(u.id);
      return `${u.id}: ${now ? partsDigest(now) : 'missing'} (was ${u.before}, to be ${u.after})`;
    });
    parts.push(
      `${c.id}: row ${JSON.stringify(row)} (was ${JSON.stringify(c.before)}, to be ${JSON.stringify(c.after)}), ` +
        `${s.entries.length} entries${updated.length > 0 ? `, parts ${updated.join('; ')}` : ''}`,
    );
  }
  return parts.join(' | ');
}

/**
 * Checks each session's last write against what is stored. Returns the violations and, when the
 * child died inside a write, where that write landed.
 */
export async function verdict(
  t: Transcript,
  load: (id: string) => Promise<Stored>,
): Promise<{ violations: string[]; inFlight: Landing | null }> {
  const last = new Map<string, Intent>();
  for (const intent of t.intents) for (const c of intent.changes) last.set(c.id, intent);
  const violations: string[] = [];
  let inFlight: Landing | null = null;
  for (const intent of new Set(last.values())) {
    const landed: (Landing | 'neither')[] = [];
    for (const c of intent.changes) {
      const s = await load(c.id);
      landed.push(isNew(c, s) ? 'new' : isOld(c, s) ? 'old' : 'neither');
    }
    const what = `${intent.method} #${intent.n} (${intent.changes.map((c) => c.id).join(', ')})`;
    const acknowledged = t.done.has(intent.n);
    if (acknowledged && landed.some((l) => l !== 'new'))
      violations.push(`${what} returned, but stored: ${landed.join(', ')}`);
    else if (landed.includes('neither'))
      violations.push(`${what} left neither the old nor the new state: ${await stored(intent, load)}`);
    else if (new Set(landed).size > 1)
      violations.push(`${what} landed for some sessions only: ${landed.join(', ')}`);
    else if (!acknowledged) inFlight = landed[0] as Landing;
  }
  return { violations, inFlight };
}
