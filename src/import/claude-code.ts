import type { JsonObject } from '../model/json.js';
import type { AssistantMessage, UserMessage } from '../model/message.js';
import { mediaBlock, reasoningBlock, textBlock, toolResultBlock } from './anthropic-blocks.js';
import {
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
import { type JsonLine, parseJsonLines } from './json-text.js';
import { TranscriptBuilder } from './transcript-builder.js';
import type { ImportedSession, ImportWhere } from './types.js';

/**
 * A Claude Code session (JSONL). Only `user` and `assistant` lines hold the conversation; the rest
 * (`summary` titles, `system` notices, file snapshots, queue operations) are UI state and skipped.
 * Lines of a sub-agent (`isSidechain`) are not in the main context and are skipped with a warning.
 * Assistant lines sharing a `message.id` are one streamed response, merged; the usage of the last
 * line wins. The summary written at a `compact_boundary` (a user line with `isCompactSummary`)
 * becomes a user message with metadata `{summary: true, compaction: <the boundary's metadata>}`;
 * `isMeta` user lines get `{meta: true}`.
 */
export function parseClaudeCode(text: string, where: ImportWhere = {}): ImportedSession {
  return parseClaudeCodeLines(parseJsonLines(text, where.file), where);
}

export function parseClaudeCodeLines(lines: JsonLine[], where: ImportWhere = {}): ImportedSession {
  const b = new TranscriptBuilder();
  const byResponseId = new Map<string, number>();
  let sessionId: string | undefined;
  let sidechain = 0;
  let boundary: JsonObject | undefined;
  for (const { line, value } of lines) {
    const w: ImportWhere = { file: where.file, line };
    const rec = needRecord(value, w, '');
    const type = needString(rec.type, w, 'type');
    if (typeof rec.sessionId === 'string') sessionId ??= rec.sessionId;
    if (rec.isSidechain === true) {
      sidechain++;
      continue;
    }
    if (type === 'system' && rec.subtype === 'compact_boundary') {
      boundary = isRecord(rec.compactMetadata) ? (rec.compactMetadata as JsonObject) : {};
    } else if (type === 'user') {
      const metadata =
        rec.isCompactSummary === true
          ? { summary: true, ...(boundary ? { compaction: boundary } : {}) }
          : undefined;
      if (metadata) boundary = undefined;
      addUser(b, rec, w, rec.isMeta === true ? { meta: true, synthetic: true } : metadata);
    } else if (type === 'assistant') {
      addAssistant(b, rec, w, byResponseId);
    }
  }
  if (sidechain > 0) b.warnings.push(`${sidechain} sub-agent (sidechain) lines skipped`);
  const messages = b.finish({ file: where.file });
  return { format: 'claude-code', ...(sessionId ? { sessionId } : {}), messages, warnings: b.warnings };
}

const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;

function addUser(b: TranscriptBuilder, rec: Rec, w: ImportWhere, metadata: JsonObject | undefined): void {
  const message = needRecord(rec.message, w, 'message');
  const user: UserMessage = { role: 'user', parts: [] };
  if (metadata) user.metadata = metadata;
  if (typeof message.content === 'string') {
    user.parts.push({ type: 'text', text: message.content });
  } else {
    needArray(message.content, w, 'message.content').forEach((raw, j) => {
      const field = joinField('message.content', j);
      const block = needRecord(raw, w, field);
      const type = needString(block.type, w, joinField(field, 'type'));
      if (type === 'text') user.parts.push(textBlock(block, w, field));
      else if (type === 'image' || type === 'document') user.parts.push(mediaBlock(block, w, field));
      else if (type === 'tool_result') {
        const callId = needId(block.tool_use_id, w, joinField(field, 'tool_use_id'));
        if (!b.resolve(callId, toolResultBlock(block, w, field))) {
          b.warnings.push(`line ${w.line}: result for unknown tool call ${callId} dropped`);
        }
      } else b.warnings.push(`line ${w.line}: ${field} of type ${type} skipped`);
    });
  }
  // The client's own notes ("[Request interrupted by user]") are not the user's words.
  if (user.parts.length > 0 && user.parts.every((p) => p.type === 'text' && INTERRUPTED.test(p.text))) {
    user.metadata = { ...user.metadata, synthetic: true };
  }
  // A line holding only tool results adds nothing of its own: the results live in their calls.
  if (user.parts.length > 0) b.push({ message: user, ...createdAt(rec) }, { line: w.line });
}

function addAssistant(
  b: TranscriptBuilder,
  rec: Rec,
  w: ImportWhere,
  byResponseId: Map<string, number>,
): void {
  const message = needRecord(rec.message, w, 'message');
  const responseId = optString(message.id, w, 'message.id');
  const model = optString(message.model, w, 'message.model');
  let index = responseId === undefined ? undefined : byResponseId.get(responseId);
  if (index === undefined) {
    const fresh: AssistantMessage = { role: 'assistant', parts: [] };
    index = b.push({ message: fresh, ...(model ? { model } : {}), ...createdAt(rec) }, { line: w.line });
    if (responseId !== undefined) byResponseId.set(responseId, index);
  }
  const entry = b.messages[index]!;
  if (message.usage !== undefined) entry.usage = message.usage;
  const parts = (entry.message as AssistantMessage).parts;
  if (typeof message.content === 'string') {
    if (message.content !== '') parts.push({ type: 'text', text: message.content });
    return;
  }
  needArray(message.content, w, 'message.content').forEach((raw, j) => {
    const field = joinField('message.content', j);
    const block = needRecord(raw, w, field);
    const type = needString(block.type, w, joinField(field, 'type'));
    if (type === 'text') parts.push(textBlock(block, w, field));
    else if (type === 'thinking' || type === 'redacted_thinking') parts.push(reasoningBlock(block, w, field));
    else if (type === 'image') parts.push(mediaBlock(block, w, field));
    else if (type === 'tool_use' || type === 'server_tool_use') {
      b.addCall(index, {
        callId: needId(block.id, w, joinField(field, 'id')),
        name: needId(block.name, w, joinField(field, 'name')),
        input: json(block.input ?? {}),
      });
    } else b.warnings.push(`line ${w.line}: ${field} of type ${type} skipped`);
  });
}

function createdAt(rec: Rec): { createdAt?: number } {
  const ms = timestamp(rec.timestamp);
  return ms === undefined ? {} : { createdAt: ms };
}
