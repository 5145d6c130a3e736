import { fileFromBase64, fileFromUrl } from '../model/media.js';
import type { AssistantMessage, UserMessage } from '../model/message.js';
import type { FilePart, UserPart } from '../model/parts.js';
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
  parseArguments,
  type Rec,
} from './fields.js';
import { TranscriptBuilder } from './transcript-builder.js';
import type { ImportedSession, ImportWhere } from './types.js';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

/**
 * An OpenAI Chat Completions conversation: a `messages` array, or an object holding one. Leading
 * system/developer messages become `system`; later ones stay in place as system messages. Tool
 * messages fill the output of their call (by id, in order when ids repeat).
 */
export function parseOpenAIChat(value: unknown, where: ImportWhere = {}): ImportedSession {
  let list = value;
  let at = where.at;
  if (isRecord(value) && 'messages' in value) {
    at = joinField(at, 'messages');
    list = value.messages;
  }
  const inner: ImportWhere = { ...where, at: undefined };
  const items = needArray(list, inner, at ?? '');
  const b = new TranscriptBuilder();
  const system: string[] = [];
  items.forEach((raw, i) => {
    const field = joinField(at, i);
    const m = needRecord(raw, inner, field);
    const role = m.role;
    if (role === undefined) fail('missing role', inner, joinField(field, 'role'));
    if (typeof role !== 'string' || !ROLES.includes(role)) {
      fail(
        `unknown role ${JSON.stringify(role)} (expected one of ${ROLES.join(', ')})`,
        inner,
        joinField(field, 'role'),
      );
    }
    const origin = { field };
    if (role === 'system' || role === 'developer') {
      const text = contentText(m.content, inner, joinField(field, 'content'));
      if (b.messages.length === 0) system.push(text);
      else b.push({ message: { role: 'system', parts: [{ type: 'text', text }] } }, origin);
    } else if (role === 'user') {
      b.push({ message: userMessage(m, inner, field) }, origin);
    } else if (role === 'assistant') {
      addAssistant(b, m, inner, field);
    } else {
      const callId = m.tool_call_id;
      if (callId === undefined || callId === null)
        fail('missing tool_call_id', inner, joinField(field, 'tool_call_id'));
      const id = needId(callId, inner, joinField(field, 'tool_call_id'));
      const output = contentText(m.content, inner, joinField(field, 'content'));
      b.resolveOrKeep(id, { output }, origin);
    }
  });
  return {
    format: 'openai',
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    messages: b.finish(inner),
    warnings: b.warnings,
    ...(b.issues.length > 0 ? { issues: b.issues } : {}),
  };
}

/** Text of a string or content-part array (system and tool messages carry text only). */
function contentText(content: unknown, where: ImportWhere, field: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  needArray(content, where, field).forEach((raw, j) => {
    const part = needRecord(raw, where, joinField(field, j));
    const type = part.type;
    if (type !== 'text' && type !== 'refusal') {
      fail(
        `unsupported content part type ${JSON.stringify(type)} here`,
        where,
        joinField(field, `[${j}].type`),
      );
    }
    const key = type === 'text' ? 'text' : 'refusal';
    texts.push(needString(part[key], where, joinField(field, `[${j}].${key}`)));
  });
  return texts.join('\n');
}

function userMessage(m: Rec, where: ImportWhere, field: string): UserMessage {
  const contentField = joinField(field, 'content');
  if (m.content === null || m.content === undefined || typeof m.content === 'string') {
    return { role: 'user', parts: [{ type: 'text', text: m.content ?? '' }] };
  }
  const parts: UserPart[] = needArray(m.content, where, contentField).map((raw, j) =>
    userPart(needRecord(raw, where, joinField(contentField, j)), where, joinField(contentField, j)),
  );
  return { role: 'user', parts };
}

function userPart(part: Rec, where: ImportWhere, field: string): UserPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: needString(part.text, where, joinField(field, 'text')) };
    case 'image_url': {
      const image = part.image_url;
      const url = isRecord(image) ? image.url : image;
      return fileFromUrl(needString(url, where, joinField(field, 'image_url.url')), 'image/*');
    }
    case 'input_audio': {
      const audio = needRecord(part.input_audio, where, joinField(field, 'input_audio'));
      const format = optString(audio.format, where, joinField(field, 'input_audio.format')) ?? 'wav';
      return fileFromBase64(
        needString(audio.data, where, joinField(field, 'input_audio.data')),
        `audio/${format}`,
      );
    }
    case 'file':
      return filePart(
        needRecord(part.file, where, joinField(field, 'file')),
        where,
        joinField(field, 'file'),
      );
    default:
      return fail(`unknown content part type ${JSON.stringify(part.type)}`, where, joinField(field, 'type'));
  }
}

function filePart(file: Rec, where: ImportWhere, field: string): FilePart {
  const filename = optString(file.filename, where, joinField(field, 'filename'));
  const data = needString(file.file_data, where, joinField(field, 'file_data'));
  const part = fileFromUrl(data, 'application/octet-stream');
  if (filename !== undefined) part.filename = filename;
  return part;
}

function addAssistant(b: TranscriptBuilder, m: Rec, where: ImportWhere, field: string): void {
  const message: AssistantMessage = { role: 'assistant', parts: [] };
  const text = contentText(m.content, where, joinField(field, 'content'));
  if (text !== '') message.parts.push({ type: 'text', text });
  const index = b.push({ message }, { field });
  if (m.tool_calls === undefined || m.tool_calls === null) return;
  const callsField = joinField(field, 'tool_calls');
  needArray(m.tool_calls, where, callsField).forEach((raw, k) => {
    const callField = joinField(callsField, k);
    const call = needRecord(raw, where, callField);
    const fn = needRecord(call.function, where, joinField(callField, 'function'));
    const args = fn.arguments;
    b.addCall(index, {
      callId: needId(call.id, where, joinField(callField, 'id')),
      name: needId(fn.name, where, joinField(callField, 'function.name')),
      input: typeof args === 'string' ? parseArguments(args) : json(args ?? {}),
    });
  });
}
