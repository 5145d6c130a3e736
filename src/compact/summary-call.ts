import type { ModelMessage, ToolChoice, ToolSet } from 'ai';
import { type AssistantMessage, type Message, messageText } from '../model/message.js';
import { finishedCall } from '../model/parts.js';
import { SEED_004_NO_RESPONSE, SEED_004_UNDERSTOOD } from './prompts.js';

/**
 * How a summary call is made of the conversation itself, as the seeds make it: the history as the
 * agent's model saw it (real messages, not a flattened transcript), under a system prompt, with a
 * final user instruction. Plain data, so a preset is a small policy object.
 */
export interface SummaryCall {
  /** The call's system prompt; 'agent' sends the agent's own, with its tools (Mistral Vibe). */
  system: string | 'agent';
  /** A user message appended after the history (none: Pegasus's "messages in → summary out"). */
  prompt?: string;
  /**
   * Mistral Vibe cleaning first: every call without a result gets "Tool no response", and a history
   * ending on tool results gets an assistant "Understood.".
   */
  clean?: boolean;
}

/** A summary request ready for `generateText` (the AI SDK's own message and tool types). */
export interface LlmCall {
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  toolChoice?: ToolChoice<ToolSet>;
}

/** Mistral Vibe `fillMissingToolResponses`: an unfinished call gets an error result "Tool no response". */
function fillMissing(message: AssistantMessage): AssistantMessage {
  const open = (p: AssistantMessage['parts'][number]) =>
    p.type === 'tool' && (p.state === 'pending' || p.state === 'running');
  if (!message.parts.some(open)) return message;
  const parts = message.parts.map((p) =>
    p.type === 'tool' && open(p) ? finishedCall(p, { state: 'error', error: SEED_004_NO_RESPONSE }) : p,
  );
  return { ...message, parts };
}

/**
 * Mistral Vibe `cleanMessageHistory` on a view: missing results filled, then "Understood." when the
 * history ends on tool results (an assistant message holding calls is sent as the calls followed
 * by their results). Nothing else is reordered or merged.
 */
export function cleanHistory(view: readonly Message[]): Message[] {
  const out = view.map((m) => (m.role === 'assistant' ? fillMissing(m) : m));
  const last = out.at(-1);
  if (last?.role === 'assistant' && last.parts.some((p) => p.type === 'tool')) {
    out.push({ role: 'assistant', parts: [{ type: 'text', text: SEED_004_UNDERSTOOD, synthetic: true }] });
  }
  return out;
}

/**
 * The messages of a summary call: the agent's system prompt first when the call uses it, the
 * (cleaned) history, then the instruction as a user message.
 */
export function summaryCallMessages(
  call: SummaryCall,
  view: readonly Message[],
  agentSystem: string | undefined,
): Message[] {
  const history = call.clean ? cleanHistory(view) : [...view];
  const head: Message[] =
    call.system === 'agent' && agentSystem
      ? [{ role: 'system', parts: [{ type: 'text', text: agentSystem }] }]
      : [];
  const tail: Message[] =
    call.prompt === undefined ? [] : [{ role: 'user', parts: [{ type: 'text', text: call.prompt }] }];
  return [...head, ...history, ...tail];
}

/** Mistral Vibe step 2: the text of the newest user message, whatever it is (the loop stops at the first). */
export function newestUserText(view: readonly Message[]): string {
  for (let i = view.length - 1; i >= 0; i--) {
    const m = view[i]!;
    if (m.role === 'user') return messageText(m);
  }
  return '';
}
