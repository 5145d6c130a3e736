import { isDeepStrictEqual } from 'node:util';
import type { CondenseExport, ImportedSession } from '../import/index.js';
import type { Entry } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import type { JsonObject } from '../model/json.js';
import { emptySessionState, type SessionState } from '../model/session.js';
import { loneSurrogates, sessionIdProblem } from '../model/text.js';
import { parseMessage } from '../model/validate.js';
import { stateFromEntries } from '../session/state.js';
import type { NewSession, Store } from '../store/store.js';
import { normalizeUsage } from '../tokens/usage.js';
import { type ImportedStep, importedLog, type LogSource } from './import-log.js';

/** One session ready to write: every message and usage already checked, so writing cannot reject input. */
export type PlannedSession =
  | (LogSource & { kind: 'messages'; warnings: string[] })
  | { id: string; kind: 'exact'; export: CondenseExport };

export interface Imported {
  session: string;
  messages: number;
  /** Compactions the agent ran, now pivots (present when there were any). */
  compactions?: number;
  /** What was skipped or repaired (present when anything was). */
  warnings?: string[];
  /** True when the session already held exactly this import (a re-run): nothing was written. */
  unchanged?: boolean;
}

/**
 * Turns parsed transcripts into sessions to write, checking every message against the schema and
 * every usage against the known provider shapes, and refusing an id given twice, before anything
 * is written.
 */
export function planImport(sessions: ImportedSession[], ids: string[], file: string): PlannedSession[] {
  const planned = sessions.map((imported, s): PlannedSession => {
    const id = ids[s]!;
    if (imported.condense) return { id, kind: 'exact', export: imported.condense };
    const at = (field: string) => `${sessions.length > 1 ? `[${s}].` : ''}${field}`;
    const warnings = [...imported.warnings];
    let unsized = 0;
    let lone = 0;
    const messages = imported.messages.map((m, i): ImportedStep => {
      lone += loneSurrogates(m.message);
      const message = parseMessage(m.message, { file, field: at(`messages[${i}]`) });
      const usage = m.usage === undefined ? undefined : usageOf(m.usage, file, at(`messages[${i}].usage`));
      // A usage with no prompt tokens (Claude Code's locally written "<synthetic>" replies) was no request.
      if (usage?.inputTotal === 0) unsized++;
      return {
        message,
        ...(usage && usage.inputTotal > 0 ? { usage } : {}),
        ...(m.model ? { model: m.model } : {}),
        ...(m.createdAt === undefined ? {} : { createdAt: m.createdAt }),
      };
    });
    if (unsized > 0) warnings.push(`${unsized} usages reporting no prompt tokens not used for calibration`);
    if (lone > 0) warnings.push(`${lone} lone surrogates (text no UTF-8 can hold) replaced by U+FFFD`);
    // An empty session is almost always the wrong file; refusing says so instead of storing nothing.
    if (messages.length === 0)
      throw new InputError('no messages to import', {
        file,
        field: sessions.length > 1 ? `[${s}]` : undefined,
      });
    const compactions = imported.compactions ?? [];
    // The importers' contract, not the file's: a pivot follows a message and they come in order.
    compactions.forEach((c, i) => {
      if (c.at < 1 || c.at > messages.length || c.at < (compactions[i - 1]?.at ?? 1))
        throw new Error(`${imported.format} importer: compaction ${i} at ${c.at} is out of order or range`);
    });
    return {
      id,
      kind: 'messages',
      messages,
      compactions,
      agent: imported.format,
      warnings,
      ...(imported.system ? { system: imported.system } : {}),
    };
  });
  const seen = new Set<string>();
  for (const [s, { id }] of planned.entries()) {
    const problem = sessionIdProblem(id);
    if (problem)
      throw new InputError(`session id ${JSON.stringify(id)} ${problem} (choose one with --session)`, {
        file,
        field: planned.length > 1 ? `[${s}]` : undefined,
      });
    if (seen.has(id))
      throw new InputError(`session id '${id}' is given to two sessions of the file`, { file });
    seen.add(id);
  }
  return planned;
}

function usageOf(raw: unknown, file: string, field: string) {
  try {
    return normalizeUsage(raw);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(`unreadable usage (${error.message})`, { file, field });
  }
}

/**
 * Writes the planned sessions in one store transaction: a kill or a failure midway leaves none of
 * them. A session that already holds exactly what this import would write (the same file imported
 * before) is left as it is, so running an import again always succeeds; one holding anything
 * else is refused before anything is written.
 */
export async function writeImport(
  store: Store,
  planned: PlannedSession[],
  file?: string,
): Promise<Imported[]> {
  const built = planned.map((p) => (p.kind === 'exact' ? exactSession(p.id, p.export) : logSession(p)));
  const fresh: NewSession[] = [];
  for (const b of built) {
    const id = b.session.record.id;
    if (!(await store.getSession(id))) fresh.push(b.session);
    else if (sameContent(await store.loadFrom(id, 0), b.session.initial?.entries ?? []))
      b.report = { ...b.report, unchanged: true };
    else throw new InputError(`session '${id}' already exists (choose another id with --session)`, { file });
  }
  await store.createSessions(fresh);
  return built.map((b) => b.report);
}

/** What an import writes, without what each run makes anew (entry ids, times of undated messages). */
function sameContent(stored: Entry[], planned: Entry[]): boolean {
  const content = (e: Entry) => (e.kind === 'message' ? e.message : e.pivot.summary);
  return stored.length === planned.length && isDeepStrictEqual(stored.map(content), planned.map(content));
}

interface Built {
  session: NewSession;
  report: Imported;
}

/** An agent's transcript: its messages, usage, times and compactions as a session recorded live. */
function logSession(p: LogSource & { warnings: string[] }): Built {
  const log = importedLog(p, Date.now());
  const report: Imported = {
    session: p.id,
    messages: p.messages.length,
    ...(p.compactions.length > 0 ? { compactions: p.compactions.length } : {}),
    ...(p.warnings.length > 0 ? { warnings: p.warnings } : {}),
  };
  return { session: newSession(p.id, log, log.entries, log.state), report };
}

/**
 * condense's own export: the exact entries (ids, pivots, pruning marks) under the new id. The
 * running figures are rebuilt from them; the usage and calibration come from the header.
 */
function exactSession(id: string, parsed: CondenseExport): Built {
  const entries = parsed.entries.map((e) => ({ ...e, sessionId: id }));
  const carried = parsed.session.state;
  const rebuilt = stateFromEntries(entries, {
    ...emptySessionState(),
    calibration: carried?.calibration ?? {},
  });
  const state = carried?.lastUsage
    ? { ...rebuilt, lastUsage: carried.lastUsage, addedSinceUsage: carried.addedSinceUsage }
    : rebuilt;
  return {
    session: newSession(id, parsed.session, entries, state),
    report: { session: id, messages: entries.length },
  };
}

/** The session row and its entries, to be created together. */
function newSession(
  id: string,
  header: { createdAt: number; metadata: JsonObject },
  entries: Entry[],
  state: SessionState,
): NewSession {
  const record = {
    id,
    createdAt: header.createdAt,
    updatedAt: Date.now(),
    headId: null,
    version: 0,
    nextSeq: 0,
    metadata: header.metadata,
    state: emptySessionState(),
  };
  const last = entries.at(-1);
  if (!last) return { record };
  return {
    record,
    initial: {
      entries,
      commit: { sessionId: id, expectedVersion: 0, headId: last.id, nextSeq: last.seq + 1, state },
    },
  };
}
