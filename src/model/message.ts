import { z } from 'zod';
import { jsonObjectSchema } from './json.js';
import {
  type AssistantPart,
  compactionMarkerPartSchema,
  type FilePart,
  filePartSchema,
  reasoningPartSchema,
  type SystemPart,
  textPartSchema,
  toolPartSchema,
  type UserPart,
} from './parts.js';

/**
 * Message metadata. `summary` flags a summary message (Qwery and opencode shape), `synthetic` a message
 * condense wrote, `finish` the model's finish reason, `error` a step that ended in error.
 */
export const messageMetadataSchema = jsonObjectSchema;

export const systemMessageSchema = z.object({
  role: z.literal('system'),
  parts: z.array(textPartSchema),
  metadata: messageMetadataSchema.optional(),
});

export const userMessageSchema = z.object({
  role: z.literal('user'),
  parts: z.array(z.union([textPartSchema, filePartSchema, compactionMarkerPartSchema])),
  metadata: messageMetadataSchema.optional(),
});

/**
 * Call ids are unique within one assistant message: a provider pairs a step's calls with their
 * results by id (OpenAI rejects a repeat outright), so two calls sharing one are ambiguous at the
 * source. Across messages an id may repeat (tau-bench runs reuse them): each message's calls are
 * answered right after it, so pairing stays positional, and serializers rename where a provider
 * wants ids unique in the whole request.
 */
export const assistantMessageSchema = z
  .object({
    role: z.literal('assistant'),
    parts: z.array(z.union([textPartSchema, reasoningPartSchema, filePartSchema, toolPartSchema])),
    metadata: messageMetadataSchema.optional(),
  })
  .superRefine((message, ctx) => {
    const first = new Map<string, number>();
    message.parts.forEach((part, i) => {
      if (part.type !== 'tool') return;
      const earlier = first.get(part.callId);
      if (earlier === undefined) first.set(part.callId, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['parts', i, 'callId'],
          message: `tool call id ${JSON.stringify(part.callId)} is already used by parts[${earlier}] of this message; call ids must be unique within a message`,
        });
    });
  });

/** Which part may stand in which role is part of the type: tools only in assistant messages. */
export const messageSchema = z.discriminatedUnion('role', [
  systemMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
]);

export type MessageMetadata = z.infer<typeof messageMetadataSchema>;
export type SystemMessage = { role: 'system'; parts: SystemPart[]; metadata?: MessageMetadata };
export type UserMessage = { role: 'user'; parts: UserPart[]; metadata?: MessageMetadata };
export type AssistantMessage = { role: 'assistant'; parts: AssistantPart[]; metadata?: MessageMetadata };
export type Message = SystemMessage | UserMessage | AssistantMessage;
export type Role = Message['role'];

/** Joined text of a message's text parts ("\n" between parts, other parts ignored). */
export function messageText(message: Message): string {
  const texts: string[] = [];
  for (const part of message.parts) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}

export function isSummaryMessage(message: Message): boolean {
  return message.metadata?.summary === true;
}

/**
 * A tool result that answers no call, kept where it came as a user message marked `orphanResult`
 * (nothing an app or a transcript sent is dropped); `where` names what held no such call.
 */
export function orphanResultMessage(
  callId: string,
  result: { output?: unknown; error?: string; attachments?: FilePart[] },
  where: string,
): UserMessage {
  const text =
    result.error !== undefined
      ? result.error
      : typeof result.output === 'string'
        ? result.output
        : JSON.stringify(result.output);
  return {
    role: 'user',
    parts: [
      { type: 'text', text: `[result of tool call ${callId}, which no call in ${where} made]\n${text}` },
      ...(result.attachments ?? []),
    ],
    metadata: { orphanResult: { callId, ...(result.error !== undefined ? { isError: true } : {}) } },
  };
}
