/**
 * Issue 12's done-when for the recall tools: an agent (the AI SDK's mock model, driven only by
 * what the tools return) finds a fact compacted away five compactions earlier with
 * history_search, reads that entry, and reads the latest archive with session_archive_read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from '@ai-sdk/provider';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { recallTools } from '../../src/ai-sdk.js';
import type { JsonlStore } from '../../src/store/jsonl.js';
import { compactedSession, FACT, makeStore, STORE_KINDS } from './support.js';

/** The newest tool result in the prompt, as the model sees it. */
function lastToolResult(options: LanguageModelV3CallOptions): {
  name: string;
  value: Record<string, unknown>;
} {
  for (const message of [...options.prompt].reverse()) {
    if (message.role !== 'tool') continue;
    const part = message.content.at(-1);
    if (part?.type === 'tool-result' && part.output.type === 'json')
      return { name: part.toolName, value: part.output.value as Record<string, unknown> };
  }
  throw new Error('no tool result in the prompt');
}

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};
const call = (n: number, toolName: string, input: unknown): LanguageModelV3GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId: `call-${n}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage,
  warnings: [],
});
const answer = (text: string): LanguageModelV3GenerateResult => ({
  content: [{ type: 'text', text } satisfies LanguageModelV3Content],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage,
  warnings: [],
});

/**
 * An agent that searches, reads the first hit the search tells it how to read, reads the latest
 * archive, then answers with what it read. Every argument comes from a tool result.
 */
function recallingAgent() {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      step++;
      if (step === 1) return call(step, 'history_search', { query: 'staging deploy key' });
      const { value } = lastToolResult(options);
      if (step === 2) {
        const hits = value.hits as { read: { tool: string; input: unknown } | null }[];
        const first = hits.find((h) => h.read !== null)!;
        return call(step, first.read!.tool, first.read!.input);
      }
      if (step === 3) return call(step, 'session_archive_read', {});
      const key = /kestrel-\d+/.exec(JSON.stringify(options.prompt))?.[0] ?? 'not found';
      return answer(`The key is ${key}.`);
    },
  });
}

describe.each(STORE_KINDS)('recall tools on the %s store, called by an agent', (kind) => {
  it('history_search finds a fact compacted away five compactions earlier; session_archive_read returns the span', async () => {
    const { store, dispose } = makeStore(kind);
    try {
      const session = await compactedSession(store, 5);
      const history = await session.history();
      const pivots = history.filter((e) => e.kind === 'compaction');
      expect(pivots).toHaveLength(5);
      const planted = history.find(
        (e) => e.kind === 'message' && JSON.stringify(e).includes('kestrel-4417'),
      )!;
      // The fact is nowhere in what the model is sent.
      expect(JSON.stringify((await session.prepare()).messages)).not.toContain('kestrel');

      const result = await generateText({
        model: recallingAgent(),
        prompt: 'What was the staging deploy key?',
        tools: recallTools(session),
        stopWhen: stepCountIs(6),
      });
      expect(result.text).toBe('The key is kestrel-4417.');
      const [search, read, archive] = result.steps
        .slice(0, 3)
        .map((s) => s.toolResults[0]!.output as Record<string, unknown>);

      expect(search!.hits).toEqual([
        expect.objectContaining({
          entryId: planted.id,
          seq: planted.seq,
          where: 'older',
          read: { tool: 'history_search', input: { entryId: planted.id } },
        }),
      ]);
      // The store's snippet: the matched words marked, in their sentence.
      expect((search!.hits as { snippet: string }[])[0]!.snippet).toBe(
        '…The «staging» «deploy» «key» is kestrel-4417.',
      );
      expect(read).toMatchObject({ entryId: planted.id, where: 'older' });
      expect(read!.text).toContain(FACT);

      // The span the latest compaction summarized: from the previous pivot up to the latest one.
      const [previous, latest] = pivots.slice(-2);
      const span = history.filter((e) => e.seq >= previous!.seq && e.seq < latest!.seq);
      expect(archive).toMatchObject({
        compactionId: latest!.id,
        first: previous!.seq,
        count: span.length,
        next: null,
      });
      expect((archive!.entries as { id: string }[]).map((e) => e.id)).toEqual(span.map((e) => e.id));
      if (kind === 'jsonl') {
        // The same span as seed 003's archive file the summary line names.
        const folder = (store as JsonlStore).sessionDir('s');
        const first = JSON.parse(readFileSync(join(folder, 'current.jsonl'), 'utf8').split('\n')[0]!);
        expect(archive!.archive).toBe(first.metadata.previousSession);
        const lines = readFileSync(join(folder, archive!.archive as string), 'utf8')
          .trimEnd()
          .split('\n');
        expect(lines.map((l) => JSON.parse(l).condense.id)).toEqual(span.map((e) => e.id));
      } else {
        expect(archive!.archive).toBeNull();
      }
    } finally {
      await store.close();
      dispose();
    }
  }, 30_000);
});
