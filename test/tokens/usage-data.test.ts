import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeUsageDetailed } from '../../src/tokens/usage.js';

/** Every usage record in the real agent sessions normalizes, and agrees with the totals they carry. */
const root = new URL('../../../shared/data/agent-sessions/', import.meta.url);
const present = existsSync(root);
const files = (dir: string, ext: string) =>
  readdirSync(new URL(`${dir}/`, root))
    .filter((f) => f.endsWith(ext))
    .map((f) => readFileSync(new URL(`${dir}/${f}`, root), 'utf8'));
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe.skipIf(!present)('usage records of real sessions (../shared/data/agent-sessions)', () => {
  if (!present) console.log('skipped: ../shared/data/agent-sessions is absent');

  it('Claude Code: the prompt is input + cache read + cache creation', () => {
    let n = 0;
    for (const text of files('claude-code', '.jsonl')) {
      for (const line of lines(text)) {
        if (line.type !== 'assistant') continue;
        const raw = (line.message as { usage: Record<string, number> }).usage;
        const { usage, shape } = normalizeUsageDetailed(line);
        expect(shape).toBe('anthropic');
        expect(usage.inputTotal).toBe(
          raw.input_tokens! + raw.cache_read_input_tokens! + raw.cache_creation_input_tokens!,
        );
        expect(usage.cacheRead).toBe(raw.cache_read_input_tokens);
        n++;
      }
    }
    expect(n).toBeGreaterThan(400);
  });

  it('Codex: last_token_usage, whose input + output is its total_tokens', () => {
    let n = 0;
    for (const text of files('codex', '.jsonl')) {
      for (const line of lines(text)) {
        const payload = line.payload as {
          type?: string;
          info?: { last_token_usage: Record<string, number> } | null;
        };
        if (line.type !== 'event_msg' || payload.type !== 'token_count' || !payload.info) continue;
        const last = payload.info.last_token_usage;
        const { usage, shape } = normalizeUsageDetailed(line);
        expect(shape).toBe('codex');
        expect(usage.inputTotal + usage.output).toBe(last.total_tokens);
        expect(usage.cacheRead).toBe(last.cached_input_tokens);
        n++;
      }
    }
    expect(n).toBeGreaterThan(10);
  });

  it('Gemini CLI: input + output (thoughts included) is the recorded total', () => {
    let n = 0;
    for (const text of files('gemini-cli', '.json')) {
      const session = JSON.parse(text) as { messages: { tokens?: Record<string, number> }[] };
      for (const m of session.messages) {
        if (!m.tokens) continue;
        const { usage, shape } = normalizeUsageDetailed(m);
        expect(shape).toBe('gemini-cli');
        expect(usage.inputTotal + usage.output).toBe(m.tokens.total);
        expect(usage.reasoning).toBe(m.tokens.thoughts);
        n++;
      }
    }
    expect(n).toBeGreaterThan(10);
  });
});
