import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContextFormat,
  renderContext,
  repair,
  serializeContext,
  toAiSdk,
  toAnthropic,
  toGemini,
  toOpenAIChat,
  type ViewOptions,
  validate,
} from '../../src/context/index.js';
import type { Message } from '../../src/model/message.js';
import type { ReasoningPart } from '../../src/model/parts.js';
import { entryLogArb, historyArb } from '../support/arbitraries.js';
import { callsAndResults } from './support/pairs.js';

const FORMATS: ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];
const PROVIDER = { 'ai-sdk': 'ai-sdk', openai: 'openai', anthropic: 'anthropic', gemini: 'gemini' } as const;
const RUNS = { numRuns: 300 };

const layoutArb: fc.Arbitrary<ViewOptions> = fc.record(
  {
    system: fc.constantFrom('You are a coding agent.', ''),
    summaryAs: fc.constantFrom(
      'user' as const,
      'assistant' as const,
      'system' as const,
      'question+assistant' as const,
    ),
    dropPendingMarkers: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Tool parts the serializers must expand (repair keeps every tool part). */
function toolCount(messages: Message[]): number {
  return repair(messages).reduce((n, m) => n + m.parts.filter((p) => p.type === 'tool').length, 0);
}

function reasoningParts(messages: Message[]): ReasoningPart[] {
  return repair(messages).flatMap((m) => m.parts.filter((p): p is ReasoningPart => p.type === 'reasoning'));
}

describe('every serialized history passes validate for its provider', () => {
  for (const format of FORMATS) {
    it(`${format}: random histories`, () => {
      fc.assert(
        fc.property(historyArb(), (history) => {
          const payload = serializeContext(history, format);
          expect(validate(payload, PROVIDER[format])).toEqual([]);
        }),
        RUNS,
      );
    });
    it(`${format}: random logs with pivots and every layout`, () => {
      fc.assert(
        fc.property(entryLogArb(), layoutArb, (entries, opts) => {
          const payload = renderContext(entries, { ...opts, format });
          expect(validate(payload, PROVIDER[format])).toEqual([]);
        }),
        RUNS,
      );
    });
  }
});

describe('calls and results are 1:1', () => {
  it('each tool part becomes exactly one call and one result, in every format', () => {
    fc.assert(
      fc.property(historyArb(), (history) => {
        const n = toolCount(history);
        for (const format of FORMATS) {
          const { calls, results } = callsAndResults(serializeContext(history, format), format);
          expect({ format, calls, results }).toEqual({ format, calls: n, results: n });
        }
      }),
      RUNS,
    );
  });
});

describe('reasoning is byte-identical or absent', () => {
  it('anthropic: thinking blocks are exactly the signed reasoning parts, in order', () => {
    fc.assert(
      fc.property(historyArb(), (history) => {
        const expected = reasoningParts(history).flatMap((r): object[] => {
          const meta = r.providerMetadata?.anthropic as Record<string, unknown> | undefined;
          if (typeof meta?.redactedData === 'string')
            return [{ type: 'redacted_thinking', data: meta.redactedData }];
          if (typeof meta?.signature === 'string')
            return [{ type: 'thinking', thinking: r.text, signature: meta.signature }];
          return [];
        });
        const blocks = toAnthropic(history).messages.flatMap((m) =>
          m.content.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking'),
        );
        expect(blocks).toEqual(expected);
      }),
      RUNS,
    );
  });
  it('ai-sdk: every reasoning part is passed with its text and metadata unchanged', () => {
    fc.assert(
      fc.property(historyArb(), (history) => {
        const expected = reasoningParts(history).map((r) => ({
          text: r.text,
          meta: r.providerMetadata ?? {},
        }));
        const got = toAiSdk(history).flatMap((m) =>
          m.role === 'assistant' && Array.isArray(m.content)
            ? m.content.flatMap((p) =>
                p.type === 'reasoning' ? [{ text: p.text, meta: p.providerOptions ?? {} }] : [],
              )
            : [],
        );
        expect(got).toEqual(expected);
      }),
      RUNS,
    );
  });
  it('gemini: thought parts carry the text and Gemini signature unchanged', () => {
    fc.assert(
      fc.property(historyArb(), (history) => {
        const expected = reasoningParts(history)
          .filter((r) => r.text !== '')
          .map((r) => {
            const sig = (r.providerMetadata?.google as Record<string, unknown> | undefined)?.thoughtSignature;
            return typeof sig === 'string'
              ? { text: r.text, thought: true, thoughtSignature: sig }
              : { text: r.text, thought: true };
          });
        const got = toGemini(history).contents.flatMap((c) =>
          c.parts.filter((p) => 'thought' in p && p.thought === true),
        );
        expect(got).toEqual(expected);
      }),
      RUNS,
    );
  });
  it('openai chat: reasoning is dropped whole and nothing else changes', () => {
    const withoutReasoning = (history: Message[]): Message[] =>
      history.map((m) =>
        m.role === 'assistant' ? { ...m, parts: m.parts.filter((p) => p.type !== 'reasoning') } : m,
      );
    fc.assert(
      fc.property(historyArb(), (history) => {
        expect(toOpenAIChat(history)).toEqual(toOpenAIChat(withoutReasoning(history)));
      }),
      RUNS,
    );
  });
});
