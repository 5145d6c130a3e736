import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContextFormat,
  type GeminiPart,
  INTERRUPTED_TOOL_ERROR,
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
import { InputError } from '../../src/model/errors.js';
import type { Message } from '../../src/model/message.js';
import type { ReasoningPart, ToolPart } from '../../src/model/parts.js';
import { parseMessage } from '../../src/model/validate.js';
import {
  assistantPartsArb,
  entryLogArb,
  historyArb,
  repeatedIdsHistoryArb,
  toolPartArb,
} from '../support/arbitraries.js';
import { pairCalls } from './support/pairs.js';
import { viewArb } from './support/window.js';

const FORMATS: ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];
const PROVIDER = { 'ai-sdk': 'ai-sdk', openai: 'openai', anthropic: 'anthropic', gemini: 'gemini' } as const;
const RUNS = { numRuns: 300 };

const layoutArb: fc.Arbitrary<ViewOptions> = fc
  .tuple(viewArb, fc.option(fc.constantFrom('You are a coding agent.', ''), { nil: undefined }))
  .map(([view, system]) => (system === undefined ? view : { ...view, system }));

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
    it(`${format}: histories whose call ids repeat across messages`, () => {
      fc.assert(
        fc.property(repeatedIdsHistoryArb(), (history) => {
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
          expect({ format, pairs: pairCalls(serializeContext(history, format), format).length }).toEqual({
            format,
            pairs: n,
          });
        }
      }),
      RUNS,
    );
  });

  // Each call's input names its position and each result its call, so a result answering the
  // wrong call shows, whatever the ids are (repeats across messages included).
  for (const [label, arb] of [
    ['random ids', historyArb()],
    ['ids repeated across messages', repeatedIdsHistoryArb()],
  ] as const) {
    it(`${label}: every call is answered by its own result, where its provider wants it`, () => {
      fc.assert(
        fc.property(arb.map(numberCalls), (history) => {
          const n = toolCount(history);
          for (const format of FORMATS) {
            const pairs = pairCalls(serializeContext(history, format), format);
            expect({ format, order: pairs.map((p) => callNumber(p.call, format)) }).toEqual({
              format,
              order: Array.from({ length: n }, (_, k) => k),
            });
            pairs.forEach((p, k) => {
              const text = JSON.stringify(p.result);
              expect(text.includes(`⟦${k}⟧`) || text.includes(JSON.stringify(INTERRUPTED_TOOL_ERROR))).toBe(
                true,
              );
            });
          }
        }),
        RUNS,
      );
    });
  }
});

/** The history with tool part k (in order) given input {k} and a result saying ⟦k⟧. */
function numberCalls(history: Message[]): Message[] {
  let k = 0;
  return history.map((m): Message => {
    if (m.role !== 'assistant') return m;
    const parts = m.parts.map((p) => {
      if (p.type !== 'tool') return p;
      const { compactedAt: _shown, ...part } = { ...p, input: { k } };
      const mark = `⟦${k++}⟧`;
      if (part.state === 'completed') return { ...part, output: `result ${mark}` };
      if (part.state === 'error') return { ...part, error: `failure ${mark}` };
      return part;
    });
    return { ...m, parts };
  });
}

function callNumber(call: Record<string, unknown>, format: ContextFormat): unknown {
  const input =
    format === 'openai'
      ? JSON.parse((call.function as { arguments: string }).arguments)
      : format === 'gemini'
        ? (call.functionCall as { args: unknown }).args
        : call.input;
  return (input as { k: number }).k;
}

describe('a call id used twice where the provider forbids it', () => {
  const stepArb = fc.tuple(
    historyArb({ maxLength: 4 }),
    fc.array(toolPartArb, { minLength: 2, maxLength: 4 }),
    historyArb({ maxLength: 4, leadingSystem: false }),
  );
  /** Two calls of one message, dupA0 and dupA1, made to share dupA0 (and its results with them). */
  const step = ([before, tools, after]: [Message[], ToolPart[], Message[]]): Message[] => [
    ...before,
    { role: 'user', parts: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', parts: tools.map((t, k) => ({ ...t, callId: `dupA${k}` })) },
    ...after,
  ];

  it('parseMessage rejects an assistant message exactly when two of its calls share an id', () => {
    fc.assert(
      fc.property(assistantPartsArb, (parts) => {
        const ids = parts.map((p) => (p.type === 'tool' ? p.callId : undefined));
        const repeat = ids.findIndex((id, i) => id !== undefined && ids.indexOf(id) < i);
        const parse = () => parseMessage({ role: 'assistant', parts }, { field: 'messages[3]' });
        if (repeat === -1) expect(parse).not.toThrow();
        else {
          expect(parse).toThrow(InputError);
          expect(parse).toThrow(
            `field messages[3].parts[${repeat}].callId: tool call id ${JSON.stringify(ids[repeat])}`,
          );
        }
      }),
      RUNS,
    );
  });

  for (const format of ['openai', 'anthropic', 'ai-sdk'] as const) {
    it(`${format}: validate and the independent pairing both catch it`, () => {
      fc.assert(
        fc.property(stepArb.map(step), (history) => {
          const payload = JSON.parse(
            JSON.stringify(serializeContext(history, format)).replaceAll('"dupA1"', '"dupA0"'),
          );
          expect(validate(payload, PROVIDER[format]).map((v) => v.rule)).toContain('duplicate-tool-call-id');
          expect(() => pairCalls(payload, format)).toThrow(/repeats/);
        }),
        RUNS,
      );
    });
  }

  it('gemini: validate catches two calls of one turn carrying the same optional id', () => {
    fc.assert(
      fc.property(stepArb.map(step), (history) => {
        const payload = toGemini(history);
        const turn = payload.contents.findIndex(
          (c) => c.parts.filter((p) => 'functionCall' in p).length >= 2,
        );
        const withId = (parts: GeminiPart[], key: 'functionCall' | 'functionResponse') =>
          parts.map((p) =>
            key in p ? { ...p, [key]: { ...(p as Record<string, object>)[key], id: 'same' } } : p,
          );
        payload.contents[turn]!.parts = withId(payload.contents[turn]!.parts, 'functionCall');
        payload.contents[turn + 1]!.parts = withId(payload.contents[turn + 1]!.parts, 'functionResponse');
        expect(validate(payload, 'gemini').map((v) => v.rule)).toContain('duplicate-tool-call-id');
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
