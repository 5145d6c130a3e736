import fc from 'fast-check';
import type { Entry } from '../../src/model/entry.js';
import type { AssistantMessage, UserMessage } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';
import { type PrunableState, type ResolvedPruneOptions, resolvePruneOptions } from '../../src/prune/index.js';
import { type LogItem, log, marker, pivot, summaryMessage, tool, user } from './helpers.js';

const size = fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 2_000, max: 35_000 }));

const toolPart: fc.Arbitrary<ToolPart> = fc
  .record({
    tokens: size,
    name: fc.constantFrom('read', 'bash', 'skill', 'todo'),
    state: fc.constantFrom<ToolPart['state']>(
      'completed',
      'completed',
      'completed',
      'error',
      'pending',
      'running',
    ),
    marked: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    image: fc.boolean(),
  })
  .map(({ tokens, name, state, marked, image }) =>
    tool(tokens, {
      name,
      state,
      ...(marked && (state === 'completed' || state === 'error') ? { compactedAt: 1 } : {}),
      ...(image ? { attachments: [{ type: 'file', mediaType: 'image/png', data: 'AA' }] } : {}),
    }),
  );

const assistantPart: fc.Arbitrary<AssistantMessage['parts'][number]> = fc.oneof(
  { weight: 4, arbitrary: toolPart },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ type: 'text' as const, text })) },
  {
    weight: 1,
    arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ type: 'reasoning' as const, text })),
  },
);

const userMessage: fc.Arbitrary<UserMessage> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(user()) },
  { weight: 1, arbitrary: fc.constant(marker()) },
  { weight: 1, arbitrary: fc.constant(user('Continue', { synthetic: true })) },
);

const item: fc.Arbitrary<LogItem> = fc.oneof(
  { weight: 3, arbitrary: userMessage },
  {
    weight: 10,
    arbitrary: fc
      .array(assistantPart, { minLength: 1, maxLength: 4 })
      .map((parts): AssistantMessage => ({ role: 'assistant', parts })),
  },
  { weight: 1, arbitrary: fc.constantFrom<LogItem>(summaryMessage(), { pivot: pivot() }) },
);

/** Random histories: turns, parallel and unfinished tool calls, errors, marked parts, pivots. */
export const historyArb: fc.Arbitrary<Entry[]> = fc
  .array(item, { minLength: 4, maxLength: 40, size: 'large' })
  .map(log);

/** Tool names the random `isProtected` predicate protects. */
export const protectNames = ['todo'];

export const optionsArb: fc.Arbitrary<ResolvedPruneOptions> = fc
  .record({
    protectTokens: fc.integer({ min: 0, max: 60_000 }),
    minimumTokens: fc.integer({ min: 0, max: 30_000 }),
    protectTurns: fc.integer({ min: 0, max: 3 }),
    turnCounting: fc.constantFrom('real' as const, 'any-user' as const),
    crossing: fc.constantFrom('protect' as const, 'prune' as const),
    onMarked: fc.constantFrom('stop' as const, 'skip' as const),
    onSummary: fc.constantFrom('stop' as const, 'skip' as const),
    minimumComparison: fc.constantFrom('>' as const, '>=' as const),
    mode: fc.constantFrom('hide' as const, 'erase' as const),
    prunableStates: fc.constantFrom<PrunableState[]>(['completed', 'error'], ['completed'], ['error']),
    predicate: fc.boolean(),
  })
  .map(({ predicate, ...o }) =>
    resolvePruneOptions({
      ...o,
      ...(predicate ? { isProtected: (p) => protectNames.includes(p.name) } : {}),
    }),
  );
