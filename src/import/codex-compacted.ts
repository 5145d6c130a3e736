import type { Message } from '../model/message.js';
import type { FilePart, TextPart, UserPart } from '../model/parts.js';
import { messageContent } from './codex-items.js';
import { fail, joinField, needArray, needRecord, needString, optString, type Rec } from './fields.js';
import type { TranscriptBuilder } from './transcript-builder.js';
import type { ImportedCompaction, ImportWhere } from './types.js';

/** A `message` item as a message of its own; developer instructions stay in place as system text. */
export function itemMessage(
  role: string,
  parts: (TextPart | FilePart)[],
  w: ImportWhere,
  field: string,
): Message {
  if (role === 'user') return { role, parts: parts as UserPart[] };
  if (role === 'assistant') return { role, parts };
  if (role === 'developer' || role === 'system')
    return { role: 'system', parts: [{ type: 'text', text: textOf(parts) }] };
  return fail(`unknown role ${JSON.stringify(role)}`, w, field);
}

function textOf(parts: (TextPart | FilePart)[]): string {
  return parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/**
 * A `compacted` rollout item ({message, replacement_history?}): from here on Codex sent the
 * summary in place of the history before it. When the item records the replacement history, the
 * messages Codex kept besides the summary (recent user messages, instructions) follow the pivot,
 * so the view holds what Codex went on with; Codex puts its summary after them, the view before.
 * Without summary text (a remote compaction keeps it encrypted) there is nothing to send in place
 * of the history, so the item is reported and the history stays in view.
 */
export function addCompacted(
  b: TranscriptBuilder,
  compactions: ImportedCompaction[],
  payload: Rec,
  w: ImportWhere,
  createdAt: number | undefined,
): void {
  const summary = optString(payload.message, w, 'payload.message') ?? '';
  const at = createdAt === undefined ? {} : { createdAt };
  if (summary.trim() === '') {
    b.warnings.push(
      `line ${w.line}: compaction without summary text skipped (the history before it stays in view)`,
    );
    return;
  }
  if (b.messages.length === 0) {
    b.warnings.push(`line ${w.line}: compaction with no earlier messages imported as a user message`);
    b.push(
      {
        message: { role: 'user', parts: [{ type: 'text', text: summary }], metadata: { summary: true } },
        ...at,
      },
      w,
    );
    return;
  }
  compactions.push({ at: b.messages.length, summary, auto: false, ...at });
  const history = payload.replacement_history;
  if (history === undefined || history === null) return;
  let skipped = 0;
  needArray(history, w, 'payload.replacement_history').forEach((raw, i) => {
    const field = joinField('payload.replacement_history', i);
    const item = needRecord(raw, w, field);
    if (item.type !== 'message') {
      skipped++;
      return;
    }
    const parts = messageContent(item.content, w, joinField(field, 'content'));
    if (textOf(parts) === summary) return;
    const role = needString(item.role, w, joinField(field, 'role'));
    b.push({ message: itemMessage(role, parts, w, joinField(field, 'role')), ...at }, w);
  });
  if (skipped > 0)
    b.warnings.push(`line ${w.line}: ${skipped} replacement history items that are not messages skipped`);
}
