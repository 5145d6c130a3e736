/**
 * The handover on the real coding sessions of ../shared/data, through the public API: each
 * session is imported with the project's importer (Claude Code's own compaction included), then
 * compacted once, or three times with a third of the session appended before each compaction
 * (`session.compact()`, default options). What the summary and the kept tail then hold is checked
 * against the transcript itself: every request and the latest one verbatim, a current task and a
 * next step drawn from the session, no fixed failure listed as open, no rejected or interrupted
 * call listed as a failure (nor its words in the summary), no folder among the files.
 *
 * The open failures each session really has, read from the transcripts (jq):
 * - claude-code/session-196820da: `ls -lh …/ae6c6696*.jsonl` and `stat -f … ae6c6696*.jsonl` fail
 *   ("no matches found"), then the same probes succeed on the session files that exist: none open.
 * - claude-code/session-3fe1b6bc: Read of src/analytics/plugins/registry.ts ("File does not
 *   exist", never retried) is open; `codemie-codex --task …` failing twice is fixed by
 *   `codemie-codex --profile ollama --task …`; `grep … | jq` (jq parse error) by `cat … | grep` of
 *   the same file; `find … | xargs sh -c …` by the next `find … | xargs cat | jq`.
 * - claude-code/session-624a4a58 (holds a compact_boundary): no failure.
 * - claude-code/session-9eda1058: the Write the user rejected ("STOP what you are doing and wait
 *   for the user") is no failure.
 * - codex/rollout-…11-26-55: the deliberate failing test run is fixed by the same command; the
 *   `rg` runs that exit 1 found nothing (no error printed); the closed stdin of one poll is no
 *   exit of the command, which ended 0: none open.
 * - codex/rollout-…13-28-45: `ps -ef | rg` ("operation not permitted") is fixed by the same
 *   command run with more permissions; two browser calls a policy refused are no failures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planImport, writeImport } from '../../src/cli/import-write.js';
import { LAST_REQUEST_PREFIX } from '../../src/compact/input.js';
import { sessionTruth } from '../../src/eval/truth.js';
import { parseTranscript } from '../../src/import/index.js';
import type { CompactionEntry, Entry } from '../../src/model/entry.js';
import type { Part, ToolPart } from '../../src/model/parts.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { DATA_DIR, explicitFiles, HAS_DATA, noticeIfNoData, spellings } from './support.js';

noticeIfNoData('the handover on real coding sessions');

const SESSIONS: Array<[string, string[]]> = [
  ['claude-code/session-196820da.jsonl', []],
  ['claude-code/session-3fe1b6bc.jsonl', ['src/analytics/plugins/registry.ts']],
  ['claude-code/session-624a4a58.jsonl', []],
  ['claude-code/session-9eda1058.jsonl', []],
  ['codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl', []],
  ['codex/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl', []],
];

/** What a user or a policy answers to a refused call: such a call is no failure. */
const REFUSED = /doesn't want to proceed|rejected this action|interrupted by user/i;
const flat = (s: string) => s.replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();

interface Outcome {
  compactions: number;
  pivot: CompactionEntry;
  /** The summary, then the text of every message kept after it. */
  context: string;
}

async function compacted(file: string, times: number): Promise<Outcome> {
  const path = join(DATA_DIR, 'agent-sessions', file);
  const parsed = parseTranscript(readFileSync(path, 'utf8'), { file: path });
  const imported = Array.isArray(parsed) ? parsed[0]! : parsed;
  // The first part through the importer (with the agent's own compaction, if any), the rest appended.
  const boundary = imported.compactions?.at(-1)?.at ?? 0;
  const cut = (k: number) => boundary + Math.floor(((imported.messages.length - boundary) * k) / times);
  const first = {
    ...imported,
    messages: imported.messages.slice(0, cut(1)),
    compactions: (imported.compactions ?? []).filter((c) => c.at <= cut(1)),
  };
  // The session holding Claude Code's compaction lives in SQLite: what survives is what was stored.
  const store = boundary > 0 ? sqliteStore({ path: ':memory:' }) : memoryStore();
  await writeImport(store, planImport([first], ['s'], path));
  const session = await openSession(store, 's', imported.system ? { system: imported.system } : {});
  let compactions = 0;
  for (let k = 1; k <= times; k++) {
    if (k > 1) await session.append(imported.messages.slice(cut(k - 1), cut(k)).map((m) => m.message));
    if ((await session.compact()).status === 'compacted') compactions++;
  }
  const history: Entry[] = await session.history();
  const pivot = history.findLast((e): e is CompactionEntry => e.kind === 'compaction')!;
  const tail = session
    .activeEntries()
    .flatMap((e): Part[] => (e.kind === 'message' ? e.message.parts : []))
    .flatMap((p) => (p.type === 'text' ? [p.text] : []));
  return { compactions, pivot, context: [pivot.pivot.summary, ...tail].join('\n') };
}

const rows: string[] = [];

