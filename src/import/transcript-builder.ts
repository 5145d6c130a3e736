import type { JsonObject, JsonValue } from '../model/json.js';
import { type Message, orphanResultMessage } from '../model/message.js';
import type { FilePart, ToolPart } from '../model/parts.js';
import { parseMessage } from '../model/validate.js';
import type { ImportedMessage, ImportIssue, ImportWhere } from './types.js';

export type ToolResult =
  | { output: JsonValue; attachments?: FilePart[] }
  | { error: string; attachments?: FilePart[] };

export interface ToolCall {
  callId: string;
  name: string;
  input: JsonValue;
  providerMetadata?: JsonObject;
}

/** Where a built message came from, so a message that fails validation can be traced to its source. */
export interface Origin {
  line?: number;
  field?: string;
}

interface PartRef {
  message: number;
  part: number;
}

export const NO_RESULT = 'no result recorded';

/**
 * Accumulates imported messages and pairs tool results with their calls. Calls are paired by id in
 * order: a result answers the earliest call with that id that is still unanswered, because real
 * transcripts (tau-bench) reuse ids inside one conversation.
 */
export class TranscriptBuilder {
  readonly messages: ImportedMessage[] = [];
  readonly warnings: string[] = [];
  readonly issues: ImportIssue[] = [];
  private readonly origins: Origin[] = [];
  private readonly unanswered = new Map<string, PartRef[]>();
  private readonly seenIds = new Set<string>();
  private cwd: string | undefined;
  private markedCwd: string | undefined;

  /**
   * The working directory the source recorded. The next message carries it (`metadata.cwd`) when
   * it changed, so that summaries can name files relative to it.
   */
  workingDirectory(cwd: string): void {
    if (cwd.startsWith('/')) this.cwd = cwd;
  }

  push(entry: ImportedMessage, origin: Origin = {}): number {
    if (this.cwd !== undefined && this.cwd !== this.markedCwd) {
      entry.message.metadata = { ...entry.message.metadata, cwd: this.cwd };
      this.markedCwd = this.cwd;
    }
    this.messages.push(entry);
    this.origins.push(origin);
    return this.messages.length - 1;
  }

  last(): ImportedMessage | undefined {
    return this.messages.at(-1);
  }

  /** Adds a tool call, not yet answered, to the assistant message at `index`. */
  addCall(index: number, call: ToolCall): void {
    const message = this.messages[index]!.message;
    if (message.role !== 'assistant') throw new Error('tool calls belong to assistant messages');
    if (this.seenIds.has(call.callId))
      this.warnings.push(`tool call id ${call.callId} repeats; paired by order`);
    this.seenIds.add(call.callId);
    const part: ToolPart = {
      type: 'tool',
      callId: call.callId,
      name: call.name,
      input: call.input,
      state: 'pending',
    };
    if (call.providerMetadata) part.providerMetadata = call.providerMetadata;
    message.parts.push(part);
    const queue = this.unanswered.get(call.callId) ?? [];
    queue.push({ message: index, part: message.parts.length - 1 });
    this.unanswered.set(call.callId, queue);
  }

  hasUnanswered(callId: string): boolean {
    return (this.unanswered.get(callId)?.length ?? 0) > 0;
  }

  /** Fills the earliest unanswered call with this id; false when there is none (the caller warns). */
  resolve(callId: string, result: ToolResult): boolean {
    const ref = this.unanswered.get(callId)?.shift();
    if (!ref) return false;
    this.settle(ref, result);
    return true;
  }

  /**
   * Fills the earliest unanswered call with this id; a result that answers no call is kept where it
   * was, as a user message marked `orphanResult`, and reported. Either way the run has moved on,
   * so a call left unanswered before it is no longer in flight.
   */
  resolveOrKeep(callId: string, result: ToolResult, origin: Origin): void {
    if (this.resolve(callId, result)) return;
    this.push({ message: orphanResultMessage(callId, result, 'the transcript') }, origin);
    this.issues.push({
      kind: 'orphan-result',
      detail: `result for tool call ${callId}, which no call made`,
      ...origin,
    });
  }

  private settle(ref: PartRef, result: ToolResult): void {
    const message = this.messages[ref.message]!.message;
    const pending = message.parts[ref.part] as ToolPart;
    const base = { type: 'tool' as const, callId: pending.callId, name: pending.name, input: pending.input };
    const meta = pending.providerMetadata ? { providerMetadata: pending.providerMetadata } : {};
    const extra =
      result.attachments && result.attachments.length > 0 ? { attachments: result.attachments } : {};
    const settled: ToolPart =
      'error' in result
        ? { ...base, ...meta, state: 'error', error: result.error, ...extra }
        : { ...base, ...meta, state: 'completed', output: result.output, ...extra };
    (message.parts as ToolPart[])[ref.part] = settled;
  }

  /**
   * Closes the transcript: a call left unanswered is still in flight only when its message is the
   * last one; anywhere else the run moved on without recording a result, so it becomes an error.
   * Every message is then validated against the schema.
   */
  finish(where: ImportWhere): ImportedMessage[] {
    const lastIndex = this.messages.length - 1;
    for (const queue of this.unanswered.values()) {
      for (const ref of queue) if (ref.message !== lastIndex) this.settle(ref, { error: NO_RESULT });
    }
    this.unanswered.clear();
    for (const issue of this.issues) {
      if (issue.line === undefined && issue.field !== undefined) {
        const line = where.line ?? where.lineOf?.(issue.field);
        if (line !== undefined) issue.line = line;
      }
    }
    this.messages.forEach((entry, i) => {
      const { field, line } = this.origins[i]!;
      try {
        parseMessage(entry.message, { file: where.file, line: line ?? where.line, field });
      } catch (error) {
        // Finding a line inside a JSON document means a scan of the text: only for a failure.
        const found = line ?? where.line ?? (field === undefined ? undefined : where.lineOf?.(field));
        if (found === undefined) throw error;
        parseMessage(entry.message, { file: where.file, line: found, field });
      }
    });
    return this.messages;
  }
}

/** A fresh message of the given role, with its part list ready to be filled. */
export function emptyMessage<R extends Message['role']>(role: R): Extract<Message, { role: R }> {
  return { role, parts: [] } as unknown as Extract<Message, { role: R }>;
}
