/**
 * Seed 002 (compaction as a turn) scenarios with the seed-002 preset: the first and second
 * compactions of its diagrams (summarize 1-3 keep 4-5; summarize C1..6 keep 7-8) with the 30k
 * keep rule (A002-03), the lineage fields, the summary as a system message, the recursive
 * summary (A002-01), and the reserve threshold window − 20,000.
 */
import { describe, expect, it } from 'vitest';
import type { AnthropicPayload, OpenAIChatMessage } from '../../src/context/index.js';
import type { CompactionEntry, Message } from '../../src/model/index.js';
import { openSession, presetOptions, type Session, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, expectValid, scripted, sizedSay, sizedUser, toolRun, user } from './support.js';

// "e.g. 200k tokens": the reserve threshold is 200,000 − 20,000 = 180,000.
const options = (extra: SessionOptions = {}, contextWindow = 200_000): SessionOptions => ({
  ...presetOptions('seed-002'),
  model: 'nexus-model',
  limits: { contextWindow },
  ...extra,
});

/** Turn n of `tokens` tokens: a 1,000-token query and the response (15,000 by default). */
const turn = (n: number, tokens = 15_000): Message[] => [
  sizedUser(`turn-00${n} query`, 1_000),
  sizedSay(`turn-00${n} response`, tokens - 1_000),
];

/** Turns 1-5 at 180,001 tokens: 1-3 large, 4-5 at 15,000 each (the 30k that is kept). */
async function fiveTurns(session: Session): Promise<void> {
  for (const [n, tokens] of [
    [1, 50_000],
    [2, 50_000],
    [3, 50_001],
    [4, 15_000],
    [5, 15_000],
  ] as const) {
    await session.append(turn(n, tokens));
  }
}

/** Ids of turn n's query and response entries, by their text. */
async function idsOf(session: Session, n: number): Promise<{ query: string; response: string }> {
  const history = await session.history();
  const find = (text: string) =>
    history.find(
      (e) => e.kind === 'message' && e.message.parts[0]?.type === 'text' && e.message.parts[0].text === text,
    )!.id;
  return { query: find(`turn-00${n} query`), response: find(`turn-00${n} response`) };
}

