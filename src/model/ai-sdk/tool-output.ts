import type { LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import type { ToolResultPart } from 'ai';
import type { JsonValue } from '../json.js';
import type { FilePart, ToolOutcome } from '../parts.js';
import { fileOf } from './parts.js';

/** A tool result's output, as a `ModelMessage` or a provider-level (V3) prompt carries it. */
export type AiSdkToolOutput = ToolResultPart['output'] | LanguageModelV3ToolResultOutput;

export function toolOutcome(out: AiSdkToolOutput): ToolOutcome {
  switch (out.type) {
    case 'text':
      return { state: 'completed', output: out.value };
    case 'json':
      return { state: 'completed', output: out.value as JsonValue };
    case 'content':
      return contentOutcome(out.value);
    case 'error-text':
      return { state: 'error', error: out.value };
    case 'error-json':
      return { state: 'error', error: JSON.stringify(out.value) };
    case 'execution-denied':
      return { state: 'error', error: `execution denied${out.reason ? `: ${out.reason}` : ''}` };
  }
}

type ContentItem = Extract<AiSdkToolOutput, { type: 'content' }>['value'][number];

/** A media item as an attachment; null for what a file part cannot hold (provider file ids, custom). */
function attachment(item: ContentItem): FilePart | null {
  switch (item.type) {
    case 'image-data':
    case 'media':
    case 'file-data':
      return fileOf(item);
    // An image of an unknown type: what its URL's extension says would turn it into a document.
    case 'image-url':
      return fileOf({ data: item.url, mediaType: 'image/*' });
    case 'file-url':
      return fileOf({ data: item.url, mediaType: item.mediaType });
    default:
      return null;
  }
}

/**
 * Multi-part output: its texts as the output, its media as attachments, as condense stores a
 * tool's images. Items a file part cannot hold keep the whole value as JSON instead.
 */
function contentOutcome(items: ContentItem[]): ToolOutcome {
  const texts: string[] = [];
  const attachments: FilePart[] = [];
  for (const item of items) {
    if (item.type === 'text') texts.push(item.text);
    else {
      const file = attachment(item);
      if (!file) return { state: 'completed', output: items as JsonValue };
      attachments.push(file);
    }
  }
  return { state: 'completed', output: texts.join('\n'), ...(attachments.length > 0 ? { attachments } : {}) };
}
