import { optString, type Rec } from './fields.js';
import type { TranscriptBuilder } from './transcript-builder.js';
import type { ImportWhere } from './types.js';

interface Queued {
  text: string;
  createdAt?: number;
}

/**
 * Messages the user typed while the agent was busy (`queue-operation` lines). `enqueue` holds one;
 * `dequeue` hands it over as the next user line (which the file records itself); `remove` means
 * the agent took it in mid-turn, alongside a tool result — the file has no user line for it, so
 * it becomes a user message here, flagged `queued`; `popAll` gives the queue back to the input box
 * for editing (what is sent after comes as new lines). Whatever is still queued when the file ends
 * is kept too, with a warning: the user wrote it.
 */
export class UserQueue {
  private readonly pending: Queued[] = [];

  apply(b: TranscriptBuilder, rec: Rec, w: ImportWhere, at: { createdAt?: number }): void {
    const operation = optString(rec.operation, w, 'operation');
    if (operation === 'enqueue') {
      const text = optString(rec.content, w, 'content');
      if (text !== undefined && text.trim() !== '') this.pending.push({ text, ...at });
    } else if (operation === 'dequeue') this.pending.shift();
    else if (operation === 'remove') {
      const item = this.pending.shift();
      if (item) add(b, item, w.line);
    } else if (operation === 'popAll') this.pending.length = 0;
    else b.warnings.push(`line ${w.line}: queue operation ${operation ?? '(none)'} skipped`);
  }

  finish(b: TranscriptBuilder): void {
    if (this.pending.length === 0) return;
    b.warnings.push(`${this.pending.length} queued message(s) never delivered kept at the end`);
    for (const item of this.pending.splice(0)) add(b, item, undefined);
  }
}

function add(b: TranscriptBuilder, item: Queued, line: number | undefined): void {
  b.push(
    {
      message: { role: 'user', parts: [{ type: 'text', text: item.text }], metadata: { queued: true } },
      ...(item.createdAt === undefined ? {} : { createdAt: item.createdAt }),
    },
    line === undefined ? {} : { line },
  );
}
