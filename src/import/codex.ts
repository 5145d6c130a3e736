import { addCompacted } from './codex-compacted.js';
import { isRecord, needRecord, needString, optString, type Rec, timestamp } from './fields.js';
import { type JsonLine, parseJsonLines } from './json-text.js';
import { newStepState, onItem, type StepState } from './response-items.js';
import { TranscriptBuilder } from './transcript-builder.js';
import type { ImportedCompaction, ImportedSession, ImportWhere } from './types.js';

/**
 * A Codex CLI rollout (JSONL of `{timestamp, type, payload}`). `response_item`s are the model's
 * input/output items in order; consecutive output items form one assistant step, which ends when a
 * tool output, a user message or a `token_count` event arrives. `token_count`'s
 * `info.last_token_usage` is the raw usage of that step. `session_meta`'s base instructions become
 * `system`; developer messages stay in place as system messages. `event_msg` `user_message` is used
 * only when the rollout did not also record the message as a response item.
 */
export function parseCodex(text: string, where: ImportWhere = {}): ImportedSession {
  return parseCodexLines(parseJsonLines(text, where.file), where);
}

export function parseCodexLines(lines: JsonLine[], where: ImportWhere = {}): ImportedSession {
  const b = new TranscriptBuilder();
  const s = newStepState();
  const compactions: ImportedCompaction[] = [];
  let sessionId: string | undefined;
  let system: string | undefined;
  for (const { line, value } of lines) {
    const w: ImportWhere = { file: where.file, line };
    const rec = needRecord(value, w, '');
    const type = needString(rec.type, w, 'type');
    const payload = needRecord(rec.payload, w, 'payload');
    const createdAt = timestamp(rec.timestamp);
    const at = createdAt === undefined ? {} : { createdAt };
    if (typeof payload.cwd === 'string') b.workingDirectory(payload.cwd);
    if (type === 'session_meta') {
      sessionId = optString(payload.id, w, 'payload.id') ?? sessionId;
      system = instructions(payload) ?? system;
    } else if (type === 'turn_context') {
      s.model = optString(payload.model, w, 'payload.model') ?? s.model;
    } else if (type === 'compacted') {
      addCompacted(b, compactions, payload, w, createdAt);
      s.step = undefined;
    } else if (type === 'event_msg') {
      onEvent(b, s, payload, w, at);
    } else if (type === 'response_item') {
      onItem(b, s, payload, w, at, 'payload');
    } else b.warnings.push(`line ${line}: line type ${type} skipped`);
  }
  const messages = b.finish({ file: where.file });
  return {
    format: 'codex',
    ...(sessionId ? { sessionId } : {}),
    ...(system ? { system } : {}),
    messages,
    ...(compactions.length > 0 ? { compactions } : {}),
    warnings: b.warnings,
    ...(b.issues.length > 0 ? { issues: b.issues } : {}),
  };
}

function instructions(payload: Rec): string | undefined {
  const base = payload.base_instructions;
  if (isRecord(base) && typeof base.text === 'string') return base.text;
  if (typeof base === 'string') return base;
  return typeof payload.instructions === 'string' ? payload.instructions : undefined;
}

function onEvent(
  b: TranscriptBuilder,
  s: StepState,
  payload: Rec,
  w: ImportWhere,
  at: { createdAt?: number },
): void {
  if (payload.type === 'token_count') {
    const info = payload.info;
    // The count follows the step it measures; a repeated count must not overwrite an earlier step's.
    const target = s.step ?? s.lastStep;
    const entry = target === undefined ? undefined : b.messages[target];
    const open = s.step !== undefined || entry?.usage === undefined;
    if (entry && open && isRecord(info) && info.last_token_usage !== undefined)
      entry.usage = info.last_token_usage;
    s.step = undefined;
  } else if (payload.type === 'user_message') {
    const text = needString(payload.message, w, 'payload.message');
    if (s.userTexts.has(text)) return;
    b.push({ message: { role: 'user', parts: [{ type: 'text', text }] }, ...at }, w);
    s.step = undefined;
  }
}
