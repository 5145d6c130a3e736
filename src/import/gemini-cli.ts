import { fileFromBase64, fileFromUrl } from '../model/media.js';
import type { AssistantMessage, UserMessage } from '../model/message.js';
import type { FilePart, TextPart } from '../model/parts.js';
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
  timestamp,
} from './fields.js';
import { type ToolResult, TranscriptBuilder } from './transcript-builder.js';
import type { ImportedSession, ImportWhere } from './types.js';

/**
 * A Gemini CLI session file `{sessionId, messages[]}`. `user` and `gemini` records are the
 * conversation; `info`, `error` and `warning` records are CLI notices the model never saw, skipped
 * with a warning. A gemini record's thoughts become reasoning parts, its tool calls carry their own
 * results (`result[].functionResponse.response`), and `tokens` is kept as the raw usage.
 */
export function parseGeminiCli(value: unknown, where: ImportWhere = {}): ImportedSession {
  const top = needRecord(value, where, '');
  const b = new TranscriptBuilder();
  const skipped = new Map<string, number>();
  needArray(top.messages, where, 'messages').forEach((raw, i) => {
    const field = joinField('messages', i);
    const rec = needRecord(raw, where, field);
    const type = needString(rec.type, where, joinField(field, 'type'));
    const createdAt = timestamp(rec.timestamp);
    const at = createdAt === undefined ? {} : { createdAt };
    if (type === 'user') {
      const user: UserMessage = {
        role: 'user',
        parts: content(rec.content, where, joinField(field, 'content')),
      };
      b.push({ message: user, ...at }, { field });
    } else if (type === 'gemini') {
      addGemini(b, rec, where, field, at);
    } else skipped.set(type, (skipped.get(type) ?? 0) + 1);
  });
  for (const [type, count] of skipped) b.warnings.push(`${count} ${type} record(s) skipped (CLI notices)`);
  const sessionId = optString(top.sessionId, where, 'sessionId');
  return {
    format: 'gemini-cli',
    ...(sessionId ? { sessionId } : {}),
    messages: b.finish(where),
    warnings: b.warnings,
  };
}

/** Content is a string or a list of Gemini parts (text, inlineData, fileData). */
function content(value: unknown, where: ImportWhere, field: string): (TextPart | FilePart)[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value === '' ? [] : [{ type: 'text', text: value }];
  const list = Array.isArray(value) ? value : [value];
  return list.map((raw, j) => {
    const partField = Array.isArray(value) ? joinField(field, j) : field;
    const part = needRecord(raw, where, partField);
    if (typeof part.text === 'string') return { type: 'text', text: part.text };
    if (isRecord(part.inlineData)) {
      const d = part.inlineData;
      const mediaType = needString(d.mimeType, where, joinField(partField, 'inlineData.mimeType'));
      return fileFromBase64(needString(d.data, where, joinField(partField, 'inlineData.data')), mediaType);
    }
    if (isRecord(part.fileData)) {
      const d = part.fileData;
      const file = fileFromUrl(
        needString(d.fileUri, where, joinField(partField, 'fileData.fileUri')),
        'application/octet-stream',
      );
      if (typeof d.mimeType === 'string' && d.mimeType !== '') file.mediaType = d.mimeType;
      return file;
    }
    return fail('expected a text, inlineData or fileData part', where, partField);
  });
}

function addGemini(
  b: TranscriptBuilder,
  rec: Rec,
  where: ImportWhere,
  field: string,
  at: { createdAt?: number },
): void {
  const message: AssistantMessage = { role: 'assistant', parts: [] };
  if (Array.isArray(rec.thoughts)) {
    rec.thoughts.forEach((raw, k) => {
      const thought = needRecord(raw, where, joinField(field, `thoughts[${k}]`));
      const subject = optString(thought.subject, where, joinField(field, `thoughts[${k}].subject`));
      const description =
        optString(thought.description, where, joinField(field, `thoughts[${k}].description`)) ?? '';
      message.parts.push({
        type: 'reasoning',
        text: subject ? `**${subject}** ${description}` : description,
      });
    });
  }
  message.parts.push(...content(rec.content, where, joinField(field, 'content')));
  const model = optString(rec.model, where, joinField(field, 'model'));
  const index = b.push(
    {
      message,
      ...(model ? { model } : {}),
      ...(rec.tokens === undefined ? {} : { usage: rec.tokens }),
      ...at,
    },
    { field },
  );
  if (rec.toolCalls === undefined || rec.toolCalls === null) return;
  const callsField = joinField(field, 'toolCalls');
  needArray(rec.toolCalls, where, callsField).forEach((raw, k) => {
    const callField = joinField(callsField, k);
    const call = needRecord(raw, where, callField);
    const callId = needId(call.id, where, joinField(callField, 'id'));
    b.addCall(index, {
      callId,
      name: needId(call.name, where, joinField(callField, 'name')),
      input: json(call.args ?? {}),
    });
    const result = toolResult(call, where, callField);
    if (result) b.resolve(callId, result);
  });
}

/** The call's recorded result; undefined when none was recorded (a call still running). */
function toolResult(call: Rec, where: ImportWhere, field: string): ToolResult | undefined {
  if (call.status === 'cancelled') return { error: 'cancelled' };
  if (call.result === undefined || call.result === null)
    return call.status === 'error' ? { error: 'tool failed' } : undefined;
  const texts: string[] = [];
  const attachments: FilePart[] = [];
  let error: string | undefined;
  needArray(call.result, where, joinField(field, 'result')).forEach((raw, r) => {
    const partField = joinField(field, `result[${r}]`);
    const part = needRecord(raw, where, partField);
    if (isRecord(part.functionResponse)) {
      const response = part.functionResponse.response;
      if (isRecord(response) && typeof response.error === 'string') error = response.error;
      else if (isRecord(response) && typeof response.output === 'string') texts.push(response.output);
      else texts.push(JSON.stringify(response ?? null));
    } else
      attachments.push(...content([part], where, partField).filter((p): p is FilePart => p.type === 'file'));
  });
  const extra = attachments.length > 0 ? { attachments } : {};
  if (error !== undefined || call.status === 'error') return { error: error ?? texts.join('\n'), ...extra };
  return { output: texts.join('\n'), ...extra };
}