describe('seed 002: first and second compaction', () => {
  it('summarizes 1-3 keeping 4-5, then C1..6 keeping 7-8, with lineage and figures', async () => {
    const summarizer = scripted((request, n) =>
      n === 1
        ? 'User discussed project setup, decided on TypeScript.'
        : `Previously summarized: ${request.previousSummary}. Then user worked on auth.`,
    );
    const session = await openSession(
      memoryStore(),
      's',
      options({ compaction: { ...presetOptions('seed-002').compaction, summarizer } }),
    );
    await fiveTurns(session);

    const first = await session.prepare();
    expect(first.decision).toMatchObject({ limitKind: 'reserve', limit: 180_000 });
    expect(first.compaction?.status).toBe('compacted');
    if (first.compaction?.status !== 'compacted') return;
    const c1: CompactionEntry = first.compaction.pivot;
    const [t3, t4] = [await idsOf(session, 3), await idsOf(session, 4)];
    expect(c1.pivot).toMatchObject({
      summary: 'User discussed project setup, decided on TypeScript.',
      summarizedThroughId: t3.response,
      firstKeptId: t4.query,
      previousPivotId: null,
      tokensBefore: 180_001,
      tokensAfter: c1.tokens + 30_000,
    });
    expect(c1.parentId).toBe((await idsOf(session, 5)).response);

    // Agent context for the next turn: [System: summary of 1-3] [Turn 4] [Turn 5] [New query].
    await session.append(sizedUser('turn-006 query', 1_000));
    const next = await session.prepare({ format: 'openai' });
    expect(next.compaction).toBeNull();
    const sent = next.messages as OpenAIChatMessage[];
    expect(sent[0]).toEqual({ role: 'system', content: c1.pivot.summary });
    expect(sent.slice(1).map((m) => `${m.role}:${String(m.content).split('\n')[0]}`)).toEqual([
      'user:turn-004 query',
      'assistant:turn-004 response',
      'user:turn-005 query',
      'assistant:turn-005 response',
      'user:turn-006 query',
    ]);

    // Turn 6 is large, so that C1 + 4-8 pass the threshold again.
    await session.append([sizedSay('turn-006 response', 120_000), ...turn(7), ...turn(8)]);
    const second = await session.prepare({ format: 'openai' });
    expect(second.compaction?.status).toBe('compacted');
    if (second.compaction?.status !== 'compacted') return;
    const c2 = second.compaction.pivot;
    const [t6, t7] = [await idsOf(session, 6), await idsOf(session, 7)];
    expect(c2.pivot).toMatchObject({
      summarizedThroughId: t6.response,
      firstKeptId: t7.query,
      previousPivotId: c1.id,
      tokensBefore: c1.tokens + 30_000 + 121_000 + 30_000,
      tokensAfter: c2.tokens + 30_000,
    });
    // Recursive: the second summary is built from the first plus turns 4-6 (A002-01).
    const request = summarizer.requests[1]!;
    expect(request.previousSummary).toBe(c1.pivot.summary);
    expect(request.transcript).toContain('turn-004 query');
    expect(request.transcript).toContain('turn-006 response');
    expect(request.transcript).not.toContain('turn-007');
    expect(c2.pivot.summary).toContain('decided on TypeScript');
    const after = second.messages as OpenAIChatMessage[];
    expect(after[0]).toEqual({ role: 'system', content: c2.pivot.summary });
    expect(after.slice(1).map((m) => String(m.content).split(' ')[0])).toEqual([
      'turn-007',
      'turn-007',
      'turn-008',
      'turn-008',
    ]);
  });

  it('the summary is merged into Anthropic system and Gemini systemInstruction', async () => {
    const session = await openSession(memoryStore(), 's', options({ system: 'You are Nexus.' }));
    await fiveTurns(session);
    const prepared = await session.prepare({ format: 'anthropic' });
    expect(prepared.compaction?.status).toBe('compacted');
    if (prepared.compaction?.status !== 'compacted') return;
    const payload = prepared.messages as AnthropicPayload;
    const system = JSON.stringify(payload.system);
    expect(system).toContain('You are Nexus.');
    expect(system).toContain(JSON.stringify(prepared.compaction.summary).slice(1, 200));
    expect(payload.messages.every((m) => m.role === 'user' || m.role === 'assistant')).toBe(true);
    expectValid(payload, 'anthropic');
    const gemini = (await session.prepare({ format: 'gemini' })).messages;
    expectValid(gemini, 'gemini');
    expect(JSON.stringify((gemini as { systemInstruction: unknown }).systemInstruction)).toContain(
      'You are Nexus.',
    );
  });

  it('facts of the first summary survive the second (extractive, recursive)', async () => {
    const session = await openSession(memoryStore(), 's', options());
    await session.append([
      user('Set up the project in TypeScript; never commit to main directly'),
      act(toolRun('read', { path: 'config/tsconfig.base.json' }, 49_000)),
    ]);
    for (let n = 2; n <= 5; n++) await session.append(turn(n, n < 4 ? 52_000 : 15_000));
    expect((await session.prepare()).compaction?.status).toBe('compacted');
    for (let n = 6; n <= 8; n++) await session.append(turn(n, n === 6 ? 130_000 : 15_000));
    const second = await session.prepare();
    expect(second.compaction?.status).toBe('compacted');
    if (second.compaction?.status !== 'compacted') return;
    expect(second.compaction.pivot.pivot.previousPivotId).not.toBeNull();
    expect(second.compaction.summary).toContain('config/tsconfig.base.json');
    expect(second.compaction.summary).toContain('never commit to main directly');
  });
});

describe('seed 002: reserve threshold', () => {
  it.each([
    [10_000, false],
    [10_001, true],
  ])('60,000 + %i tokens against 90,000 − 20,000 = 70,000 (strict >)', async (last, compact) => {
    const session = await openSession(memoryStore(), 's', options({}, 90_000));
    for (let n = 1; n <= 4; n++) await session.append(turn(n));
    await session.append(sizedUser('turn-005 query', last));
    const prepared = await session.prepare();
    if (compact) {
      expect(prepared.compaction).toMatchObject({ status: 'compacted', tokensBefore: 70_001 });
    } else {
      expect(prepared.compaction).toBeNull();
      expect(prepared.decision).toMatchObject({ tokens: 70_000, limit: 70_000, limitKind: 'reserve' });
    }
  });
});

