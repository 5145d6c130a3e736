import { isRecord, joinField, needArray, needRecord, optString, type Rec } from './fields.js';
import { newStepState, onItem } from './response-items.js';
import { TranscriptBuilder } from './transcript-builder.js';
import type { ImportedSession, ImportWhere } from './types.js';

/**
 * The OpenAI Responses API, three shapes: a request (`{model, instructions, input}`, `input` a
 * string or items), a response (`{object: "response", model, instructions, output, usage}`), or a
 * bare list of items (a saved conversation). Items are read as Codex's are (it records the same
 * ones); a message without `type` (the API's short form `{role, content}`) is a message item.
 * A response's usage belongs to its assistant step.
 */
export function parseOpenAIResponses(value: unknown, where: ImportWhere = {}): ImportedSession {
  const b = new TranscriptBuilder();
  const top = Array.isArray(value) ? undefined : needRecord(value, where, '');
  const model = top ? optString(top.model, where, 'model') : undefined;
  const s = newStepState(model);
  const system = top ? instructions(top.instructions) : undefined;
  const lists: [string, unknown][] = top
    ? [
        ['input', top.input],
        ['output', top.output],
      ]
    : [['', value]];
  for (const [name, list] of lists) {
    if (list === undefined || list === null) continue;
    if (typeof list === 'string') {
      b.push({ message: { role: 'user', parts: [{ type: 'text', text: list }] } }, { field: name });
      continue;
    }
    needArray(list, where, name).forEach((raw, i) => {
      const field = joinField(name, i);
      const item = needRecord(raw, where, field);
      onItem(b, s, asItem(item), where, {}, field);
    });
    s.step = undefined;
  }
  const usage = top?.usage;
  if (top?.object === 'response' && usage !== undefined && s.lastStep !== undefined)
    b.messages[s.lastStep]!.usage = usage;
  return {
    format: 'openai-responses',
    ...(top && typeof top.id === 'string' ? { sessionId: top.id } : {}),
    ...(system ? { system } : {}),
    messages: b.finish(where),
    warnings: b.warnings,
    ...(b.issues.length > 0 ? { issues: b.issues } : {}),
  };
}

function asItem(item: Rec): Rec {
  return item.type === undefined && typeof item.role === 'string' ? { ...item, type: 'message' } : item;
}

/** `instructions`: a string, or (in a response) the input items it stood for. */
function instructions(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (!Array.isArray(value)) return undefined;
  const texts = value.flatMap((item) =>
    isRecord(item) && Array.isArray(item.content)
      ? item.content.flatMap((c) => (isRecord(c) && typeof c.text === 'string' ? [c.text] : []))
      : isRecord(item) && typeof item.content === 'string'
        ? [item.content]
        : [],
  );
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}
