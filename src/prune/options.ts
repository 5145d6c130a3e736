import type { MessageEntry } from '../model/entry.js';
import { ConfigError } from '../model/errors.js';
import type { ToolPart } from '../model/parts.js';

/** What a pruned tool output becomes in the model's view (Qwery and opencode, verbatim). */
export const PRUNE_PLACEHOLDER = '[Old tool result content cleared]';

export type PrunableState = 'completed' | 'error';

/**
 * Tool-output pruning ("soft compaction"). Every knob on which Qwery and opencode disagree is an
 * option; `prune: false` is handled by the caller, which then never plans.
 */
export interface PruneOptions {
  /** Newest eligible tool-output tokens kept (Qwery and opencode PROTECT). */
  protectTokens?: number;
  /** Prune only when the prunable total beats this (Qwery and opencode MIN_PRUNE). */
  minimumTokens?: number;
  /**
   * The newest N user turns are never pruned and do not count toward `protectTokens`.
   * A turn is a user message and everything after it; 0 disables the rule (the 000 preset).
   */
  protectTurns?: number;
  /**
   * Which user messages start a turn: 'real' skips synthetic, marker and summary messages (the
   * default); 'any-user' counts every user-role message, as opencode does (001 preset).
   */
  turnCounting?: 'real' | 'any-user';
  /** Tool names never pruned: their output acts as instructions. */
  protectedTools?: string[];
  /** Extra protection decided by the application. */
  isProtected?: (part: ToolPart, entry: MessageEntry) => boolean;
  /** Tool states whose output may be pruned (000 both, 001 completed only). */
  prunableStates?: PrunableState[];
  /**
   * The part whose estimate takes the protected total to the threshold.
   * 'protect' (Qwery): parts are protected while the total is below `protectTokens`, so the part
   * that reaches it (≥) is kept — one huge part is kept whole (overshoot).
   * 'prune' (opencode): the part that takes the total strictly over is pruned.
   */
  crossing?: 'protect' | 'prune';
  /** At a part already marked: 'stop' scanning (001, idempotence boundary) or 'skip' it (000). */
  onMarked?: 'stop' | 'skip';
  /** At a summary or pivot: 'stop' scanning (001) or 'skip' it and scan older entries (000). */
  onSummary?: 'stop' | 'skip';
  /** How the prunable total is compared with `minimumTokens` (both seeds' prose say '>'). */
  minimumComparison?: '>' | '>=';
  /**
   * 'hide' (001, default): only `compactedAt` is set; storage keeps the output, the view shows the
   * placeholder. 'erase' (000): the stored output or error becomes the placeholder and the
   * attachments are cleared, to free storage.
   */
  mode?: 'hide' | 'erase';
  /** Text that stands for a pruned output. */
  placeholder?: string;
}

export type ResolvedPruneOptions = Required<Omit<PruneOptions, 'isProtected'>> &
  Pick<PruneOptions, 'isProtected'>;

/** condense's defaults. */
export const DEFAULT_PRUNE_OPTIONS: ResolvedPruneOptions = {
  protectTokens: 40_000,
  minimumTokens: 20_000,
  protectTurns: 2,
  turnCounting: 'real',
  protectedTools: ['skill'],
  prunableStates: ['completed', 'error'],
  crossing: 'protect',
  onMarked: 'stop',
  onSummary: 'stop',
  minimumComparison: '>',
  mode: 'hide',
  placeholder: PRUNE_PLACEHOLDER,
};

/**
 * Qwery: window filled by tool output only with overshoot, no turn rule (its reference code's
 * last-turn exclusion is an option, off here), errored outputs
 * prunable, marked parts and summaries skipped, '>', stored output erased. Its protected tools:
 * `skill` by name and, as its text says, parts whose type starts with `tool-` (the AI SDK's
 * static tool parts) by prefix; `dynamic-tool` and plain `tool` parts are pruned.
 */
export const PRUNE_SEED_000: PruneOptions = {
  protectTokens: 40_000,
  minimumTokens: 20_000,
  protectTurns: 0,
  turnCounting: 'real',
  protectedTools: ['skill'],
  isProtected: (part) => part.aiSdkKind === 'static',
  prunableStates: ['completed', 'error'],
  crossing: 'protect',
  onMarked: 'skip',
  onSummary: 'skip',
  minimumComparison: '>',
  mode: 'erase',
  placeholder: PRUNE_PLACEHOLDER,
};

/**
 * opencode: last 2 user messages of any kind protected, the
 * crossing part pruned, completed outputs only, stop at marks and at the summary pivot,
 * marks only (the view shows the placeholder).
 */
export const PRUNE_SEED_001: PruneOptions = {
  protectTokens: 40_000,
  minimumTokens: 20_000,
  protectTurns: 2,
  turnCounting: 'any-user',
  protectedTools: ['skill'],
  prunableStates: ['completed'],
  crossing: 'prune',
  onMarked: 'stop',
  onSummary: 'stop',
  minimumComparison: '>',
  mode: 'hide',
  placeholder: PRUNE_PLACEHOLDER,
};

function count(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new ConfigError(`prune.${name} must be a finite number >= 0, got ${value}`);
  }
  return value;
}

/**
 * The default thresholds as shares of the usable budget, so that pruning works in any window: with
 * absolute 40,000 / 20,000, a 32k window never prunes and compaction does all the work. In a 200k
 * window (168k usable) they come to the seeds' values.
 */
export const PROTECT_SHARE = 0.25;
export const MINIMUM_SHARE = 0.125;

/** The default protect and minimum thresholds for a usable budget (null: unlimited, the seeds' values). */
export function scaledPruneThresholds(
  usable: number | null,
): Pick<ResolvedPruneOptions, 'protectTokens' | 'minimumTokens'> {
  if (usable === null || usable <= 0) return { protectTokens: 40_000, minimumTokens: 20_000 };
  return {
    protectTokens: Math.round(usable * PROTECT_SHARE),
    minimumTokens: Math.round(usable * MINIMUM_SHARE),
  };
}

/**
 * Defaults filled in and numbers checked; a bad value is a ConfigError naming the option. With
 * `usable`, thresholds left out scale with it (see PROTECT_SHARE); set ones are kept as given.
 */
export function resolvePruneOptions(
  partial: PruneOptions = {},
  usable?: number | null,
): ResolvedPruneOptions {
  const defined = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined));
  const scaled = usable === undefined ? {} : scaledPruneThresholds(usable);
  const o: ResolvedPruneOptions = { ...DEFAULT_PRUNE_OPTIONS, ...scaled, ...defined };
  count('protectTokens', o.protectTokens);
  count('minimumTokens', o.minimumTokens);
  if (!Number.isInteger(o.protectTurns) || o.protectTurns < 0) {
    throw new ConfigError(`prune.protectTurns must be an integer >= 0, got ${o.protectTurns}`);
  }
  return { ...o, protectedTools: [...o.protectedTools], prunableStates: [...o.prunableStates] };
}
