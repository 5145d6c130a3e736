import { fail, joinField, needArray, needRecord, type Rec } from './fields.js';
import { parseOpenAIChat } from './openai-chat.js';
import type { ImportedSession, ImportWhere } from './types.js';

/**
 * A SWE-agent `.traj` file. Its `history[]` is OpenAI-shaped: function-calling runs carry
 * `tool_calls` and `role: tool` observations with `tool_call_ids`; the others are plain text turns
 * (the action is written inside the assistant's text), imported as text messages.
 */
export function parseSweAgent(value: unknown, where: ImportWhere = {}): ImportedSession {
  const top = needRecord(value, where, '');
  const at = joinField(where.at, 'history');
  const plain: ImportWhere = { ...where, at: undefined };
  const history = needArray(top.history, plain, at).map((raw, i) =>
    toChatMessage(raw, plain, joinField(at, i)),
  );
  const session = parseOpenAIChat(history, { ...where, at });
  const multiple = history.filter((m) => m.extraIds !== undefined);
  const warnings = [
    ...session.warnings,
    ...multiple.map((m) => `observation for several calls ${m.extraIds}`),
  ];
  return { ...session, format: 'swe-agent', warnings };
}

/** One history item as a Chat Completions message (same index, so error fields still point at it). */
function toChatMessage(raw: unknown, where: ImportWhere, field: string): Rec {
  const item = needRecord(raw, where, field);
  if (item.role !== 'tool') return { role: item.role, content: item.content, tool_calls: item.tool_calls };
  const ids = item.tool_call_ids ?? (item.tool_call_id === undefined ? undefined : [item.tool_call_id]);
  if (ids === undefined || ids === null)
    fail('missing tool_call_ids', where, joinField(field, 'tool_call_ids'));
  const list = needArray(ids, where, joinField(field, 'tool_call_ids'));
  if (list.length === 0) fail('tool_call_ids is empty', where, joinField(field, 'tool_call_ids'));
  // SWE-agent runs one action per step; should a step ever list several ids, the observation answers the first.
  const extraIds = list.length > 1 ? list.slice(1).join(', ') : undefined;
  return { role: 'tool', tool_call_id: list[0], content: item.content, extraIds };
}
