import type { AnthropicBlock, AnthropicMessage } from './anthropic-types.js';
import { type Fold, type FoldStart, freshStart } from './assembler.js';
import { type CallIdFields, uniqueCalls } from './common.js';

/** One message's turns, tool_use ids sanitized but not yet made unique (that needs the ones before). */
export interface AnthropicFragment {
  turns: AnthropicMessage[];
  /** tool_use blocks in the assistant turn, answered by as many tool_result blocks, in order. */
  calls: number;
}

/**
 * Joins the turns of a request: tool_use ids made unique, neighbours of the same role merged
 * (roles strictly alternate), and the final turn, if an assistant one, trimmed as a
 * prefill must be. The untrimmed final turn is kept aside, so that a turn appended later merges
 * with, or follows, what the message really said.
 */
export function anthropicFold(
  start?: FoldStart<AnthropicMessage>,
): Fold<AnthropicFragment, AnthropicMessage> {
  // Fragment ids are already in Anthropic's alphabet: only uniqueness is left to do.
  const { items, ids } = freshStart(start);
  // Started on items, the last of them is not reopened: a fold restarts only where no turn merged.
  let open: AnthropicMessage | undefined;
  const add = (turn: AnthropicMessage) => {
    if (turn.content.length === 0) return;
    if (open !== undefined && open.role === turn.role) {
      open = merged(open, turn);
      items[items.length - 1] = prefill(open);
      return;
    }
    if (open !== undefined) items[items.length - 1] = open; // no longer the final turn
    open = turn;
    items.push(prefill(turn));
  };
  return {
    items,
    add(fragment) {
      for (const turn of uniqueIds(fragment, ids.take)) add(turn);
    },
  };
}

/**
 * The fragment's turns with each tool_use id unique in the request (tau-bench repeats ids;
 * Anthropic rejects repeats), each result following its call's new id: pairing is by position.
 * A fragment whose ids are all new is returned as it is.
 */
function uniqueIds(fragment: AnthropicFragment, ids: (callId: string) => string): AnthropicMessage[] {
  if (fragment.calls === 0) return fragment.turns;
  const [call, answer] = fragment.turns as [AnthropicMessage, AnthropicMessage];
  const unique = uniqueCalls(call.content, answer.content, ids, ANTHROPIC_IDS);
  if (unique === null) return fragment.turns;
  return [
    { role: 'assistant', content: unique.calls },
    { role: 'user', content: unique.results },
  ];
}

const ANTHROPIC_IDS: CallIdFields<AnthropicBlock, AnthropicBlock> = {
  callId: (b) => (b.type === 'tool_use' ? b.id : undefined),
  withCallId: (b, id) => ({ ...b, id }) as AnthropicBlock,
  withResultId: (b, id) => ({ ...b, tool_use_id: id }) as AnthropicBlock,
};

/** Two turns of one role as one, a user turn's tool results first. Never changes either. */
function merged(last: AnthropicMessage, turn: AnthropicMessage): AnthropicMessage {
  const blocks = [...last.content, ...turn.content];
  if (turn.role !== 'user') return { role: turn.role, content: blocks };
  return {
    role: 'user',
    content: [
      ...blocks.filter((b) => b.type === 'tool_result'),
      ...blocks.filter((b) => b.type !== 'tool_result'),
    ],
  };
}

/**
 * A request ending on an assistant turn is a prefill, and Anthropic rejects one whose text ends in
 * whitespace; only that last text block is trimmed (thinking blocks are never touched).
 */
function prefill(turn: AnthropicMessage): AnthropicMessage {
  const block = turn.content.at(-1);
  if (turn.role !== 'assistant' || block?.type !== 'text' || block.text.trimEnd() === block.text) return turn;
  return {
    role: 'assistant',
    content: [...turn.content.slice(0, -1), { type: 'text', text: block.text.trimEnd() }],
  };
}
