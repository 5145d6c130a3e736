import type { AssistantMessage, Message, SystemMessage, UserMessage } from '../model/message.js';
import type { AssistantPart, Part, ToolPart, UserPart } from '../model/parts.js';

/** Result given to a call that never returned (Mistral Vibe fills "Tool no response"). */
export const INTERRUPTED_TOOL_ERROR =
  'Tool no response: the call was interrupted before it returned a result.';

/**
 * Provider-neutral clean-up so every serializer starts from sendable messages:
 * - a `pending`/`running` call becomes an `error` result saying it was interrupted, so no call is
 *   ever sent without a result;
 * - compaction markers go (they are requests to condense, not content; the view turns them into
 *   text when a model should see them);
 * - blank text parts go (Anthropic rejects whitespace-only text), and reasoning with neither text
 *   nor provider metadata (it carries nothing);
 * - messages left with no parts go.
 * Reasoning parts that stay are the same objects, untouched. Idempotent.
 */
export function repair(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const repaired = repairOne(message);
    if (repaired !== null) out.push(repaired);
  }
  return out;
}

/** One message repaired, or null when nothing of it is sendable (what `repair` drops). */
export function repairOne(message: Message): Message | null {
  const repaired = repairMessage(message);
  return repaired.parts.length > 0 ? repaired : null;
}

function repairMessage(message: Message): Message {
  switch (message.role) {
    case 'system': {
      const parts = message.parts.filter(isSendable);
      return parts.length === message.parts.length
        ? message
        : ({ ...message, parts } satisfies SystemMessage);
    }
    case 'user': {
      const parts = message.parts.filter(isSendable) as UserPart[];
      return parts.length === message.parts.length ? message : ({ ...message, parts } satisfies UserMessage);
    }
    case 'assistant': {
      const parts = message.parts.filter(isSendable) as AssistantPart[];
      const needsFix = parts.length !== message.parts.length || parts.some(isUnfinished);
      if (!needsFix) return message;
      return { ...message, parts: parts.map(finishInterrupted) } satisfies AssistantMessage;
    }
  }
}

function isSendable(part: Part): boolean {
  switch (part.type) {
    case 'text':
      return part.text.trim() !== '';
    case 'reasoning':
      return (
        part.text !== '' ||
        (part.providerMetadata !== undefined && Object.keys(part.providerMetadata).length > 0)
      );
    case 'compaction':
      return false;
    default:
      return true;
  }
}

function isUnfinished(part: AssistantPart): boolean {
  return part.type === 'tool' && (part.state === 'pending' || part.state === 'running');
}

function finishInterrupted(part: AssistantPart): AssistantPart {
  if (!isUnfinished(part)) return part;
  const { state: _state, ...call } = part as ToolPart;
  return { ...call, state: 'error', error: INTERRUPTED_TOOL_ERROR };
}
