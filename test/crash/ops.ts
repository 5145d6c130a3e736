/**
 * The operations the crash child repeats until killed, one cycle at a time: append batches, prune
 * (tool results arriving after their calls, then session.prune), compaction (the offline
 * extractive summarizer, its task recorded first) and import (the CLI's import path, a file of
 * many runs and a condense export holding pivots). `inputs` writes the files an operation reads,
 * once, in the parent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importFile } from '../../src/cli/cmd-import.js';
import { exportJsonl } from '../../src/import/index.js';
import type { Message } from '../../src/model/message.js';
import { openSession, type Session, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/store.js';

export type OpName = 'append' | 'prune' | 'compact' | 'import';

export interface CrashOp {
  name: OpName;
  /** Cycles per child: enough for every step of the operation to occur more than once. */
  cycles: number;
  /** The options every session of the test opens with (the child's and the checks'). */
  options: SessionOptions;
  /** Writes the operation's input files into `dir` (parent, once). */
  inputs?(dir: string): Promise<void>;
  /**
   * Whether the checks append to the sessions the child wrote (default true). An import is run
   * again after a kill and must find its sessions as it wrote them: its next cycles are the
   * writes after recovery.
   */
  appendAfterKill?: boolean;
  /**
   * A word the operation's tool outputs hold: the child searches for it every cycle (so the
   * SQLite full-text index holds what a prune then rewrites), the checks compare the hits with
   * the stored entries.
   */
  searchTerm?: string;
  /** The phases whose every persistence step a test kills at (the others get random kills). */
  focus: string[];
  /** One cycle; `session` opens the test's session on first use, `phase` names what follows. */
  cycle(ctx: CycleContext): Promise<void>;
}

export interface CycleContext {
  store: Store;
  session: () => Promise<Session>;
  i: number;
  inputs: string;
  phase: (name: string) => void;
}

export const SESSION = 's';
const base: SessionOptions = { model: 'gpt-4o', checks: { atOpen: false } };

const words = (n: number, salt: string) =>
  Array.from(
    { length: n },
    (_, i) => `${salt}-${(i * 7919) % 1000} fixes the parser in src/m${i % 9}.ts`,
  ).join('. ');

const userSays = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const assistantSays = (text: string): Message => ({ role: 'assistant', parts: [{ type: 'text', text }] });

/** An assistant step running two tools (their results come later) and the ids of the calls. */
function running(i: number): { message: Message; callIds: string[] } {
  const callIds = [`call-${process.pid}-${i}-a`, `call-${process.pid}-${i}-b`];
  const parts = callIds.map((callId, k) => ({
    type: 'tool' as const,
    callId,
    name: 'read',
    input: { path: `src/m${i}${k}.ts` },
    state: 'running' as const,
  }));
  return {
    message: { role: 'assistant', parts: [{ type: 'text', text: `Reading m${i}.` }, ...parts] },
    callIds,
  };
}

/** A finished tool call with `chars` characters of output. */
function finished(i: number, chars: number): Message {
  const output = words(Math.ceil(chars / 40), `out${i}`).slice(0, chars);
  const part = {
    type: 'tool' as const,
    callId: `done-${process.pid}-${i}`,
    name: 'grep',
    input: { q: `q${i}` },
  };
  return { role: 'assistant', parts: [{ ...part, state: 'completed', output }] };
}

const appendOp: CrashOp = {
  name: 'append',
  cycles: 4,
  options: { ...base, prune: false },
  focus: ['append'],
  async cycle({ session, i, phase }) {
    const s = await session();
    phase('append');
    // Batches of one to three messages: single entries and multi-entry transactions.
    const batch = [
      userSays(`Request ${i}: ${words(8, `r${i}`)}`),
      finished(i, 600),
      assistantSays(`Done ${i}.`),
    ];
    await s.append(batch.slice(0, 1 + (i % 3)));
  },
};

