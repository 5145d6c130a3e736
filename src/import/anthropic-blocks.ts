import { fileFromBase64, fileFromUrl } from '../model/media.js';
import type { FilePart, ReasoningPart, TextPart } from '../model/parts.js';
import { fail, joinField, needArray, needRecord, needString, optString, type Rec } from './fields.js';
import type { ToolResult } from './transcript-builder.js';
import type { ImportWhere } from './types.js';

/** Anthropic Messages content blocks → condense parts. */

export function textBlock(block: Rec, where: ImportWhere, field: string): TextPart {
  return { type: 'text', text: needString(block.text, where, joinField(field, 'text')) };
}

/**
 * Thinking keeps its signature byte for byte under providerMetadata.anthropic, the shape the AI SDK
 * reads back; redacted thinking keeps its opaque data the same way.
 */
export function reasoningBlock(block: Rec, where: ImportWhere, field: string): ReasoningPart {
  if (block.type === 'redacted_thinking') {
    const data = needString(block.data, where, joinField(field, 'data'));
    return { type: 'reasoning', text: '', providerMetadata: { anthropic: { redactedData: data } } };
  }
  const text = needString(block.thinking, where, joinField(field, 'thinking'));
  const signature = optString(block.signature, where, joinField(field, 'signature'));
  const part: ReasoningPart = { type: 'reasoning', text };
  if (signature !== undefined) part.providerMetadata = { anthropic: { signature } };
  return part;
}

/** An image or document block (base64 or url source). */
export function mediaBlock(block: Rec, where: ImportWhere, field: string): FilePart {
  const sourceField = joinField(field, 'source');
  const source = needRecord(block.source, where, sourceField);
  const fallback = block.type === 'document' ? 'application/pdf' : 'image/*';
  if (source.type === 'base64') {
    const mediaType = optString(source.media_type, where, joinField(sourceField, 'media_type')) ?? fallback;
    return fileFromBase64(needString(source.data, where, joinField(sourceField, 'data')), mediaType);
  }
  if (source.type === 'url')
    return fileFromUrl(needString(source.url, where, joinField(sourceField, 'url')), fallback);
  if (source.type === 'text') {
    const text = needString(source.data, where, joinField(sourceField, 'data'));
    return fileFromBase64(Buffer.from(text, 'utf8').toString('base64'), 'text/plain');
  }
  return fail(
    `unsupported source type ${JSON.stringify(source.type)}`,
    where,
    joinField(sourceField, 'type'),
  );
}

/** A tool_result block: its text becomes the output (or the error when is_error), images attachments. */
export function toolResultBlock(block: Rec, where: ImportWhere, field: string): ToolResult {
  const contentField = joinField(field, 'content');
  const texts: string[] = [];
  const attachments: FilePart[] = [];
  const content = block.content;
  if (typeof content === 'string') texts.push(content);
  else if (content !== undefined && content !== null) {
    needArray(content, where, contentField).forEach((raw, k) => {
      const itemField = joinField(contentField, k);
      const item = needRecord(raw, where, itemField);
      if (item.type === 'text') texts.push(textBlock(item, where, itemField).text);
      else if (item.type === 'image' || item.type === 'document')
        attachments.push(mediaBlock(item, where, itemField));
      else
        fail(
          `unknown tool_result content type ${JSON.stringify(item.type)}`,
          where,
          joinField(itemField, 'type'),
        );
    });
  }
  const text = texts.join('\n');
  const extra = attachments.length > 0 ? { attachments } : {};
  return block.is_error === true ? { error: text, ...extra } : { output: text, ...extra };
}
