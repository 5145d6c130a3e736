import type { BudgetConfig } from './config.js';

/** The budget part of each seed's behaviour; the window and output limits come from the model. */
export type BudgetPresetName = 'default' | '000' | '001' | '002' | '003' | '004';

type BudgetPolicy = Omit<BudgetConfig, 'contextWindow' | 'maxOutput' | 'inputLimit'>;

export const BUDGET_PRESETS: Readonly<Record<BudgetPresetName, Readonly<BudgetPolicy>>> = {
  /** condense: 0.8 of the window or the usable budget, whichever comes first, strict >. */
  default: { threshold: 0.8, usableLimit: true, comparison: '>' },
  /** Qwery with opencode's usable formula, cap 32,000, strict >. */
  '000': { threshold: 0, usableLimit: true, comparison: '>' },
  /** 001: usable = inputLimit ?? window − min(maxOutput, 32,000), strict >. */
  '001': { threshold: 0, usableLimit: true, comparison: '>' },
  /** 002: contextTokensUsed > window − 20,000. */
  '002': { threshold: 0, usableLimit: false, reserve: 20_000, comparison: '>' },
  /** 003: estimate > window × compactThreshold (0.8); no off switch, so 0 compacts at every call. */
  '003': { threshold: 0.8, usableLimit: false, comparison: '>', thresholdZero: 'limit' },
  /** 004: ContextTokens ≥ 200,000; threshold 0 disables. */
  '004': { threshold: 0, usableLimit: false, absolute: 200_000, comparison: '>=' },
};

/** A budget config for a model's limits under a preset, with caller settings on top. */
export function budgetFromPreset(
  name: BudgetPresetName,
  model: Pick<BudgetConfig, 'contextWindow' | 'maxOutput' | 'inputLimit'>,
  overrides: Partial<BudgetConfig> = {},
): BudgetConfig {
  return { ...BUDGET_PRESETS[name], ...model, ...overrides };
}
