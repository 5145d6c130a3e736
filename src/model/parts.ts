import { z } from 'zod';
import { type JsonValue, jsonObjectSchema, jsonValueSchema } from './json.js';

/** Plain text. `synthetic` marks text condense wrote itself (continue message, fillers). */
export const textPartSchema = z.object({
  type: z.literal('text'),
  text: z.string(),
  synthetic: z.boolean().optional(),
});

/**
 * Model reasoning. `providerMetadata` (e.g. Anthropic's signature, OpenAI's encrypted item) is kept
 * exactly as received: serializers send it back unchanged or drop the whole part, never edit it.
 */
export const reasoningPartSchema = z.object({
  type: z.literal('reasoning'),
  text: z.string(),
  providerMetadata: jsonObjectSchema.optional(),
});

/** Media or a document, inline (base64 `data`) or by `url`; exactly one of the two. */
export const filePartSchema = z
  .object({
    type: z.literal('file'),
    mediaType: z.string().min(1),
    data: z.string().optional(),
    url: z.string().optional(),
    filename: z.string().optional(),
  })
  .refine((p) => (p.data === undefined) !== (p.url === undefined), {
    message: 'a file part needs exactly one of data or url',
    path: ['data'],
  });

const toolCommon = {
  type: z.literal('tool'),
  callId: z.string().min(1),
  name: z.string().min(1),
  input: jsonValueSchema,
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  /** Set by pruning (ms since epoch): the output is replaced by a placeholder in the model's view. */
  compactedAt: z.number().optional(),
  providerMetadata: jsonObjectSchema.optional(),
  /**
   * How the AI SDK's UI message held it, when it arrived that way: 'static' for a `tool-NAME`
   * part (a tool of the app's tool set), 'dynamic' for a `dynamic-tool` part. An export writes it
   * back as it came, and a prune policy may tell the two apart (Qwery protects `tool-*` parts).
   */
  aiSdkKind: z.enum(['static', 'dynamic']).optional(),
};

/**
 * A tool invocation and its result as ONE part, so no cut or prune can separate them. The state
 * decides which fields exist: only a completed call has an output, only a failed one an error.
 */
export const toolPartSchema = z.discriminatedUnion('state', [
  z.object({ ...toolCommon, state: z.literal('pending') }),
  z.object({ ...toolCommon, state: z.literal('running') }),
  z.object({
    ...toolCommon,
    state: z.literal('completed'),
    output: jsonValueSchema,
    attachments: z.array(filePartSchema).optional(),
  }),
  z.object({
    ...toolCommon,
    state: z.literal('error'),
    error: z.string(),
    attachments: z.array(filePartSchema).optional(),
  }),
]);

/**
 * A queued compaction task (Qwery step 2, opencode: a user message with a part of type
 * `'compaction'`), `auto` when the overflow check queued it.
 */
export const compactionMarkerPartSchema = z.object({
  type: z.literal('compaction'),
  auto: z.boolean(),
  instructions: z.string().optional(),
});

export type TextPart = z.infer<typeof textPartSchema>;
export type ReasoningPart = z.infer<typeof reasoningPartSchema>;
export type FilePart = z.infer<typeof filePartSchema>;
export type ToolPart = z.infer<typeof toolPartSchema>;
export type ToolState = ToolPart['state'];
export type CompletedToolPart = Extract<ToolPart, { state: 'completed' }>;
export type ErroredToolPart = Extract<ToolPart, { state: 'error' }>;
export type CompactionMarkerPart = z.infer<typeof compactionMarkerPartSchema>;

export type SystemPart = TextPart;
export type UserPart = TextPart | FilePart | CompactionMarkerPart;
export type AssistantPart = TextPart | ReasoningPart | FilePart | ToolPart;
export type Part = UserPart | AssistantPart;

export const PART_TYPES = ['text', 'reasoning', 'file', 'tool', 'compaction'] as const;
export type PartType = (typeof PART_TYPES)[number];

/** Tool parts whose output exists and may be pruned. */
export function isFinishedTool(part: Part): part is CompletedToolPart | ErroredToolPart {
  return part.type === 'tool' && (part.state === 'completed' || part.state === 'error');
}

/** The part with its output (or error) replaced by `placeholder` and its attachments dropped. */
export function withPlaceholderOutput(part: ToolPart, placeholder: string): ToolPart {
  if (part.state === 'completed') {
    const { attachments: _dropped, ...rest } = part;
    return { ...rest, output: placeholder };
  }
  if (part.state === 'error') {
    const { attachments: _dropped, ...rest } = part;
    return { ...rest, error: placeholder };
  }
  return part;
}

export type ToolOutcome =
  | { state: 'completed'; output: JsonValue; attachments?: FilePart[] }
  | { state: 'error'; error: string };

/** A tool's result, or its failure; `attachments` are media it returned (a screenshot tool's image). */
export type ToolResult =
  | { output: JsonValue; attachments?: FilePart[]; error?: never }
  | { error: string; output?: never; attachments?: never };

/** A call that was pending or running, now finished: its call fields kept, the outcome added. */
export function finishedCall(call: ToolPart, outcome: ToolOutcome, endedAt?: number): ToolPart {
  const { callId, name, input, startedAt, providerMetadata } = call;
  return {
    type: 'tool',
    callId,
    name,
    input,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(endedAt !== undefined ? { endedAt } : {}),
    ...(providerMetadata ? { providerMetadata } : {}),
    ...outcome,
  } as ToolPart;
}
