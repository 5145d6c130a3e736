import { z } from 'zod';
import type { SummaryLayout } from '../context/summary.js';
import type { PrunableState } from '../prune/options.js';
import { PRESET_INPUTS } from '../session/preset-names.js';

/**
 * The shape of `condense.config.json` / `.yaml`: condense's own options (the plain-data part of
 * `openSession`'s) plus each seed system's own keys, as those systems write them. Every object is
 * strict: an unknown key is an error, not a silently ignored setting.
 */

/** A whole number ≥ 0, with one message for every way of not being one. */
const whole = (error: string) => z.number({ error }).int({ error }).nonnegative({ error });
const tokens = (note = '') => whole(`must be a whole number of tokens ≥ 0${note}`);
const count = () => whole('must be a whole number ≥ 0');
const fraction = (error: string, above: 'gt' | 'gte') =>
  (above === 'gt' ? z.number({ error }).gt(0, { error }) : z.number({ error }).min(0, { error })).max(1, {
    error,
  });

/** Keys of a record typed over a union: the compiler checks the list is complete and exact. */
const keysOf = <T extends string>(record: Record<T, true>) => Object.keys(record) as [T, ...T[]];

const LAYOUTS = keysOf<SummaryLayout>({
  user: true,
  'user-plain': true,
  assistant: true,
  system: true,
  'question+assistant': true,
});
const SOFT = 'must be a share of the compaction trigger in (0, 1) (0.6 = prepare a summary at 60%)';
const PRUNABLE = keysOf<PrunableState>({ completed: true, error: true });

const limits = z.strictObject({
  contextWindow: tokens(' (0 = unlimited)').optional(),
  maxOutput: tokens().optional(),
  inputLimit: tokens().optional(),
});

const budget = z.strictObject({
  threshold: fraction(
    'must be a fraction of the context window in [0, 1] (0 turns it off)',
    'gte',
  ).optional(),
  outputCap: tokens().optional(),
  absolute: tokens(' (0 = off)').optional(),
  reserve: tokens(' (0 = off)').optional(),
  auto: z.boolean().optional(),
  usableLimit: z.boolean().optional(),
  comparison: z.enum(['>', '>=']).optional(),
  maxRequestBytes: z
    .number()
    .int()
    .nonnegative({ message: 'must be a non-negative number of bytes (0 = off)' })
    .optional(),
});

const pruneSettings = z.strictObject({
  protectTokens: tokens().optional(),
  minimumTokens: tokens().optional(),
  protectTurns: count().optional(),
  turnCounting: z.enum(['real', 'any-user']).optional(),
  protectedTools: z.array(z.string()).optional(),
  prunableStates: z.array(z.enum(PRUNABLE)).optional(),
  crossing: z.enum(['protect', 'prune']).optional(),
  onMarked: z.enum(['stop', 'skip']).optional(),
  onSummary: z.enum(['stop', 'skip']).optional(),
  minimumComparison: z.enum(['>', '>=']).optional(),
  mode: z.enum(['hide', 'erase']).optional(),
  placeholder: z.string().optional(),
  when: z.enum(['turn', 'open']).optional(),
});

const compaction = z.strictObject({
  /** opencode's `compaction.auto` (default true): automatic compaction on overflow. */
  auto: z.boolean().optional(),
  /** opencode's `compaction.prune` (default true): tool-output pruning. */
  prune: z.boolean().optional(),
  /** Mistral Vibe's `compaction.threshold`: compact at this many tokens; 0 turns auto compaction off. */
  threshold: tokens(' (0 turns automatic compaction off)').optional(),
  plan: z
    .strictObject({
      keepTurns: count().optional(),
      keepTokens: tokens().optional(),
      minKeepLatestTurn: z.boolean().optional(),
      keepNone: z.boolean().optional(),
    })
    .optional(),
  summaryAs: z.enum(LAYOUTS).optional(),
  summaryTokens: tokens().optional(),
  targetTokens: tokens().optional(),
  gate: z.boolean().optional(),
  fallback: z.boolean().optional(),
  continueMessage: z
    .union([z.boolean(), z.string()], {
      error: 'must be true, false, or the text of the message',
    })
    .optional(),
  instructions: z.string().optional(),
  // The policies the presets set (SessionOptions' compaction settings of the same names).
  summaryCall: z
    .strictObject({
      system: z.string().min(1, { error: "must be the call's system prompt, or 'agent'" }),
      prompt: z.string().optional(),
      clean: z.boolean().optional(),
    })
    .optional(),
  appendix: z.boolean().optional(),
  markerQuestion: z.string().optional(),
  recordTask: z.boolean().optional(),
  maxFailures: z
    .number({ error: 'must be a whole number ≥ 1' })
    .int({ error: 'must be a whole number ≥ 1' })
    .min(1, { error: 'must be a whole number ≥ 1' })
    .optional(),
});

export const configSchema = z.strictObject({
  preset: z.enum(PRESET_INPUTS as [string, ...string[]]).optional(),
  model: z.string().min(1, { error: 'must be a model id, e.g. claude-sonnet-4-5' }).optional(),
  limits: limits.optional(),
  budget: budget.optional(),
  estimator: z.enum(['heuristic', 'exact']).optional(),
  prune: z
    .union([z.literal(false), pruneSettings], {
      error: 'must be false (no pruning) or a mapping of pruning settings',
    })
    .optional(),
  compaction: compaction.optional(),
  checks: z
    .strictObject({
      afterStep: z.boolean().optional(),
      beforeTurn: z.boolean().optional(),
      countOutput: z.boolean().optional(),
      countCacheWrite: z.boolean().optional(),
      countReasoning: z.boolean().optional(),
      atOpen: z.boolean().optional(),
      estimate: z.enum(['calibrated', 'local']).optional(),
    })
    .optional(),
  background: z
    .union(
      [
        z.literal(false),
        z.strictObject({
          soft: z.number({ error: SOFT }).gt(0, { error: SOFT }).lt(1, { error: SOFT }).optional(),
        }),
      ],
      { error: 'must be false or a mapping with soft (a share of the compaction trigger in (0, 1))' },
    )
    .optional(),
  cache: z
    .strictObject({
      breakpoints: z.boolean().optional(),
      costAware: z.boolean().optional(),
      ttlMinutes: z
        .number({ error: 'must be a number of minutes > 0' })
        .gt(0, { error: 'must be a number of minutes > 0' })
        .optional(),
    })
    .optional(),
  /** Pegasus's `session.compactThreshold`. */
  session: z
    .strictObject({
      compactThreshold: fraction(
        'must be a fraction of the context window in (0, 1] (0.8 = compact above 80%)',
        'gt',
      ).optional(),
    })
    .optional(),
  store: z.strictObject({ path: z.string().min(1, { error: 'must be a file path' }).optional() }).optional(),
});

export type ConfigData = z.infer<typeof configSchema>;
