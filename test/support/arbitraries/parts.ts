/** Part arbitraries: text, reasoning, files, tool calls in every state, compaction markers. */
import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import type {
  CompactionMarkerPart,
  FilePart,
  ReasoningPart,
  TextPart,
  ToolPart,
} from '../../../src/model/parts.js';

const key = fc.constantFrom('a', 'b', 'path', 'cmd', 'query', 'n');
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.boolean(),
  fc.constant(null),
);

/** Small JSON values without `-0` or `__proto__` keys, so JSON round trips are exact. */
export const jsonValueArb: fc.Arbitrary<JsonValue> = fc.oneof(
  { depthSize: 'small' },
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(key, scalar, { maxKeys: 3 }),
);
export const jsonObjectArb: fc.Arbitrary<JsonObject> = fc.dictionary(key, jsonValueArb, { maxKeys: 3 });

/** Text including the empty, whitespace-only and whitespace-ended strings providers reject. */
export const textArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\t') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }).map((s) => `${s}\n`) },
);

export const textPartArb: fc.Arbitrary<TextPart> = fc.record(
  { type: fc.constant('text' as const), text: textArb, synthetic: fc.boolean() },
  { requiredKeys: ['type', 'text'] },
);

const signature = fc.base64String({ minLength: 4, maxLength: 40 });

/** Reasoning as the providers return it: signed, redacted, Gemini-signed, OpenAI item, or bare. */
export const reasoningPartArb: fc.Arbitrary<ReasoningPart> = fc.oneof(
  fc.record({
    type: fc.constant('reasoning' as const),
    text: fc.string({ maxLength: 40 }),
    providerMetadata: signature.map((s): JsonObject => ({ anthropic: { signature: s } })),
  }),
  fc.record({
    type: fc.constant('reasoning' as const),
    text: fc.constant(''),
    providerMetadata: signature.map((d): JsonObject => ({ anthropic: { redactedData: d } })),
  }),
  fc.record({
    type: fc.constant('reasoning' as const),
    text: fc.string({ minLength: 1, maxLength: 40 }),
    providerMetadata: signature.map((s): JsonObject => ({ google: { thoughtSignature: s } })),
  }),
  fc.record({
    type: fc.constant('reasoning' as const),
    text: fc.string({ maxLength: 40 }),
    providerMetadata: fc.record({
      openai: fc.record({
        itemId: fc.string({ minLength: 1, maxLength: 8 }),
        reasoningEncryptedContent: signature,
      }),
    }),
  }),
  fc.record({ type: fc.constant('reasoning' as const), text: fc.string({ maxLength: 40 }) }),
);

const mediaType = fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'text/plain', 'audio/wav');

export const filePartArb: fc.Arbitrary<FilePart> = fc.oneof(
  fc.record(
    {
      type: fc.constant('file' as const),
      mediaType,
      data: fc.base64String({ minLength: 4, maxLength: 24 }),
      filename: fc.constantFrom('a.png', 'doc.pdf', 'notes.txt'),
    },
    { requiredKeys: ['type', 'mediaType', 'data'] },
  ),
  fc.record({
    type: fc.constant('file' as const),
    mediaType,
    url: fc.constantFrom('https://example.com/a.png', 'https://example.com/doc.pdf', 'gs://bucket/x'),
  }),
);

/** Call ids from a small pool (repeats across and within messages) or unique-looking ones. */
export const callIdArb = fc.oneof(
  fc.constantFrom('call_1', 'call_2', 'toolu_01'),
  fc.stringMatching(/^[a-zA-Z0-9_.:-]{1,12}$/),
);
const toolName = fc.constantFrom('read', 'bash', 'edit', 'skill', 'search_flights');

const toolBaseArb = fc.record({
  type: fc.constant('tool' as const),
  callId: callIdArb,
  name: toolName,
  input: fc.oneof({ weight: 4, arbitrary: jsonObjectArb }, { weight: 1, arbitrary: jsonValueArb }),
});
const toolExtrasArb = fc.record(
  {
    startedAt: fc.nat(1e6),
    providerMetadata: fc.constant<JsonObject>({ google: { thoughtSignature: 'c2ln' } }),
  },
  { requiredKeys: [] },
);
const finishedExtrasArb = fc.record(
  { compactedAt: fc.nat(1e6), attachments: fc.array(filePartArb, { minLength: 1, maxLength: 2 }) },
  { requiredKeys: [] },
);
type ToolState =
  | { state: 'pending' | 'running' }
  | { state: 'completed'; output: JsonValue }
  | { state: 'error'; error: string };
const toolStateArb: fc.Arbitrary<ToolState> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      state: fc.constant('completed' as const),
      output: fc.oneof(fc.string({ maxLength: 60 }), jsonValueArb),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ state: fc.constant('error' as const), error: fc.string({ maxLength: 40 }) }),
  },
  { weight: 2, arbitrary: fc.record({ state: fc.constantFrom('pending' as const, 'running' as const) }) },
);

/** Tool parts in every state; finished ones sometimes pruned (compactedAt) or with attachments. */
export const toolPartArb: fc.Arbitrary<ToolPart> = fc
  .tuple(toolBaseArb, toolExtrasArb, toolStateArb, finishedExtrasArb)
  .map(([base, extras, state, finished]): ToolPart => {
    if (state.state === 'pending' || state.state === 'running')
      return { ...base, ...extras, state: state.state };
    return { ...base, ...extras, ...state, ...finished };
  });

export const compactionMarkerPartArb: fc.Arbitrary<CompactionMarkerPart> = fc.record(
  {
    type: fc.constant('compaction' as const),
    auto: fc.boolean(),
    instructions: fc.string({ maxLength: 20 }),
  },
  { requiredKeys: ['type', 'auto'] },
);
