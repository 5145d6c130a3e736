/**
 * Issue 4, "Done when": real sessions compacted repeatedly to a small window. Each session is
 * replayed step by step through a Session (see replay.ts); after every prepare() the context is
 * validated in all four formats; at the end the lineage is walked from the stored history alone
 * (see lineage.ts for the precise definitions) and the latest summary is checked for every file
 * the session read or modified.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import { isConversation, walkLineage } from './lineage.js';
import { type ReplayResult, replay } from './replay.js';
import {
  explicitFiles,
  HAS_DATA,
  loadFamily,
  noticeIfNoData,
  type RealSession,
  renderAll,
  sessionCwd,
  spellings,
  toolParts,
} from './support.js';

noticeIfNoData('real sessions compacted repeatedly');

const sessions: RealSession[] = HAS_DATA
  ? [
      ...loadFamily('claude-code'),
      ...loadFamily('codex'),
      ...loadFamily('gemini-cli'),
      ...loadFamily('tau-bench', { every: 10 }), // 20 of the 200 runs
      ...loadFamily('swe-agent', { withToolsOnly: true }), // the function-calling trajectories
    ]
  : [];

/** Files named by explicit path fields in the tool calls of the given entries. */
function filesOf(ids: readonly string[], byId: Map<string, Entry>): Set<string> {
  const messages = ids.flatMap((id) => {
    const e = byId.get(id);
    return e?.kind === 'message' ? [e.message] : [];
  });
  return new Set(toolParts(messages).flatMap(explicitFiles));
}

interface Row {
  name: string;
  conversation: number;
  window: number;
  steps: number;
  compactions: number;
  markers: number;
  prunes: number;
  violations: number;
  summarizedFiles: number;
  tailFiles: number;
}
const rows: Row[] = [];

