import type { CondenseExport, ImportedSession } from '../import/index.js';
import { InputError } from '../model/errors.js';
import type { Message } from '../model/message.js';
import { emptySessionState } from '../model/session.js';
import { parseMessage } from '../model/validate.js';
import { openSession } from '../session/index.js';
import { stateFromEntries } from '../session/state.js';
import type { Store } from '../store/store.js';

/** One session ready to write: every message already checked, so writing cannot reject input. */
export type PlannedSession =
  | { id: string; kind: 'messages'; messages: Message[]; system?: string }
  | { id: string; kind: 'exact'; export: CondenseExport };

export interface Imported {
  session: string;
  messages: number;
}

/**
 * Turns parsed transcripts into sessions to write, checking every message against the schema and
 * refusing ids that already exist, before anything is written.
 */
export async function planImport(
  store: Store,
  sessions: ImportedSession[],
  ids: string[],
  file: string,
): Promise<PlannedSession[]> {
  const planned = sessions.map((imported, s): PlannedSession => {
    const id = ids[s]!;
    if (imported.condense) return { id, kind: 'exact', export: imported.condense };
    const messages = imported.messages.map(({ message }, i) =>
      parseMessage(message, { file, field: `${sessions.length > 1 ? `[${s}].` : ''}messages[${i}]` }),
    );
    // An empty session is almost always the wrong file; refusing says so instead of storing nothing.
    if (messages.length === 0)
      throw new InputError('no messages to import', {
        file,
        field: sessions.length > 1 ? `[${s}]` : undefined,
      });
    return { id, kind: 'messages', messages, ...(imported.system ? { system: imported.system } : {}) };
  });
  const seen = new Set<string>();
  for (const { id } of planned) {
    if (seen.has(id) || (await store.getSession(id)))
      throw new InputError(`session '${id}' already exists (choose another id with --session)`, { file });
    seen.add(id);
  }
  return planned;
}

/** Writes planned sessions; if any write fails, the sessions this import created are removed. */
export async function writeImport(store: Store, planned: PlannedSession[]): Promise<Imported[]> {
  const done: Imported[] = [];
  try {
    for (const p of planned) {
      done.push({ session: p.id, messages: 0 });
      const count =
        p.kind === 'exact' ? await writeExact(store, p.id, p.export) : await writeMessages(store, p);
      done[done.length - 1] = { session: p.id, messages: count };
    }
  } catch (error) {
    for (const { session } of done) await store.deleteSession(session);
    throw error;
  }
  return done;
}

/** The transcript's system prompt goes to the session's metadata: sent first, never summarized. */
async function writeMessages(
  store: Store,
  p: { id: string; messages: Message[]; system?: string },
): Promise<number> {
  const session = await openSession(store, p.id, p.system ? { metadata: { system: p.system } } : {});
  if (p.messages.length > 0) await session.append(p.messages);
  return p.messages.length;
}

/** condense's own export: the exact entries (ids, pivots, pruning marks) under the new id. */
async function writeExact(store: Store, id: string, parsed: CondenseExport): Promise<number> {
  const entries = parsed.entries.map((e) => ({ ...e, sessionId: id }));
  const now = Date.now();
  const record = {
    id,
    createdAt: parsed.session.createdAt,
    updatedAt: now,
    headId: null,
    version: 0,
    nextSeq: 0,
    metadata: parsed.session.metadata,
    state: emptySessionState(),
  };
  if (entries.length === 0) {
    await store.createSession(record);
    return 0;
  }
  // The session and its entries in one transaction.
  await store.createSession(record, {
    entries,
    commit: {
      sessionId: id,
      expectedVersion: 0,
      headId: entries.at(-1)!.id,
      nextSeq: entries.at(-1)!.seq + 1,
      state: stateFromEntries(entries, record.state),
    },
  });
  return entries.length;
}
