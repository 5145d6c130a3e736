/**
 * fast-check arbitraries for condense's data: random but schema-valid messages, histories and
 * entry logs (with pivots). Shared by every area's property tests, so they deliberately produce the
 * awkward cases too: empty and whitespace texts, reasoning with and without signatures, files by
 * data and by URL, parallel / interrupted / failed / pruned tool calls, repeated call ids (tau-bench
 * reuses them), consecutive same-role messages, system and summary messages.
 */
import fc from 'fast-check';
import { buildCompactionEntry, buildMessageEntry } from '../../src/model/build.js';
import type { Entry, Pivot } from '../../src/model/entry.js';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import type { AssistantMessage, Message, SystemMessage, UserMessage } from '../../src/model/message.js';
import type {
  AssistantPart,
  CompactionMarkerPart,
  FilePart,
  ReasoningPart,
  TextPart,
  ToolPart,
  UserPart,
} from '../../src/model/parts.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';

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

/** Text including the empty and whitespace-only strings providers reject. */
export const textArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\t') },
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
    type: fc.constant('compaction-marker' as const),
    auto: fc.boolean(),
    instructions: fc.string({ maxLength: 20 }),
  },
  { requiredKeys: ['type', 'auto'] },
);

const metadataArb = fc.option(
  fc.oneof(
    fc.constant<JsonObject>({ synthetic: true }),
    fc.constant<JsonObject>({ finish: 'stop' }),
    fc.constant<JsonObject>({ summary: true }),
  ),
  { nil: undefined },
);
const withMetadata = <M extends Message>(m: M, metadata: JsonObject | undefined): M =>
  metadata === undefined ? m : { ...m, metadata };

export const systemMessageArb: fc.Arbitrary<SystemMessage> = fc
  .array(textPartArb, { minLength: 1, maxLength: 2 })
  .map((parts) => ({ role: 'system', parts }));

export const userMessageArb: fc.Arbitrary<UserMessage> = fc
  .tuple(
    fc.array(
      fc.oneof<fc.MaybeWeightedArbitrary<UserPart>[]>(
        { weight: 6, arbitrary: textPartArb },
        { weight: 2, arbitrary: filePartArb },
        { weight: 1, arbitrary: compactionMarkerPartArb },
      ),
      { maxLength: 3 },
    ),
    metadataArb,
  )
  .map(([parts, metadata]) => withMetadata({ role: 'user', parts }, metadata));

export const assistantMessageArb: fc.Arbitrary<AssistantMessage> = fc
  .tuple(
    fc.array(
      fc.oneof<fc.MaybeWeightedArbitrary<AssistantPart>[]>(
        { weight: 4, arbitrary: textPartArb },
        { weight: 2, arbitrary: reasoningPartArb },
        { weight: 1, arbitrary: filePartArb },
        { weight: 4, arbitrary: toolPartArb },
      ),
      { maxLength: 5 },
    ),
    fc.option(
      fc.oneof(
        fc.constant<JsonObject>({ finish: 'tool-calls' }),
        fc.constant<JsonObject>({ error: 'APIError: overloaded' }),
        fc.constant<JsonObject>({ summary: true }),
      ),
      { nil: undefined },
    ),
  )
  .map(([parts, metadata]) => withMetadata({ role: 'assistant', parts }, metadata));

/** One message of any role; assistant and user dominate as in real sessions. */
export const messageArb: fc.Arbitrary<Message> = fc.oneof(
  { weight: 4, arbitrary: userMessageArb },
  { weight: 6, arbitrary: assistantMessageArb },
  { weight: 1, arbitrary: systemMessageArb },
);

export interface HistoryOptions {
  maxLength?: number;
  /** Start with a system message, as agent logs often do. Default: sometimes. */
  leadingSystem?: boolean;
}

/** A random history: any order of roles, consecutive same-role turns included. */
export function historyArb(opts: HistoryOptions = {}): fc.Arbitrary<Message[]> {
  const body = fc.array(messageArb, { maxLength: opts.maxLength ?? 12 });
  const lead: fc.Arbitrary<SystemMessage | undefined> =
    opts.leadingSystem === undefined
      ? fc.option(systemMessageArb, { nil: undefined })
      : opts.leadingSystem
        ? systemMessageArb
        : fc.constant(undefined);
  return fc.tuple(lead, body).map(([sys, rest]) => (sys === undefined ? rest : [sys, ...rest]));
}

/** A compaction to insert: after `at` messages, keeping the last `keep` of them verbatim. */
interface CompactionPlan {
  at: number;
  keep: number;
  withMarker: boolean;
  summary: string;
}

const planArb = fc.record({
  at: fc.nat(),
  keep: fc.nat(),
  withMarker: fc.boolean(),
  summary: fc.string({ minLength: 1, maxLength: 60 }),
});

export interface EntryLogOptions extends HistoryOptions {
  maxCompactions?: number;
  sessionId?: string;
}

/**
 * A session log: message entries with 0..n compaction entries (pivots) interleaved, seq and parent
 * chain consistent, each pivot pointing at entries that exist (firstKeptId null or inside the log,
 * optional answered marker message just before it, previousPivotId chained).
 */
export function entryLogArb(opts: EntryLogOptions = {}): fc.Arbitrary<Entry[]> {
  return fc
    .tuple(historyArb(opts), fc.array(planArb, { maxLength: opts.maxCompactions ?? 3 }))
    .map(([messages, plans]) => assembleLog(messages, plans, opts.sessionId ?? 'prop'));
}

function assembleLog(messages: Message[], plans: CompactionPlan[], sessionId: string): Entry[] {
  const estimator = heuristicEstimator();
  const cuts = new Map<number, CompactionPlan>();
  for (const p of plans) if (messages.length > 0) cuts.set(1 + (p.at % messages.length), p);
  const log: Entry[] = [];
  const messageIds: string[] = [];
  let previousPivotId: string | null = null;
  let minKeptIndex = 0;
  const place = () => ({
    sessionId,
    seq: log.length,
    parentId: log.at(-1)?.id ?? null,
    id: `e${log.length}`,
  });
  const pushMessage = (m: Message) => {
    const entry = buildMessageEntry(m, place(), estimator);
    log.push(entry);
    messageIds.push(entry.id);
    return entry.id;
  };
  messages.forEach((m, i) => {
    pushMessage(m);
    const plan = cuts.get(i + 1);
    if (plan === undefined) return;
    const markerId = plan.withMarker
      ? pushMessage({ role: 'user', parts: [{ type: 'compaction-marker', auto: true }] })
      : undefined;
    // Kept messages come from this compaction's own span: after what earlier pivots kept.
    const before = messageIds.length - (markerId ? 1 : 0);
    const span = before - minKeptIndex;
    const keep = span <= 1 ? 0 : plan.keep % span;
    const firstKeptIndex = keep === 0 ? null : before - keep;
    const throughIndex = (firstKeptIndex ?? before) - 1;
    const pivot: Pivot = {
      summary: plan.summary,
      summarizedThroughId: messageIds[Math.max(0, throughIndex)]!,
      firstKeptId: firstKeptIndex === null ? null : messageIds[firstKeptIndex]!,
      tokensBefore: 1000,
      tokensAfter: 100,
      auto: true,
      summarizer: 'extractive',
      details: { filesRead: [], filesModified: [] },
      previousPivotId,
      ...(markerId ? { markerId } : {}),
    };
    const entry = buildCompactionEntry(pivot, place(), estimator);
    log.push(entry);
    previousPivotId = entry.id;
    minKeptIndex = firstKeptIndex ?? messageIds.length;
  });
  return log;
}
