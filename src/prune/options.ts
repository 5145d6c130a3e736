import type { MessageEntry } from '../model/entry.js';
import { ConfigError } from '../model/errors.js';
import type { ToolPart } from '../model/parts.js';

/** What a pruned tool output becomes in the model's view (seeds 000 and 001, verbatim). */
export const PRUNE_PLACEHOLDER = '[Old tool result content cleared]';

export type PrunableState = 'completed' | 'error';

/**
 * Tool-output pruning ("soft compaction"). Every knob on which seeds 000 and 001 disagree is an
 * option (SEED-READINGS C-09..C-16); `prune: false` is handled by the caller, which then never plans.
 */
export interface PruneOptions {
  /** Newest eligible tool-output tokens kept (seed 000/001 PROTECT). */
  protectTokens?: number;
  /** Prune only when the prunable total beats this (seed 000/001 MIN_PRUNE). */
  minimumTokens?: number;
  /**
   * The newest N user turns are never pruned and do not count toward `protectTokens` (A001-04).
   * A turn is a user message and everything after it; 0 disables the rule (the 000 preset).
   */
  protectTurns?: number;
  /**
   * Which user messages start a turn: 'real' skips synthetic, marker and summary messages (the
   * default); 'any-user' counts every user-role message, as opencode does (001 preset).
   */
  turnCounting?: 'real' | 'any-user';
  /** Tool names never pruned: their output acts as instructions (C-16). */
  protectedTools?: string[];
  /** Extra protection decided by the application. */
  isProtected?: (part: ToolPart, entry: MessageEntry) => boolean;
  /** Tool states whose output may be pruned (C-15: 000 both, 001 completed only). */
  prunableStates?: PrunableState[];
  /**
   * The part whose estimate takes the protected total to the threshold (C-11).
   * 'protect' (seed 000): parts are protected while the total is below `protectTokens`, so the part
   * that reaches it (≥) is kept — one huge part is kept whole (overshoot).
   * 'prune' (seed 001, A001-05): the part that takes the total strictly over is pruned.
   */
  crossing?: 'protect' | 'prune';
  /** At a part already marked: 'stop' scanning (001, idempotence boundary) or 'skip' it (000, C-13). */
  onMarked?: 'stop' | 'skip';
  /** At a summary or pivot: 'stop' scanning (001) or 'skip' it and scan older entries (000, C-14). */
  onSummary?: 'stop' | 'skip';
  /** How the prunable total is compared with `minimumTokens` (C-12; both seeds' prose say '>'). */
  minimumComparison?: '>' | '>=';
  /**
   * 'hide' (001, default): only `compactedAt` is set; storage keeps the output, the view shows the
   * placeholder. 'erase' (000, C-09): the stored output or error becomes the placeholder and the
   * attachments are cleared (A000-14), to free storage.
   */
  mode?: 'hide' | 'erase';
  /** Text that stands for a pruned output. */
  placeholder?: string;
}

export type ResolvedPruneOptions = Required<Omit<PruneOptions, 'isProtected'>> &
  Pick<PruneOptions, 'isProtected'>;

/** condense's defaults (DESIGN "Defaults": Pruning). */
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
 * Seed 000: window filled by tool output only (A000-02) with overshoot (A000-03), no turn rule
 * (A000-02 keeps the reference's last-turn exclusion as an option, off here), errored outputs
 * prunable, marked parts and summaries skipped, '>' (A000-04), stored output erased (C-09).
 */
export const PRUNE_SEED_000: PruneOptions = {
  protectTokens: 40_000,
  minimumTokens: 20_000,
  protectTurns: 0,
  turnCounting: 'real',
  protectedTools: ['skill'],
  prunableStates: ['completed', 'error'],
  crossing: 'protect',
  onMarked: 'skip',
  onSummary: 'skip',
  minimumComparison: '>',
  mode: 'erase',
  placeholder: PRUNE_PLACEHOLDER,
};

/**
 * Seed 001 §5.1 as opencode does it: last 2 user messages of any kind protected (A001-04), the
 * crossing part pruned (A001-05), completed outputs only, stop at marks and at the summary pivot,
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