describe("seed 002 §Compaction Scenarios: the worked example's figures", () => {
  it('"tokensBefore": 150000, "tokensAfter": 45000, then 160000 → 50000: calculateTokens(summary) + calculateTokens(toKeep)', async () => {
    // Summaries of exactly 15,000 and 20,000 tokens (chars/4), as the example's figures imply.
    const summarizer = scripted((_, n) => (n === 1 ? 's'.repeat(60_000) : 't'.repeat(80_000)));
    const session = await openSession(
      memoryStore(),
      's',
      options({ compaction: { ...presetOptions('seed-002').compaction, summarizer } }, 165_000),
    );
    for (const [n, tokens] of [
      [1, 40_000],
      [2, 40_000],
      [3, 40_000],
      [4, 15_000],
      [5, 15_000],
    ] as const)
      await session.append(turn(n, tokens));
    const first = await session.prepare();
    expect(first.compaction).toMatchObject({
      status: 'compacted',
      tokensBefore: 150_000,
      tokensAfter: 45_000,
    });
    if (first.compaction?.status !== 'compacted') return;
    expect(first.compaction.pivot.pivot).toMatchObject({ tokensBefore: 150_000, tokensAfter: 45_000 });
    expect(first.compaction.pivot.tokens).toBe(15_000);

    await session.append([...turn(6, 85_000), ...turn(7), ...turn(8)]);
    const second = await session.prepare();
    expect(second.compaction).toMatchObject({
      status: 'compacted',
      tokensBefore: 160_000,
      tokensAfter: 50_000,
    });
    if (second.compaction?.status !== 'compacted') return;
    const [t6, t7] = [await idsOf(session, 6), await idsOf(session, 7)];
    expect(second.compaction.pivot.pivot).toMatchObject({
      summarizedThroughId: t6.response,
      firstKeptId: t7.query,
      tokensBefore: 160_000,
      tokensAfter: 50_000,
    });
  });
});

describe('seed 002 §Compaction Process: "summarizedThroughTurnId: toSummarize.at(-1)?.id" — nothing to summarize (A002-14)', () => {
  it.each([
    ['one turn that fits the 30k kept', [26_000]],
    ['one turn larger than the 30k kept', [80_000]],
    ['three turns that all fit the 30k kept', [10_000, 10_000, 9_000]],
  ])('%s: no compaction, a reason, nothing written', async (_, sizes) => {
    const summarizer = scripted(() => 'never called');
    const session = await openSession(
      memoryStore(),
      's',
      options({ compaction: { ...presetOptions('seed-002').compaction, summarizer } }),
    );
    for (const [i, tokens] of sizes.entries()) await session.append(turn(i + 1, tokens));
    const before = (await session.history()).length;
    const outcome = await session.compact();
    expect(outcome).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/nothing .*to summarize/),
    });
    expect(summarizer.requests).toHaveLength(0);
    expect(await session.history()).toHaveLength(before);
  });
});

describe('seed 002 §Smart Forking: "Default: Use summary + turns from fork point forward"', () => {
  it("a fork at turn-004 after compact-002: the summary as the fork's own compaction at turn-004, then the fork's turns", async () => {
    const FORKED_AT = 1_800_000_000_000;
    let now = 1_700_000_000_000;
    const session = await openSession(memoryStore(), 's', options({ now: () => now }));
    await fiveTurns(session);
    expect((await session.prepare()).compaction?.status).toBe('compacted');
    await session.append([sizedUser('turn-006 query', 1_000), sizedSay('turn-006 response', 120_000)]);
    await session.append([...turn(7), ...turn(8)]);
    const second = await session.prepare();
    if (second.compaction?.status !== 'compacted') throw new Error('no second compaction');
    const c2 = second.compaction.pivot;
    const t4 = await idsOf(session, 4);

    now = FORKED_AT;
    const fork = await session.fork('fork', { at: t4.response });
    const log = await fork.history();
    const pivot = log.at(-1)!;
    if (pivot.kind !== 'compaction') throw new Error('the fork does not end with its compaction');
    // Its own compaction, made at the fork point, standing on turn-004: not compact-002 (which
    // came after turn-008), whose summary it carries and which it names.
    expect(pivot.id).not.toBe(c2.id);
    expect(pivot).toMatchObject({ parentId: t4.response, createdAt: FORKED_AT });
    expect(pivot.pivot).toMatchObject({
      summary: c2.pivot.summary,
      summarizedThroughId: t4.response,
      firstKeptId: null,
      details: { extra: { forkedFromCompaction: { id: c2.id } } },
    });

    await fork.append(sizedUser('turn-005b query', 1_000));
    const newTurn = (await fork.history()).at(-1)!;
    expect(newTurn.parentId).toBe(pivot.id);
    const lineage = await fork.lineage();
    const turns = lineage.turns();
    expect(turns.at(-1)!.parentTurnId).toBe(turns.at(-2)!.id);
    expect(turns.at(-2)).toMatchObject({ turnType: 'compaction', parentTurnId: turns.at(-3)!.id });
    expect(turns.at(-3)!.entryIds).toContain(t4.response);
    const { messages } = await fork.prepare({ format: 'openai' });
    expect(
      (messages as OpenAIChatMessage[]).map((m) => `${m.role}:${String(m.content).split(' ')[0]}`),
    ).toEqual([`system:${c2.pivot.summary.split(' ')[0]}`, 'user:turn-005b']);
    // The source is untouched.
    expect((await session.history()).at(-1)!.id).toBe(c2.id);
  });
});