const pruneOp: CrashOp = {
  name: 'prune',
  cycles: 4,
  // Seed 000's erasing prune of the whole log: outputs a compaction moved below the window (into
  // JSONL archives) are erased too, so one update may rewrite several files.
  options: {
    ...base,
    prune: { protectTokens: 300, minimumTokens: 300, protectTurns: 1, mode: 'erase', onSummary: 'skip' },
    compaction: { summaryTokens: 300, plan: { keepTurns: 1 } },
  },
  focus: ['prune'],
  searchTerm: 'gizmo',
  async cycle({ store, session, i, phase }) {
    const s = await session();
    const { message, callIds } = running(i);
    phase('turns');
    await s.append([userSays(`Look at m${i}.`), message]);
    // Results arrive after their calls: one-entry parts updates.
    phase('result');
    for (const callId of callIds) await s.recordToolResult(callId, { output: `gizmo ${words(30, callId)}` });
    phase('search');
    await store.search('gizmo');
    phase('turns');
    await s.append(assistantSays(`m${i} read.`));
    phase('compact');
    if (i % 4 === 2) await s.compact();
    // Every other cycle, so that one prune marks outputs of several entries and parts.
    phase('prune');
    if (i % 2 === 1) await s.prune();
  },
};

const compactOp: CrashOp = {
  name: 'compact',
  cycles: 2,
  options: {
    ...base,
    prune: false,
    compaction: { recordTask: true, summaryTokens: 300, plan: { keepTurns: 1 } },
  },
  focus: ['compact'],
  async cycle({ session, i, phase }) {
    const s = await session();
    phase('turns');
    for (let t = 0; t < 2; t++)
      await s.append([
        userSays(`Task ${i}.${t}: ${words(40, `t${i}${t}`)}`),
        finished(i * 2 + t, 2_000),
        assistantSays(`Finished ${i}.${t}: ${words(6, `f${i}${t}`)}`),
      ]);
    // The task message, then the pivot: two writes.
    phase('compact');
    await s.compact();
  },
};

const TAU = 'tau-runs.json';
const EXPORT = 'compacted.jsonl';

const importOp: CrashOp = {
  name: 'import',
  cycles: 3,
  options: base,
  appendAfterKill: false,
  async inputs(dir) {
    writeFileSync(join(dir, TAU), JSON.stringify(tauRuns(4)));
    // A condense export whose entries hold pivots: imported exactly, with its running figures.
    const store = memoryStore();
    const session = await openSession(store, 'exported', compactOp.options);
    for (let i = 0; i < 2; i++)
      await compactOp.cycle({ store, session: async () => session, i, inputs: dir, phase: () => {} });
    writeFileSync(join(dir, EXPORT), exportJsonl(session.record, await store.loadFrom('exported', 0)));
  },
  focus: ['import'],
  async cycle({ store, i, inputs, phase }) {
    phase('import');
    // A cycle a kill interrupted is run again by the next child: the same file under the same
    // ids, which must then complete (or find it complete and change nothing).
    const file = join(inputs, i % 2 === 0 ? TAU : EXPORT);
    await importFile(store, file, { session: `imp-${i}` });
  },
};

export const OPS: Record<OpName, CrashOp> = {
  append: appendOp,
  prune: pruneOp,
  compact: compactOp,
  import: importOp,
};

/** tau-bench's shape: one session per run, all written in one createSessions. */
function tauRuns(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    task_id: i,
    trial: 0,
    reward: 1,
    info: { task: { user_id: `user_${i}` } },
    traj: [
      { role: 'system', content: 'Follow the airline policy.' },
      { role: 'user', content: `Cancel reservation R${i}.` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `c${i}`, type: 'function', function: { name: 'get', arguments: `{"id":"R${i}"}` } },
        ],
      },
      { role: 'tool', tool_call_id: `c${i}`, name: 'get', content: words(10, `R${i}`) },
      { role: 'assistant', content: `R${i} is cancelled.` },
    ],
  }));
}
