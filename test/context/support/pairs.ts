import type { ContextFormat } from '../../../src/context/index.js';

type Obj = Record<string, unknown>;
const objs = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);

/** Counts call and result items in a serialized payload, reading only the provider's shape. */
export function callsAndResults(payload: unknown, format: ContextFormat): { calls: number; results: number } {
  let calls = 0;
  let results = 0;
  switch (format) {
    case 'openai':
      for (const m of objs(payload)) {
        calls += objs(m.tool_calls).length;
        if (m.role === 'tool') results++;
      }
      break;
    case 'ai-sdk':
      for (const m of objs(payload)) {
        for (const p of objs(m.content)) {
          if (p.type === 'tool-call') calls++;
          if (p.type === 'tool-result') results++;
        }
      }
      break;
    case 'anthropic':
      for (const m of objs((payload as Obj).messages)) {
        for (const b of objs(m.content)) {
          if (b.type === 'tool_use') calls++;
          if (b.type === 'tool_result') results++;
        }
      }
      break;
    case 'gemini':
      for (const c of objs((payload as Obj).contents)) {
        for (const p of objs(c.parts)) {
          if (p.functionCall !== undefined) calls++;
          if (p.functionResponse !== undefined) results++;
        }
      }
      break;
  }
  return { calls, results };
}
