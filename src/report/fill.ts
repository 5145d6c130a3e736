import { isMarkerOnly } from '../compact/turns.js';
import type { Entry } from '../model/entry.js';

/**
 * What fills the window now, in estimated tokens: the system prompt, the tool definitions, the
 * summary, the messages by role (tool calls count with the assistant) and the tool outputs by
 * tool, then what is left of the window. Pure: the report's own small version; `condense stats`
 * is getting a breakdown of the same figures, which should replace this one when both exist.
 */
export interface WindowFill {
  system: number;
  tools: number;
  summary: number;
  messages: Record<string, number>;
  toolOutputs: Record<string, number>;
  /** The sum of the above. */
  used: number;
  /**
   * What the provider counts beyond the local estimate: the calibrated next-prompt figure minus
   * `used` (a tokenizer's ratio, undeclared overhead), 0 when that figure is not above it.
   */
  unattributed: number;
  window: number;
  usable: number | null;
  trigger: number | null;
  /** window − used − unattributed, at least 0. */
  free: number;
}

export interface FillInput {
  /** The entries the view is built from (from the latest pivot's first kept entry on). */
  active: readonly Entry[];
  systemTokens: number;
  toolsTokens: number;
  /** The session's calibrated estimate of the next prompt. */
  estimate: number;
  window: number;
  usable: number | null;
  trigger: number | null;
}

export function windowFill(input: FillInput): WindowFill {
  const messages: Record<string, number> = {};
  const toolOutputs: Record<string, number> = {};
  let summary = 0;
  const pivot = input.active.findLast((e) => e.kind === 'compaction');
  for (const entry of input.active) {
    if (entry.kind === 'compaction') {
      if (entry === pivot) summary += entry.tokens;
      continue;
    }
    // A queued compaction request is an instruction to condense: never sent.
    if (isMarkerOnly(entry) || (pivot?.kind === 'compaction' && entry.id === pivot.pivot.markerId)) continue;
    let outputs = 0;
    entry.message.parts.forEach((part, i) => {
      if (part.type !== 'tool') return;
      const tokens = entry.partTokens[i] ?? 0;
      toolOutputs[part.name] = (toolOutputs[part.name] ?? 0) + tokens;
      outputs += tokens;
    });
    const role = entry.message.role;
    messages[role] = (messages[role] ?? 0) + Math.max(0, entry.tokens - outputs);
  }
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  const used = input.systemTokens + input.toolsTokens + summary + sum(messages) + sum(toolOutputs);
  const unattributed = Math.max(0, input.estimate - used);
  return {
    system: input.systemTokens,
    tools: input.toolsTokens,
    summary,
    messages,
    toolOutputs,
    used,
    unattributed,
    window: input.window,
    usable: input.usable,
    trigger: input.trigger,
    free: Math.max(0, input.window - used - unattributed),
  };
}
