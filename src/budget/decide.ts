import type { Usage } from '../model/session.js';
import type { TokenEstimate } from '../tokens/calibration.js';
import { type BudgetConfig, type LimitKind, type ResolvedBudget, resolveBudget } from './config.js';

export type DecisionReason =
  | 'disabled'
  | 'unlimited'
  | 'under-limit'
  | 'over-usable'
  | 'over-threshold'
  | 'over-absolute'
  | 'over-reserve';

/** A trigger decision with every number it was made from, for logs, events and tests. */
export interface Decision {
  compact: boolean;
  reason: DecisionReason;
  /** The tokens compared. */
  tokens: number;
  /** The limit they were compared with (the smallest enabled one); null when nothing can trigger. */
  limit: number | null;
  limitKind: LimitKind | null;
  usable: number | null;
  contextWindow: number;
  comparison: '>' | '>=';
  source: 'usage' | 'estimate';
  /** Every enabled limit, so a log shows which others were near. */
  limits: Partial<Record<LimitKind, number>>;
  /** After a step: the usage counted. */
  usage?: Usage;
  /** Before a turn: the estimate counted. */
  estimate?: TokenEstimate;
}

export interface AfterStepOptions {
  /**
   * Count the step's output with its prompt (default true: opencode's input + cache.read +
   * output, cache.read being inside inputTotal after normalization; Mistral Vibe's prompt +
   * completion). False counts the prompt only.
   */
  countOutput?: boolean;
  /**
   * Count prompt tokens written to the provider's cache (default true: they are in the prompt).
   * Qwery and opencode count input + cache read + output only.
   */
  countCacheWrite?: boolean;
  /**
   * Count the reasoning share of the output (default false). Providers mostly do not resend a
   * turn's reasoning with the next prompt, so it does not fill the window (Qwery: "not
   * included"; opencode counts output text). Mistral Vibe's completion tokens include it (true).
   */
  countReasoning?: boolean;
}

function resolved(budget: ResolvedBudget | BudgetConfig): ResolvedBudget {
  return 'resolved' in budget && budget.resolved === true ? budget : resolveBudget(budget);
}

function decide(
  tokens: number,
  b: ResolvedBudget,
  source: Decision['source'],
  extra: Pick<Decision, 'usage' | 'estimate'>,
): Decision {
  const numbers = {
    tokens,
    limit: b.limit,
    limitKind: b.limitKind,
    usable: b.usable,
    contextWindow: b.contextWindow,
    comparison: b.comparison,
    source,
    limits: b.limits,
    ...extra,
  };
  if (b.off === 'unlimited') return { ...numbers, compact: false, reason: 'unlimited' };
  if (b.off === 'disabled' || b.limit === null || b.limitKind === null) {
    return { ...numbers, compact: false, reason: 'disabled' };
  }
  const over = b.comparison === '>=' ? tokens >= b.limit : tokens > b.limit;
  return { ...numbers, compact: over, reason: over ? `over-${b.limitKind}` : 'under-limit' };
}

/** After a model step, from the usage the provider reported (Qwery, opencode and Mistral Vibe). */
export function afterStepDecision(
  usage: Usage,
  budget: ResolvedBudget | BudgetConfig,
  opts: AfterStepOptions = {},
): Decision {
  const prompt = usage.inputTotal - (opts.countCacheWrite === false ? usage.cacheWrite : 0);
  const output = usage.output - (opts.countReasoning === true ? 0 : usage.reasoning);
  const tokens = prompt + (opts.countOutput === false ? 0 : output);
  return decide(tokens, resolved(budget), 'usage', { usage });
}

/** Before a model call, from the hybrid estimate of the next prompt (Pegasus and Mistral Vibe). */
export function beforeTurnDecision(
  estimate: TokenEstimate | number,
  budget: ResolvedBudget | BudgetConfig,
): Decision {
  if (typeof estimate === 'number') return decide(estimate, resolved(budget), 'estimate', {});
  return decide(estimate.tokens, resolved(budget), 'estimate', { estimate });
}
