/**
 * Seed 000 (RFC 007) scenarios with the seed-000 preset: pruning at every session start in erase
 * mode, the overflow check on the last step's usage, the compaction task as a user message with a
 * compaction part, the summary as an assistant message flagged metadata.summary that the context
 * starts with, and the summary never pruned.
 */
import { describe, expect, it } from 'vitest';
import { buildView, type OpenAIChatMessage } from '../../src/context/index.js';
import type { Entry, Message, Part, ToolPart } from '../../src/model/index.js';
import { PRUNE_PLACEHOLDER } from '../../src/prune/index.js';
import { openSession, presetOptions, type SessionOptions } from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import { act, expectValid, say, snapshot, toolRun, user } from './support.js';

const NOW = 1_760_000_000_000;
const options: SessionOptions = { ...presetOptions('seed-000'), model: 'gpt-4o', now: () => NOW };

/** Tool parts of the stored log, in order. */
async function storedTools(store: Store): Promise<ToolPart[]> {
  const entries: Entry[] = await store.loadFrom('s', 0);
  return entries.flatMap((e) =>
    e.kind === 'message' ? e.message.parts.filter((p) => p.type === 'tool') : [],
  );
}

/** Tool outputs of `sizes` thousand tokens, one per assistant step, in one user turn. */
function queries(sizes: number[], tag: string): Message[] {
  return [
    user(`Run the ${tag} queries`),
    ...sizes.map((k, i) => act(toolRun('query', { sql: `${tag}${i}` }, k * 1_000))),
  ];
}

describe('seed 000: pruning at session start, erase mode', () => {
  it('erases the stored output beyond the newest 40,000 tokens, sets compactedAt, and is idempotent', async () => {
    const store = memoryStore();
    const first = await openSession(store, 's', options);
    await first.append([...queries([25, 25, 25], 'sales'), say('All three tables loaded.')]);
    // Nothing happens until the next session start.
    expect((await storedTools(store)).every((t) => t.compactedAt === undefined)).toBe(true);

    const second = await openSession(store, 's', options);
    const tools = await storedTools(store);
    // Newest first: 25k, then 50k ≥ 40k (protected, overshoot); the oldest 25k > 20k is erased.
    expect(tools[0]).toMatchObject({ state: 'completed', output: PRUNE_PLACEHOLDER, compactedAt: NOW });
    for (const t of tools.slice(1)) {
      expect(t.compactedAt).toBeUndefined();
      expect(t.state === 'completed' && typeof t.output === 'string' && t.output.length).toBe(100_000);
    }
    const { messages } = await second.prepare({ format: 'openai' });
    const results = (messages as OpenAIChatMessage[]).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe(PRUNE_PLACEHOLDER);
    expect(results[1]).toHaveLength(100_000);

    const before = await snapshot(store, 's');
    await openSession(store, 's', options);
    expect(await snapshot(store, 's')).toBe(before);
  });

  it('C-11: t1 10k, t2 25k, t3 25k, t4 1k, t5 1k prunes nothing (t2 reaches 40k and is protected)', async () => {
    const store = memoryStore();
    const first = await openSession(store, 's', options);
    await first.append([
      ...queries([10, 25, 25], 'a'),
      user('Now the small ones'),
      act(toolRun('query', { sql: 't4' }, 1_000)),
      user('And the last'),
      act(toolRun('query', { sql: 't5' }, 1_000)),
    ]);
    const before = await snapshot(store, 's');
    await openSession(store, 's', options);
    expect(await snapshot(store, 's')).toBe(before);
  });
});

/** "After 50 messages, token count exceeds limit": 25 questions about sales data, 25 query steps. */
async function fiftyMessages(store: Store) {
  const session = await openSession(store, 's', options);
  for (let i = 1; i <= 24; i++) {
    await session.append(user(`Question ${i}: show the sales data for region ${i}`));
    await session.append(act(toolRun('query', { sql: `select * from sales where region = ${i}` }, 4_000)));
  }
  await session.append(user('Question 25: create a chart of Q1-Q4 sales'));
  const step = await session.recordStep({
    message: act(toolRun('chart', { quarters: 'Q1-Q4' }, 1_000)),
    usage: { prompt_tokens: 125_000, completion_tokens: 4_000 },
  });
  return { session, step };
}

