import { describe, expect, it } from 'vitest';
import { type CompactionPlan, isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import { activeWindow } from '../../src/compact/turns.js';
import type { Message } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';
import { assistant, entries, ids, marker, TestLog, tool, user } from './helpers.js';

function plan(...args: Parameters<typeof planCompaction>): CompactionPlan {
  const p = planCompaction(...args);
  if (isNothingToCompact(p)) throw new Error(`expected a plan, got: ${p.reason}`);
  return p;
}

/** n turns of [user, assistant], each entry `size` tokens. */
function turns(n: number, size = 100): { messages: Message[]; tokens: number[] } {
  const messages: Message[] = [];
  for (let i = 1; i <= n; i++) messages.push(user(`request ${i}`), assistant(`answer ${i}`));
  return { messages, tokens: messages.map(() => size) };
}

describe('planCompaction: the kept tail', () => {
  it('keeps the last 2 user turns and summarizes the rest', () => {
    const { messages, tokens } = turns(5);
    const p = plan(entries(messages, 0, tokens));
    expect(ids(p.toSummarize)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5']);
    expect(ids(p.toKeep)).toEqual(['e6', 'e7', 'e8', 'e9']);
    expect(p.summarizedThroughId).toBe('e5');
    expect(p.firstKeptId).toBe('e6');
    expect(p.tokensBefore).toBe(1000);
    expect(p.predictedTailTokens).toBe(400);
    expect(p.replayRequest).toBeUndefined();
    expect(p.latestUserRequest).toBe('request 5');
  });

  it('caps the tail at keepTokens with whole turns', () => {
    const { messages } = turns(4);
    const p = plan(entries(messages, 0, [10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 8_000, 8_000]));
    expect(ids(p.toKeep)).toEqual(['e6', 'e7']);
    expect(p.predictedTailTokens).toBe(16_000);
  });

  it('seed 002 partition (A002-03): whole turns while the total stays ≤ 30,000', () => {
    const { messages } = turns(5);
    const log = entries(
      messages,
      0,
      messages.map(() => 7_500),
    );
    const p = plan(log, { keepTurns: Infinity, keepTokens: 30_000, minKeepLatestTurn: false });
    expect(ids(p.toKeep)).toEqual(['e6', 'e7', 'e8', 'e9']); // turns 4 and 5: 15,000 + 15,000
    expect(p.summarizedThroughId).toBe('e5');
  });

  it('seed 002 preset keeps nothing when the newest turn alone is over the cap', () => {
    const { messages } = turns(3);
    const p = plan(entries(messages, 0, [100, 100, 100, 100, 20_000, 20_000]), {
      keepTurns: Infinity,
      minKeepLatestTurn: false,
    });
    expect(p.toKeep).toEqual([]);
    expect(p.firstKeptId).toBeNull();
    expect(p.replayRequest).toBe('request 3');
  });

  it('keepNone summarizes everything (seeds 000/001/003/004)', () => {
    const { messages, tokens } = turns(3);
    const p = plan(entries(messages, 0, tokens), { keepNone: true });
    expect(p.toSummarize).toHaveLength(6);
    expect(p.toKeep).toEqual([]);
    expect(p.firstKeptId).toBeNull();
    expect(p.replayRequest).toBe('request 3');
  });

  it('summarizes the oldest kept turn when everything would fit the tail (progress)', () => {
    const { messages, tokens } = turns(2);
    const p = plan(entries(messages, 0, tokens));
    expect(ids(p.toSummarize)).toEqual(['e0', 'e1']);
    expect(ids(p.toKeep)).toEqual(['e2', 'e3']);
  });

  it('markers are neither summarized nor kept', () => {
    const msgs = [...turns(3).messages, marker('focus on auth')];
    const p = plan(entries(msgs));
    const all = [...ids(p.toSummarize), ...ids(p.toKeep)];
    expect(all).not.toContain('e6');
    expect(all).toHaveLength(6);
  });

  it('a lone latest user message is kept whole (the floor), even over the cap', () => {
    const msgs = [...turns(2).messages, user('huge paste')];
    const p = plan(entries(msgs, 0, [100, 100, 100, 100, 50_000]));
    expect(ids(p.toKeep)).toEqual(['e4']);
  });
});

describe('planCompaction: a single turn too large to keep', () => {
  it('one user turn with 100 tool steps compacts, split at a step boundary', () => {
    const msgs: Message[] = [user('Fix every failing test in the repo')];
    for (let i = 0; i < 100; i++)
      msgs.push(assistant('', tool('bash', { command: `npm test -- ${i}` }, 'x'.repeat(8000))));
    const log = entries(msgs);
    const p = plan(log);
    expect(p.toKeep.length).toBeGreaterThan(0);
    expect(p.toKeep.every((e) => e.message.role === 'assistant')).toBe(true);
    expect(p.predictedTailTokens).toBeLessThanOrEqual(30_000);
    expect(p.toSummarize[0]!.id).toBe('e0');
    expect([...p.toSummarize, ...p.toKeep]).toEqual(log);
    // The opener is summarized, so it must reach the model verbatim.
    expect(p.replayRequest).toBe('Fix every failing test in the repo');
    expect(p.tokensBefore).toBeGreaterThan(p.predictedTailTokens * 5);
  });

  it('keeps nothing of the turn when even its last step is over the cap', () => {
    const log = entries([user('go'), assistant('a'), assistant('b')], 0, [10, 40_000, 40_000]);
    const p = plan(log);
    expect(p.toKeep).toEqual([]);
    expect(p.replayRequest).toBe('go');
  });
});

describe('planCompaction: nothing to compact (A002-14)', () => {
  it('empty window, markers only, or only the latest turn that fits', () => {
    expect(planCompaction([])).toMatchObject({ nothing: true });
    expect(planCompaction(entries([marker()]))).toMatchObject({ nothing: true });
    const r = planCompaction(entries([user('hi'), assistant('hello')]));
    expect(isNothingToCompact(r) && r.reason).toMatch(/only the latest turn/);
  });
});

describe('planCompaction: recursive compaction (seed 002, A002-01)', () => {
  it('the second compaction summarizes the previous summary and the previous kept tail', () => {
    const log = new TestLog();
    const { messages, tokens } = turns(5);
    log.append(messages, tokens); // e0..e9 = turns 1-5
    const first = plan(log.all);
    expect(ids(first.toKeep)).toEqual(['e6', 'e7', 'e8', 'e9']); // turns 4-5 kept
    const pivot1 = log.pivot(first, 'summary of turns 1-3', {
      filesRead: [],
      filesModified: [],
      lastUserRequest: 'request 5',
    });
    const more = turns(8).messages.slice(10); // turns 6-8
    log.append(
      more,
      more.map(() => 100),
    );
    const second = plan(log.all);
    expect(second.previousPivot?.id).toBe(pivot1.id);
    // turns 4, 5, 6 (kept by compact-001, then newer) are summarized with summary 1; 7-8 kept.
    expect(ids(second.toSummarize)).toEqual(['e6', 'e7', 'e8', 'e9', 'e11', 'e12']);
    expect(ids(second.toKeep)).toEqual(['e13', 'e14', 'e15', 'e16']);
    expect(second.summarizedThroughId).toBe('e12');
    expect(second.tokensBefore).toBe(pivot1.tokens + 1000);
    // Whole log and active window give the same plan.
    expect(plan(activeWindow(log.all))).toEqual(second);
  });

  it('falls back to the previous pivot’s recorded last request (A004-03)', () => {
    const log = new TestLog();
    log.append(turns(3).messages);
    const first = plan(log.all, { keepNone: true });
    log.pivot(first, 's1', { filesRead: [], filesModified: [], lastUserRequest: 'request 3' });
    log.append([assistant('still working'), assistant('done')]);
    const second = plan(log.all, { keepNone: true });
    expect(second.latestUserRequest).toBe('request 3');
    expect(second.replayRequest).toBeUndefined();
  });
});

describe('planCompaction: a tool call still waiting for its result', () => {
  /** Five turns of 100-token entries; turn 2's answer is a call whose result has not come yet. */
  const running = (command: string): ToolPart => ({
    type: 'tool',
    callId: command,
    name: 'bash',
    input: { command },
    state: 'running',
  });
  function waitingAt(state: 'running' | 'completed') {
    const { messages, tokens } = turns(5);
    messages[3] = assistant(
      'building',
      state === 'running' ? running('make') : tool('bash', { command: 'make' }),
    );
    return entries(messages, 0, tokens);
  }

  it('is kept, not summarized: its result (from any worker) must find it in the view', () => {
    const p = plan(waitingAt('running'), { keepTokens: 400 });
    expect(ids(p.toSummarize)).toEqual(['e0', 'e1', 'e2']);
    expect(p.firstKeptId).toBe('e3');
    expect(ids(plan(waitingAt('completed'), { keepTokens: 400 }).toSummarize)).toHaveLength(6);
  });

  it('is summarized when it sits more than twice the tail cap back (abandoned), or a layout keeps nothing', () => {
    // A 300-token cap keeps one turn (e8, e9); keeping from e3 would be 700 tokens, over 2 × 300.
    expect(ids(plan(waitingAt('running'), { keepTokens: 300 }).toSummarize)).toHaveLength(8);
    expect(plan(waitingAt('running'), { keepNone: true }).toKeep).toEqual([]);
  });

  it('an abandoned call far back does not leave a recent one unprotected', () => {
    const log = waitingAt('running');
    log[5] = entries([assistant('testing', running('test'))], 5, [100])[0]!;
    // keepTokens 250: the zone is 500 tokens back (e5 on); e3's call is older than that.
    const p = plan(log, { keepTokens: 250 });
    expect(p.firstKeptId).toBe('e5');
    expect(ids(p.toSummarize)).toContain('e3');
  });
});
