import type { JsonObject } from '../model/json.js';
import { fileFromUrl } from '../model/media.js';
import type { FilePart, ReasoningPart, TextPart } from '../model/parts.js';
import { fail, isRecord, joinField, json, needArray, needRecord, needString, type Rec } from './fields.js';
import type { ToolResult } from './transcript-builder.js';
import type { ImportWhere } from './types.js';

/** OpenAI Responses items as Codex records them → condense parts. */

const TEXT_TYPES = ['input_text', 'output_text', 'text', 'summary_text', 'reasoning_text'];

/** Text and image parts of a `message` item's content. */
export function messageContent(content: unknown, where: ImportWhere, field: string): (TextPart | FilePart)[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return needArray(content, where, field).map((raw, j) => {
    const itemField = joinField(field, j);
    const item = needRecord(raw, where, itemField);
    if (typeof item.type === 'string' && TEXT_TYPES.includes(item.type)) {
      return { type: 'text', text: needString(item.text, where, joinField(itemField, 'text')) };
    }
    if (item.type === 'refusal')
      return { type: 'text', text: needString(item.refusal, where, joinField(itemField, 'refusal')) };
    if (item.type === 'input_image') {
      return fileFromUrl(needString(item.image_url, where, joinField(itemField, 'image_url')), 'image/*');
    }
    return fail(`unknown content type ${JSON.stringify(item.type)}`, where, joinField(itemField, 'type'));
  });
}

function texts(list: unknown, where: ImportWhere, field: string): string[] {
  if (list === undefined || list === null) return [];
  return needArray(list, where, field).map((raw, k) => {
    const item = needRecord(raw, where, joinField(field, k));
    return needString(item.text, where, joinField(field, `[${k}].text`));
  });
}

/**
 * A reasoning item. Its readable text is the summary (or the raw content when there is no summary);
 * the encrypted content and item id are kept under providerMetadata.openai, the names the AI SDK
 * uses to send reasoning back to the Responses API.
 */
export function reasoningItem(item: Rec, where: ImportWhere, field: string): ReasoningPart {
  const summary = texts(item.summary, where, joinField(field, 'summary'));
  const content = texts(item.content, where, joinField(field, 'content'));
  const openai: JsonObject = {};
  if (typeof item.id === 'string') openai.itemId = item.id;
  if (typeof item.encrypted_content === 'string') openai.reasoningEncryptedContent = item.encrypted_content;
  const part: ReasoningPart = {
    type: 'reasoning',
    text: (summary.length > 0 ? summary : content).join('\n\n'),
  };
  if (Object.keys(openai).length > 0) part.providerMetadata = { openai };
  return part;
}

/**
 * A tool output. Codex writes a string; some versions write content items (text and images) or
 * `{content, success}`, where `success: false` marks a failure.
 */
export function toolOutput(output: unknown, where: ImportWhere, field: string): ToolResult {
  if (typeof output === 'string') return { output };
  if (Array.isArray(output)) {
    const parts = messageContent(output, where, field);
    const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    const attachments = parts.filter((p): p is FilePart => p.type === 'file');
    return attachments.length > 0 ? { output: text, attachments } : { output: text };
  }
  if (isRecord(output) && typeof output.content === 'string') {
    return output.success === false ? { error: output.content } : { output: output.content };
  }
  return { output: json(output) };
}
