import type { AssistantMessage, UserMessage } from '../model/message.js';
import { mediaBlock, reasoningBlock, textBlock, toolResultBlock } from './anthropic-blocks.js';
import {
  fail,
  isRecord,
  joinField,
  json,
  needArray,
  needId,
  needRecord,
  needString,
  optString,
  type Rec,
} from './fields.js';
import { TranscriptBuilder } from './transcript-builder.js';
import type { ImportedSession, ImportWhere } from './types.js';

/**
 * The Anthropic Messages API: a request (`{model, system, messages}`) or a response (`{type:
 * "message", role: "assistant", content, usage}`), which is one assistant message carrying its
 * usage. Content blocks are read as Claude Code's are (it sends the same ones); a server tool's
 * result (`web_search_tool_result`, in the assistant's own content) answers its `server_tool_use`.
 */
export function parseAnthropicMessages(value: unknown, where: ImportWhere = {}): ImportedSession {
  const top = needRecord(value, where, '');
  const b = new TranscriptBuilder();
  const model = optString(top.model, where, 'model');
  if (top.type === 'message') addMessage(b, top, where, '', model);
  else
    needArray(top.messages, where, 'messages').forEach((raw, i) => {
      const field = joinField('messages', i);
      addMessage(b, needRecord(raw, where, field), where, field, undefined);
    });
  const system = systemText(top.system, where);
  return {
    format: 'anthropic',
    ...(typeof top.id === 'string' ? { sessionId: top.id } : {}),
    ...(system ? { system } : {}),
    messages: b.finish(where),
    warnings: b.warnings,
    ...(b.issues.length > 0 ? { issues: b.issues } : {}),
  };
}

function systemText(system: unknown, where: ImportWhere): string | undefined {
  if (system === undefined || system === null) return undefined;
  if (typeof system === 'string') return system === '' ? undefined : system;
  return needArray(system, where, 'system')
    .map(
      (raw, i) =>
        textBlock(needRecord(raw, where, joinField('system', i)), where, joinField('system', i)).text,
    )
    .join('\n\n');
}

function addMessage(
  b: TranscriptBuilder,
  m: Rec,
  w: ImportWhere,
  field: string,
  model: string | undefined,
): void {
  const role = m.role;
  if (role !== 'user' && role !== 'assistant')
    fail(`unknown role ${JSON.stringify(role)} (expected user or assistant)`, w, joinField(field, 'role'));
  const contentField = joinField(field, 'content');
  const blocks =
    typeof m.content === 'string'
      ? [{ type: 'text', text: m.content }]
      : needArray(m.content, w, contentField);
  if (role === 'user') {
    const user: UserMessage = { role: 'user', parts: [] };
    for (const [j, raw] of blocks.entries()) {
      const at = joinField(contentField, j);
      userBlock(b, user, needRecord(raw, w, at), w, at);
    }
    // A message of tool results only adds nothing of its own: the results live in their calls.
    if (user.parts.length > 0) b.push({ message: user }, { field });
    return;
  }
  const message: AssistantMessage = { role: 'assistant', parts: [] };
  const index = b.push(
    { message, ...(model ? { model } : {}), ...(m.usage === undefined ? {} : { usage: m.usage }) },
    { field },
  );
  for (const [j, raw] of blocks.entries()) {
    const at = joinField(contentField, j);
    assistantBlock(b, index, needRecord(raw, w, at), w, at);
  }
}

function userBlock(b: TranscriptBuilder, user: UserMessage, block: Rec, w: ImportWhere, field: string): void {
  const type = needString(block.type, w, joinField(field, 'type'));
  if (type === 'text') user.parts.push(textBlock(block, w, field));
  else if (type === 'image' || type === 'document') user.parts.push(mediaBlock(block, w, field));
  else if (type === 'tool_result') {
    const callId = needId(block.tool_use_id, w, joinField(field, 'tool_use_id'));
    b.resolveOrKeep(callId, toolResultBlock(block, w, field), { field });
  } else b.warnings.push(`${field}: block of type ${type} skipped`);
}

function assistantBlock(
  b: TranscriptBuilder,
  index: number,
  block: Rec,
  w: ImportWhere,
  field: string,
): void {
  const parts = (b.messages[index]!.message as AssistantMessage).parts;
  const type = needString(block.type, w, joinField(field, 'type'));
  if (type === 'text') parts.push(textBlock(block, w, field));
  else if (type === 'thinking' || type === 'redacted_thinking') parts.push(reasoningBlock(block, w, field));
  else if (type === 'tool_use' || type === 'server_tool_use') {
    b.addCall(index, {
      callId: needId(block.id, w, joinField(field, 'id')),
      name: needId(block.name, w, joinField(field, 'name')),
      input: json(block.input ?? {}),
    });
  } else if (type.endsWith('_tool_result') && typeof block.tool_use_id === 'string') {
    // A server tool's result: its content (search results, or an error object) is kept as JSON.
    const content = block.content;
    const error =
      isRecord(content) && typeof content.error_code === 'string' ? content.error_code : undefined;
    b.resolveOrKeep(block.tool_use_id, error !== undefined ? { error } : { output: json(content) }, {
      field,
    });
  } else b.warnings.push(`${field}: block of type ${type} skipped`);
}