describe.skipIf(!HAS_DATA)('the handover of real coding sessions, after 1 and after 3 compactions', () => {
  afterAll(() => {
    if (rows.length > 0)
      console.log(
        ['[handover] session × compactions: failures named/real, files, requests', ...rows].join('\n'),
      );
  });

  const cases = SESSIONS.flatMap(([file, open]) => [1, 3].map((times) => [file, times, open] as const));
  it.each(cases)('%s, %i compaction(s)', async (file, times, open) => {
    const path = join(DATA_DIR, 'agent-sessions', file);
    const raw = readFileSync(path, 'utf8');
    const parsed = parseTranscript(raw, { file: path });
    const imported = Array.isArray(parsed) ? parsed[0]! : parsed;
    const truth = sessionTruth(imported, file.startsWith('claude-code') ? raw : undefined);
    const { compactions, pivot, context } = await compacted(file, times);
    const { details, summary } = pivot.pivot;
    expect(compactions).toBe(times);

    // Every request of the branch verbatim (capped at 2,000 characters), the latest one included.
    const missing = truth.requests.filter(
      (r) => !context.includes(r.length <= 2_000 ? r : r.slice(0, 1_900)),
    );
    expect(missing, 'requests not verbatim').toEqual([]);
    expect(details.lastUserRequest).toBe(truth.latestRequest);
    expect(context).toContain(truth.latestRequest!);
    expect(summary).toContain('Current task:');

    // The next step: present, in the session's own words.
    const next = details.extra?.nextStep;
    expect(Array.isArray(next) && typeof next[0] === 'string' && next[0] !== '').toBe(true);
    const said = flat(
      imported.messages
        .flatMap((m) =>
          m.message.parts.map((p) =>
            p.type === 'text' ? p.text : p.type === 'tool' ? JSON.stringify(p.input) : '',
          ),
        )
        .join('\n'),
    );
    expect(said).toContain(flat(String((next as string[])[0]).replace(/…$/, '')));
    expect(summary).toContain('Next step:');

    // Open failures: exactly the real ones; none that a later success fixed.
    const failed = details.failedCommands ?? [];
    expect(failed.length, failed.join('\n')).toBe(open.length);
    for (const f of open) expect(failed.some((l) => l.includes(f))).toBe(true);
    for (const fixed of truth.fixedFailures)
      expect(
        failed.some((l) => l.startsWith(fixed.slice(0, 40))),
        fixed,
      ).toBe(false);

    // Rejected or interrupted calls: no failures, and their words never in the summary.
    const calls = imported.messages.flatMap((m) =>
      m.message.parts.filter((p): p is ToolPart => p.type === 'tool'),
    );
    for (const p of calls) {
      const said = p.state === 'error' ? p.error : p.state === 'completed' ? JSON.stringify(p.output) : '';
      if (!REFUSED.test(said.slice(0, 400))) continue;
      expect(
        failed.some((l) => l.startsWith(`${p.name} `) || l.includes(JSON.stringify(p.input).slice(0, 40))),
      ).toBe(false);
    }
    expect(summary).not.toMatch(
      /STOP what you are doing|doesn't want to proceed|should not be used\. The agent must/,
    );

    // Files: real ones only (nothing the session shows a path inside of), every file a file tool
    // read or wrote carried.
    const cwd = truth.cwd;
    const absolute = (f: string) => (f.startsWith('/') || f.startsWith('~') ? f : `${cwd}/${f}`);
    const home = cwd ? /^\/(?:Users|home)\/[^/]+/.exec(cwd)?.[0] : undefined;
    const carried = [...details.filesRead, ...details.filesModified];
    const everything = calls.map((p) => JSON.stringify(p.input)).join('\n');
    const folders = carried.filter((f) => {
      const abs = absolute(f);
      const spelled = [abs, home && abs.startsWith('~') ? `${home}${abs.slice(1)}` : abs];
      return spelled.some((s) => s !== undefined && new RegExp(`${escaped(s)}/[\\w.-]`).test(everything));
    });
    expect(folders, 'folders listed as files').toEqual([]);
    const explicit = new Set(calls.flatMap(explicitFiles));
    const dropped = [...explicit].filter((f) => !spellings(f, cwd).some((s) => carried.includes(s)));
    // Files of the tail are in the context verbatim; only the summarized ones must be carried.
    const inTail = dropped.filter((f) => !context.includes(f));
    expect(inTail, 'files neither carried nor in the tail').toEqual([]);
    if (!details.lastUserRequest || !context.includes(`${LAST_REQUEST_PREFIX}${details.lastUserRequest}`))
      expect(summary).toContain("The user's latest request: the last user message below.");

    rows.push(
      `  ${file.split('/').pop()!.slice(0, 40).padEnd(40)} ×${times}: failures ${failed.length}/${open.length}, ` +
        `files ${carried.length}, requests ${truth.requests.length - missing.length}/${truth.requests.length}`,
    );
  });
});

function escaped(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