function row(real: RealSession, r: ReplayResult, markers: number, files: [number, number]): Row {
  return {
    name: real.name.replace(/^.*\//, '').slice(0, 48),
    conversation: r.limits.conversation,
    window: r.limits.contextWindow,
    steps: r.steps,
    compactions: r.compactions,
    markers,
    prunes: r.prunes,
    violations: r.violations.length,
    summarizedFiles: files[0],
    tailFiles: files[1],
  };
}

describe.skipIf(!HAS_DATA)('real sessions compacted repeatedly to a small window', () => {
  afterAll(() => {
    if (rows.length === 0) return;
    const sum = (k: keyof Row) => rows.reduce((a, r) => a + (r[k] as number), 0);
    console.log(
      [
        '[e2e compaction] session: raw conversation tokens / window → steps, compactions, markers, prunes, violations, files (summarized + tail)',
        ...rows.map(
          (r) =>
            `  ${r.name.padEnd(48)} ${String(r.conversation).padStart(6)} / ${String(r.window).padStart(5)} → ` +
            `${r.steps} steps, ${r.compactions} compactions, ${r.markers} markers, ${r.prunes} prunes, ` +
            `${r.violations} violations, files ${r.summarizedFiles} + ${r.tailFiles}`,
        ),
        `[e2e compaction] ${rows.length} sessions, ${sum('steps')} prepared contexts × 4 formats validated, ` +
          `${sum('compactions')} compactions, ${sum('markers')} markers, ${sum('prunes')} prunes, ` +
          `${sum('violations')} violations`,
      ].join('\n'),
    );
  });

  it.each(sessions.map((s) => [s.name, s] as const))('%s', async (_name, real) => {
    const r = await replay(real);
    // Every prepared context (and every format rendered from the same window) passes validate.
    expect(r.errors).toEqual([]);
    expect(r.violations).toEqual([]);

    const history = await r.session.history();
    const lineage = walkLineage(history);
    rows.push(row(real, r, lineage.markers, [0, 0]));
    expect(lineage.problems).toEqual([]);
    expect(lineage.pivots.length).toBe(r.compactions);
    // The log holds each imported message exactly once (markers aside; no continue message is configured).
    expect(lineage.all.length).toBe(real.imported.messages.length);
    // The session's own view starts where the lineage says the tail starts.
    const active = r.session.activeEntries();
    expect(active.filter(isConversation).map((e) => e.id)).toEqual(lineage.tail);
    // A session more than twice its window's conversation space must have compacted.
    if (r.limits.conversation > 2 * r.limits.space) expect(r.compactions).toBeGreaterThan(0);

    // Files: those of summarized entries are named by the latest summary text (cumulative, seed
    // 002) and carried in its details; those of the tail are still in the context verbatim.
    const byId = new Map(history.map((e) => [e.id, e]));
    const summarizedFiles = filesOf(lineage.summarized.flat(), byId);
    const tailFiles = filesOf(lineage.tail, byId);
    rows[rows.length - 1] = row(real, r, lineage.markers, [summarizedFiles.size, tailFiles.size]);
    const latest = lineage.pivots.at(-1)?.pivot;
    const carried = new Set([...(latest?.details.filesRead ?? []), ...(latest?.details.filesModified ?? [])]);
    const cwd = sessionCwd(real.imported.messages.map((m) => m.message));
    const unnamed = [...summarizedFiles].filter(
      (f) => !spellings(f, cwd).some((s) => latest?.summary.includes(s)),
    );
    // A summary keeps to its budget: files it has no room for are counted there, and carried.
    if (!/\d+ more .*left out/.test(latest?.summary ?? ''))
      expect(unnamed, 'files summarized but not named by the latest summary').toEqual([]);
    const uncarried = [...summarizedFiles].filter((f) => !spellings(f, cwd).some((s) => carried.has(s)));
    expect(uncarried, "files summarized but missing from the latest pivot's details").toEqual([]);
    const context = JSON.stringify(renderAll(active, { system: real.imported.system }).anthropic);
    const lost = [...tailFiles].filter((f) => !context.includes(JSON.stringify(f).slice(1, -1)));
    expect(lost, 'files of the kept tail missing from the context').toEqual([]);
  });

  it('covers every family, and the long sessions compacted several times', () => {
    const families = new Set(sessions.map((s) => s.family));
    expect([...families].sort()).toEqual(['claude-code', 'codex', 'gemini-cli', 'swe-agent', 'tau-bench']);
    const long = rows.filter((r) => r.conversation > 80_000);
    expect(long.length).toBe(5); // three Claude Code sessions (one of 15k is short) and two Codex rollouts
    for (const r of long) expect(r.compactions, r.name).toBeGreaterThanOrEqual(3);
    // The replays exercised both triggers: markers queued after a step and checks before a turn.
    expect(rows.reduce((a, r) => a + r.markers, 0)).toBeGreaterThan(0);
  });
});

describe.skipIf(!HAS_DATA)('the lineage walk catches a broken chain (so its passing means something)', () => {
  const real = sessions.find((s) => s.family === 'gemini-cli' && s.imported.messages.length > 10);

  async function compactedHistory(): Promise<Entry[]> {
    const r = await replay(real!);
    const history = await r.session.history();
    expect(walkLineage(history).pivots.length).toBeGreaterThanOrEqual(2);
    return history;
  }

  /** The id of the conversation entry `offset` places after `id`. */
  function shifted(history: Entry[], id: string, offset: number): string {
    const conversation = history.filter(isConversation);
    return conversation[conversation.findIndex((e) => e.id === id) + offset]!.id;
  }

  it('reports a gap, a duplicate, a lost entry and a broken pivot chain', async () => {
    const history = await compactedHistory();
    const pivots = history.filter((e) => e.kind === 'compaction');
    const first = pivots[0]!;
    const tamper = (change: (p: typeof first.pivot) => void): Entry[] =>
      history.map((e) => {
        if (e.id !== first.id || e.kind !== 'compaction') return e;
        const copy = structuredClone(e);
        change(copy.pivot);
        return copy;
      });
    const gap = tamper((p) => {
      p.firstKeptId = shifted(history, p.firstKeptId!, 1);
    });
    expect(walkLineage(gap).problems.join('\n')).toMatch(/window of \d+ ≠ summarized/);
    const duplicate = tamper((p) => {
      p.summarizedThroughId = shifted(history, p.summarizedThroughId, 1);
    });
    expect(walkLineage(duplicate).problems.join('\n')).toMatch(/window of \d+ ≠ summarized/);
    const lost = history.filter((e) => e.id !== first.pivot.summarizedThroughId);
    expect(walkLineage(lost).problems.join('\n')).toMatch(/summarizedThroughId is not a message/);
    const unchained = history.map((e) =>
      e.id === pivots[1]!.id && e.kind === 'compaction'
        ? { ...e, pivot: { ...e.pivot, previousPivotId: null } }
        : e,
    );
    expect(walkLineage(unchained).problems.join('\n')).toMatch(/previousPivotId null/);
  });
});
