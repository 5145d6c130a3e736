import { createHash } from 'node:crypto';
import { z } from 'zod';
import { base64Of } from '../../model/ai-sdk/parts.js';
import { InputError } from '../../model/errors.js';
import type { JsonValue } from '../../model/json.js';
import type { AssistantMessage } from '../../model/message.js';
import type { V3Message } from './prompt-in.js';

/**
 * How far the session has taken in the app's own message list, kept in the session state
 * (`state.cursor`) and written in the same write as the entries it accounts for, so that a
 * restart resumes exactly there:
 * - `messages`: how many non-system prompt messages are in the session; `hash`: a hash chain over
 *   them, proving the next prompt starts with the same ones;
 * - `echo`: the signature of the response the middleware recorded last, which the app's next
 *   prompt must carry at position `messages` (the SDK's own conversion of that response);
 * - `branch`, `branches` (root session only): where the conversation went after the app rewrote
 *   its history, and how many branches were started.
 */
export const promptCursorSchema = z.object({
  messages: z.number().int().nonnegative(),
  hash: z.string(),
  echo: z.string().optional(),
  branch: z.string().min(1).optional(),
  branches: z.number().int().nonnegative().optional(),
});

export type PromptCursor = z.infer<typeof promptCursorSchema>;

export const START: PromptCursor = { messages: 0, hash: '' };

export function readCursor(value: JsonValue | undefined, sessionId: string): PromptCursor {
  if (value === undefined) return START;
  const parsed = promptCursorSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`session '${sessionId}' has a malformed middleware cursor: ${issue?.message}`, {
      field: ['state', 'cursor', ...(issue?.path ?? [])].join('.'),
    });
  }
  return parsed.data;
}

/**
 * Canonical JSON of a prompt message for hashing: part-level providerOptions are left out (an app
 * may move a cache breakpoint from message to message without changing the conversation), bytes
 * as base64. Built from shallow copies so that the native JSON.stringify does the work.
 */
export function canonical(message: V3Message): string {
  if (typeof message.content === 'string') return JSON.stringify([message.role, message.content]);
  const parts = message.content.map((part) => {
    const { providerOptions: _ignored, ...rest } = part;
    if (rest.type === 'file' && rest.data instanceof Uint8Array)
      return { ...rest, data: base64Of(rest.data) };
    return rest;
  });
  return JSON.stringify([message.role, parts]);
}

/**
 * What identifies a recorded response when it comes back in the app's next prompt: its text and
 * its tool call ids. Reasoning and provider metadata are left out (apps and providers strip or
 * rewrite them), and texts are joined (the SDK drops empty ones).
 */
export function echoSignature(message: AssistantMessage): string {
  const text: string[] = [];
  const calls: string[] = [];
  for (const p of message.parts) {
    if (p.type === 'text') text.push(p.text);
    else if (p.type === 'tool') calls.push(p.callId);
  }
  return createHash('sha256')
    .update(JSON.stringify([text.join(''), calls]))
    .digest('base64url');
}
