import {
  type AssistantPart,
  finishedCall,
  type ToolOutcome,
  type ToolPart,
  type ToolResult,
} from '../parts.js';

/** A tool result that completes a call made outside the messages converted (the session holds it). */
export interface LateToolResult {
  callId: string;
  result: ToolResult;
  /** Index of the message that carried it. */
  index: number;
}

/** An outcome as `session.recordToolResult` takes it. */
export function resultOf(outcome: ToolOutcome): ToolResult {
  const { state: _state, ...result } = outcome;
  return result;
}

/**
 * The calls of the assistant parts being built, each a `pending` part until its result completes
 * it in place, so call and result stay one part. Calls sharing an id (providers reuse them) are
 * answered in the order they were made. A result whose call is not here is kept in `late`.
 */
export class OpenCalls {
  private readonly open = new Map<string, { parts: AssistantPart[]; index: number }[]>();
  readonly late: LateToolResult[] = [];

  /** Appends `part` to `parts`; a tool part waits here for its result. */
  add(parts: AssistantPart[], part: AssistantPart): void {
    if (part.type === 'tool') {
      const queue = this.open.get(part.callId) ?? [];
      queue.push({ parts, index: parts.length });
      this.open.set(part.callId, queue);
    }
    parts.push(part);
  }

  /** Completes the oldest open call with this id, or keeps the result as late (message `index`). */
  settle(callId: string, outcome: ToolOutcome, index: number): void {
    const queue = this.open.get(callId);
    const slot = queue?.shift();
    if (!slot) {
      this.late.push({ callId, result: resultOf(outcome), index });
      return;
    }
    if (queue!.length === 0) this.open.delete(callId);
    slot.parts[slot.index] = finishedCall(slot.parts[slot.index] as ToolPart, outcome);
  }
}
