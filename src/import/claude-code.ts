import type { JsonObject } from '../model/json.js';
import type { AssistantMessage, UserMessage } from '../model/message.js';
import { mediaBlock, reasoningBlock, textBlock, toolResultBlock } from './anthropic-blocks.js';
import { type Boundary, compactionOf, unanswered } from './claude-code-compaction.js';
import { UserQueue } from './claude-code-queue.js';
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
import type { ImportedCompaction, ImportedSession, ImportWhere } from './types.js';

/**
 * A Claude Code session (JSONL). `user` and `assistant` lines hold the conversation, and
 * `queue-operation` lines the messages the user typed while the agent worked (see
 * claude-code-queue.ts); the rest (`summary` titles, `system` notices, file snapshots) are UI
 * state and skipped. Lines of a sub-agent (`isSidechain`) are not in the main context and are
 * skipped with a warning, unless the file is the sub-agent's own (`subagents/agent-<id>.jsonl`,
 * all lines sidechains).
 * Assistant lines sharing a `message.id` are one streamed response, merged; the usage of the last
 * line wins. A `compact_boundary` and the summary line after it (`isCompactSummary`) become one
 * compaction: Claude Code sent that summary, then what followed, and nothing from before.
 * `isMeta` user lines get `{meta: true}`.
 */
export function parseClaudeCode(text: string, where: ImportWhere = {}): ImportedSession {
  return parseClaudeCodeLines(parseJsonLines(text, where.file), where);
}

export function parseClaudeCodeLines(lines: JsonLine[], where: ImportWhere = {}): ImportedSession {
  const b = new TranscriptBuilder();
  const byResponseId = new Map<string, number>();
  const compactions: ImportedCompaction[] = [];
  const subagent = isSubagentFile(lines);
  let sessionId: string | undefined;
  let sidechain = 0;
  let boundary: Boundary | undefined;
  const queue = new UserQueue();
  for (const { line, value } of lines) {
    const w: ImportWhere = { file: where.file, line };
    const rec = needRecord(value, w, '');
    const type = needString(rec.type, w, 'type');
    const id = subagent ? rec.agentId : rec.sessionId;
    if (typeof id === 'string') sessionId ??= id;
    if (typeof rec.cwd === 'string') b.workingDirectory(rec.cwd);
    if (type === 'queue-operation') {
      queue.apply(b, rec, w, createdAt(rec));
      continue;
    }
    if (rec.isSidechain === true && !subagent) {
      sidechain++;
      continue;
    }
    if (type === 'system' && rec.subtype === 'compact_boundary') {
      if (boundary) b.warnings.push(unanswered(boundary));
      const metadata = isRecord(rec.compactMetadata) ? (rec.compactMetadata as JsonObject) : undefined;
      boundary = { line, metadata, ...createdAt(rec) };
    } else if (type === 'user' && rec.isCompactSummary === true) {
      addSummary(b, compactions, rec, w, boundary);
      boundary = undefined;
    } else if (type === 'user' || type === 'assistant') {
      if (boundary) b.warnings.push(unanswered(boundary));
      boundary = undefined;
      if (type === 'user')
        addUser(b, rec, w, rec.isMeta === true ? { meta: true, synthetic: true } : undefined);
      else addAssistant(b, rec, w, byResponseId);
    }
  }
  if (boundary) b.warnings.push(unanswered(boundary));
  queue.finish(b);
  if (sidechain > 0) b.warnings.push(`${sidechain} sub-agent (sidechain) lines skipped`);
  const messages = b.finish({ file: where.file });
  return {
    format: 'claude-code',
    ...(sessionId ? { sessionId } : {}),
    messages,
    ...(compactions.length > 0 ? { compactions } : {}),
    warnings: b.warnings,
    ...(b.issues.length > 0 ? { issues: b.issues } : {}),
  };
}

/**
 * A sub-agent's own file (`<session>/subagents/agent-<id>.jsonl`): every conversation line is a
 * sidechain. There the sidechain is the conversation, named by its `agentId`.
 */
function isSubagentFile(lines: JsonLine[]): boolean {
  const turns = lines.filter(
    ({ value }) => isRecord(value) && (value.type === 'user' || value.type === 'assistant'),
  );
  return turns.length > 0 && turns.every(({ value }) => (value as Rec).isSidechain === true);
}

/**
 * The summary Claude Code wrote after a compact_boundary. With nothing before it there is nothing
 * it replaced, so it stays what it is in the file: a user message, flagged as a summary.
 */
function addSummary(
  b: TranscriptBuilder,
  compactions: ImportedCompaction[],
  rec: Rec,
  w: ImportWhere,
  boundary: Boundary | undefined,
): void {
  if (b.messages.length > 0) {
    compactions.push(compactionOf(b.messages.length, rec, w, boundary, createdAt(rec).createdAt));
    return;
  }
  b.warnings.push(`line ${w.line}: compact summary with no earlier messages imported as a user message`);
  const metadata: JsonObject = { summary: true };
  if (boundary?.metadata) metadata.compaction = boundary.metadata;
  addUser(b, rec, w, metadata);
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
        b.resolveOrKeep(callId, toolResultBlock(block, w, field), { line: w.line, field });
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
