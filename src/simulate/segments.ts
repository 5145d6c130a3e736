import type { ContextFormat } from '../context/index.js';
import type { Segment } from './prompt-cache.js';

/** Fields that are structure, ids or opaque data rather than text the model reads as tokens. */
const NOT_TEXT = new Set([
  'type',
  'role',
  'id',
  'tool_use_id',
  'toolCallId',
  'tool_call_id',
  'signature',
  'data',
  'media_type',
  'mediaType',
  'cache_control',
  'providerOptions',
]);

/** The text of a request piece as the tokenizer should see it: string values, structure left out. */
function textOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) textOf(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) if (!NOT_TEXT.has(k)) textOf(v, out);
  return out;
}

const plain = (v: unknown) => JSON.stringify(v, (k, x) => (k === 'cache_control' ? undefined : x));

/**
 * A request cut into the pieces the provider's cache sees, in prompt order: for Anthropic every
 * system and message block (breakpoints where `cache_control` is), for the others every message.
 * `overhead` stands for what the transcript does not hold (the agent's own system prompt and tool
 * definitions), a fixed first piece that ends at a breakpoint as the system prompt does.
 */
export class Segmenter {
  private readonly counted = new Map<string, number>();

  constructor(private readonly count: (text: string) => number) {}

  of(format: ContextFormat, prepared: { messages: unknown; system?: string }, overhead: number): Segment[] {
    const out: Segment[] = overhead > 0 ? [{ key: 'overhead', tokens: overhead, breakpoint: true }] : [];
    if (format === 'anthropic') {
      const p = prepared.messages as {
        system?: unknown[] | string;
        messages: { role: string; content: unknown[] }[];
      };
      const system = typeof p.system === 'string' ? [{ type: 'text', text: p.system }] : (p.system ?? []);
      for (const block of system) out.push(this.piece('system', block));
      p.messages.forEach((m, i) => {
        for (const block of m.content) out.push(this.piece(`${i}:${m.role}`, block));
      });
      return out;
    }
    if (prepared.system) out.push(this.piece('system', prepared.system));
    const messages =
      format === 'gemini'
        ? (prepared.messages as { contents: unknown[] }).contents
        : (prepared.messages as unknown[]);
    if (format === 'gemini') {
      const instruction = (prepared.messages as { systemInstruction?: unknown }).systemInstruction;
      if (instruction) out.push(this.piece('system', instruction));
    }
    messages.forEach((m, i) => {
      out.push(this.piece(String(i), m));
    });
    return out;
  }

  private piece(where: string, value: unknown): Segment {
    const key = `${where} ${plain(value)}`;
    let tokens = this.counted.get(key);
    if (tokens === undefined) {
      tokens = this.count(textOf(value).join('\n'));
      this.counted.set(key, tokens);
    }
    const breakpoint = typeof value === 'object' && value !== null && 'cache_control' in value;
    return { key, tokens, breakpoint };
  }
}
