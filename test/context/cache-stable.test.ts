/**
 * Cache-stable requests: between prunes and compactions, every format's request from prepare() is
 * byte-identical to the previous one up to the previous newest message, and an `anthropic` request
 * carries at most four `cache_control` breakpoints with everything up to the last one unchanged in
 * the next request. Checked over random sequences of appends, steps, prunes, compactions and
 * prepares in random formats.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContextFormat, validate } from '../../src/context/index.js';
import type { AssistantMessage } from '../../src/model/message.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { assistantMessageArb, userMessageArb } from '../support/arbitraries.js';

/** Agents record finished calls in a step: pending ones would be completed later, rewriting the message. */
const finished = (m: AssistantMessage): AssistantMessage => ({
  ...m,
  parts: m.parts.map((p) =>
    p.type === 'tool' && (p.state === 'pending' || p.state === 'running')
      ? { ...p, state: 'completed' as const, output: 'ok' }
      : p,
  ),
});

const FORMATS: ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];
const opArb = fc.oneof(
  { weight: 4, arbitrary: userMessageArb.map((message) => ({ op: 'user' as const, message })) },
  { weight: 4, arbitrary: assistantMessageArb.map((m) => ({ op: 'step' as const, message: finished(m) })) },
  {
    weight: 5,
    arbitrary: fc.constantFrom('anthropic', ...FORMATS).map((format) => ({ op: 'prepare' as const, format })),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'prune' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'compact' as const }) },
);

/**
 * JSON without the breakpoints themselves (anthropic's `cache_control`, the AI SDK's
 * `providerOptions.anthropic.cacheControl`): they move from turn to turn, the content must not.
 */
const plain = (v: unknown) => JSON.stringify(v, withoutBreakpoints);

function withoutBreakpoints(key: string, value: unknown): unknown {
  if (key === 'cache_control') return undefined;
  if (key !== 'providerOptions' || value === null || typeof value !== 'object') return value;
  const { anthropic, ...rest } = value as { anthropic?: Record<string, unknown> } & Record<string, unknown>;
  if (anthropic !== undefined) {
    const { cacheControl: _, ...kept } = anthropic;
    if (Object.keys(kept).length > 0) rest.anthropic = kept;
  }
  return Object.keys(rest).length > 0 ? rest : undefined;
}

interface Shape {
  system: string;
  items: string[];
  /** anthropic: every block in prompt order, and where the breakpoints are. */
  blocks: string[];
  breakpoints: number[];
}

function shape(format: ContextFormat, prepared: { messages: unknown; system?: string }): Shape {
  const payload = prepared.messages as Record<string, unknown>;
  if (format === 'ai-sdk' || format === 'openai') {
    const items = (prepared.messages as unknown[]).map(plain);
    return { system: prepared.system ?? '', items, blocks: [], breakpoints: [] };
  }
  if (format === 'gemini')
    return {
      system: plain(payload.systemInstruction),
      items: (payload.contents as unknown[]).map(plain),
      blocks: [],
      breakpoints: [],
    };
  const system = (payload.system ?? []) as Record<string, unknown>[];
  const messages = payload.messages as { role: string; content: Record<string, unknown>[] }[];
  const all = [
    ...system.map((b) => ({ b, role: 'system' })),
    ...messages.flatMap((m, i) => m.content.map((b) => ({ b, role: `${m.role}#${i}` }))),
  ];
  return {
    system: plain(system),
    items: messages.map(plain),
    blocks: all.map(({ b, role }) => `${role} ${plain(b)}`),
    breakpoints: all.flatMap(({ b }, i) => (b.cache_control ? [i] : [])),
  };
}

describe('requests stay byte-identical between prunes and compactions', () => {
  it('in every format, and up to the last breakpoint in anthropic', async () => {
    let checked = 0;
    let anthropic = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        async (ops, withSystem) => {
          const session = await openSession(memoryStore(), 's', {
            model: 'claude-sonnet-4-5',
            ...(withSystem ? { system: 'You are a careful agent.' } : {}),
          });
          const last = new Map<ContextFormat, Shape>();
          for (const o of ops) {
            if (o.op === 'user') await session.append(o.message);
            else if (o.op === 'step') await session.recordStep({ message: o.message });
            else if (o.op === 'prune') {
              if ((await session.prune())?.parts) last.clear();
            } else if (o.op === 'compact') {
              const outcome = await session.compact().catch(() => null);
              if (outcome?.status === 'compacted') last.clear();
            } else {
              const prepared = await session.prepare({ format: o.format }).catch(() => null);
              if (prepared === null) continue;
              if (prepared.compaction || prepared.pruned?.parts) last.clear();
              const now = shape(o.format, prepared);
              if (o.format === 'anthropic') {
                expect(now.breakpoints.length).toBeLessThanOrEqual(4);
                // Breakpoints and a system given as blocks break no rule the request did not break already.
                const payload = prepared.messages as { system?: { text: string }[] };
                const without = JSON.parse(plain(payload));
                if (payload.system) without.system = payload.system.map((b) => b.text).join('\n\n');
                const codes = (p: unknown) => validate(p, 'anthropic').map((x) => x.rule);
                expect(codes(payload)).toEqual(codes(without));
              }
              const before = last.get(o.format);
              if (before) {
                checked++;
                if (before.breakpoints.length > 0) anthropic++;
                expect(now.system).toBe(before.system);
                const stable = Math.max(0, before.items.length - 1);
                expect(now.items.slice(0, stable)).toEqual(before.items.slice(0, stable));
                const upTo = (before.breakpoints.at(-1) ?? -1) + 1;
                expect(now.blocks.slice(0, upTo)).toEqual(before.blocks.slice(0, upTo));
              }
              last.set(o.format, now);
            }
          }
        },
      ),
      { numRuns: Number(process.env.CACHE_RUNS ?? 200) },
    );
    // The property compared consecutive requests, anthropic ones with breakpoints among them.
    expect(checked).toBeGreaterThan(20);
    expect(anthropic).toBeGreaterThan(5);
  });

  it('places breakpoints on the system prompt, the summary and the last message', async () => {
    const session = await openSession(memoryStore(), 's', {
      model: 'claude-sonnet-4-5',
      system: 'Be brief.',
    });
    for (let i = 0; i < 6; i++) {
      await session.append({
        role: 'user',
        parts: [{ type: 'text', text: `request ${i} ${'x'.repeat(400)}` }],
      });
      await session.recordStep({
        message: { role: 'assistant', parts: [{ type: 'text', text: `done ${i}` }] },
      });
    }
    await session.compact();
    await session.append({ role: 'user', parts: [{ type: 'text', text: 'next' }] });
    const { messages } = await session.prepare({ format: 'anthropic' });
    const s = shape('anthropic', { messages });
    expect(s.breakpoints.length).toBeGreaterThanOrEqual(3);
    expect(s.blocks[s.breakpoints[0]!]).toMatch(/^system .*Be brief/);
    expect(s.blocks[s.breakpoints[1]!]).toMatch(/conversation-summary/);
    expect(s.breakpoints.at(-1)).toBe(s.blocks.length - 1);
    const off = await openSession(memoryStore(), 't', {
      model: 'claude-sonnet-4-5',
      cache: { breakpoints: false },
    });
    await off.append({ role: 'user', parts: [{ type: 'text', text: 'hi' }] });
    expect(plain((await off.prepare({ format: 'anthropic' })).messages)).toBe(
      JSON.stringify((await off.prepare({ format: 'anthropic' })).messages),
    );
  });
});