describe('seed 000: overflow → compaction task → summary', () => {
  it('queues a user message holding only a compaction part (auto) when input + output > usable', async () => {
    const store = memoryStore();
    const { session, step } = await fiftyMessages(store);
    // gpt-4o: 128,000 − min(16,384, 32,000) = 111,616 usable (A000-01); 129,000 exceeds it.
    expect(step.decision).toMatchObject({
      compact: true,
      tokens: 129_000,
      limit: 111_616,
      reason: 'over-usable',
    });
    const history = await session.history();
    expect(history).toHaveLength(51);
    const marker = history.at(-1)!;
    expect(marker.id).toBe(step.markerId);
    expect(marker.kind === 'message' && marker.message).toEqual({
      role: 'user',
      parts: [{ type: 'compaction-marker', auto: true }],
    });
  });

  it('saves the summary as an assistant message with metadata.summary; the context starts with it', async () => {
    const store = memoryStore();
    const { session } = await fiftyMessages(store);
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.compaction?.status).toBe('compacted');
    if (prepared.compaction?.status !== 'compacted') return;
    const summary = prepared.compaction.summary;
    // Everything before the summary, the task message included, is skipped (C-02, A000-09).
    expect(prepared.messages).toEqual([{ role: 'assistant', content: summary }]);
    const view = buildView(session.activeEntries(), { summaryAs: session.config.compaction.summaryAs });
    expect(view).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', text: summary }],
        metadata: { summary: true, synthetic: true },
      },
    ]);
    // A000-11 (literal): the newest request reaches the model only through the summary.
    expect(summary).toContain('Last request from user was: Question 25: create a chart of Q1-Q4 sales');
    for (const format of ['ai-sdk', 'anthropic', 'gemini'] as const) {
      expectValid((await session.prepare({ format })).messages, format);
    }
  });

  it('the summary is never pruned; newer tool outputs are, at the next session start', async () => {
    const store = memoryStore();
    const { session } = await fiftyMessages(store);
    await session.prepare();
    const pivotBefore = (await session.history()).find((e) => e.kind === 'compaction');
    await session.append([...queries([25, 25, 25], 'after'), say('Charts created.')]);
    const reopened = await openSession(store, 's', options);
    const history = await reopened.history();
    expect(history.find((e) => e.kind === 'compaction')).toEqual(pivotBefore);
    const after = history.filter((e) => e.seq > pivotBefore!.seq);
    const tools = after
      .flatMap((e): Part[] => (e.kind === 'message' ? e.message.parts : []))
      .filter((p): p is ToolPart => p.type === 'tool');
    expect(tools.map((t) => t.compactedAt !== undefined)).toEqual([true, false, false]);
    const { messages } = await reopened.prepare({ format: 'openai' });
    const sent = messages as OpenAIChatMessage[];
    expect(sent[0]).toEqual({
      role: 'assistant',
      content: pivotBefore?.kind === 'compaction' ? pivotBefore.pivot.summary : '',
    });
    expect(sent.filter((m) => m.role === 'tool').map((m) => m.content.length)).toEqual([
      PRUNE_PLACEHOLDER.length,
      100_000,
      100_000,
    ]);
  });

  // A000-07: summaries are skipped and the scan goes on, "so old tool outputs before the summary
  // are still erased from storage". The session prunes only its active window (the pivot and
  // what follows), so the 96,000 tokens of query output before the summary are never erased.
  it('A000-07: at the next start, tool outputs before the summary are erased from storage', async () => {
    const store = memoryStore();
    const { session } = await fiftyMessages(store);
    await session.prepare();
    await openSession(store, 's', options);
    const tools = await storedTools(store);
    expect(tools.filter((t) => t.compactedAt !== undefined).length).toBeGreaterThan(0);
  });
});
