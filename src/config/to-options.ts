import type { BudgetConfig } from '../budget/config.js';
import type { SessionOptions } from '../session/options.js';
import { type PresetName, resolvePresetName } from '../session/preset-names.js';
import type { ConfigIssue } from './issues.js';
import type { ConfigData } from './schema.js';

/** What a configuration file says, in condense's terms; the preset is named, not yet applied. */
export interface ConfigSettings {
  preset?: PresetName;
  options: SessionOptions;
  store: { path?: string };
}

/** A seed's own key and the condense option it sets: giving both is ambiguous, so an error. */
const SAME_SETTING: [seedKey: string[], own: keyof NonNullable<ConfigData['budget']>][] = [
  [['session', 'compactThreshold'], 'threshold'],
  [['compaction', 'auto'], 'auto'],
  [['compaction', 'threshold'], 'absolute'],
];

/**
 * Translates the seed systems' keys into condense options: opencode's `compaction.auto` and
 * `compaction.prune`, Pegasus's `session.compactThreshold`, Mistral Vibe's `compaction.threshold`
 * (0 turns automatic compaction off, as in that system). Contradictions are reported, not resolved.
 */
export function settingsOf(data: ConfigData): ConfigSettings | ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [seedKey, own] of SAME_SETTING) {
    const [section, key] = seedKey as [keyof ConfigData, string];
    const given = (data[section] as Record<string, unknown> | undefined)?.[key];
    if (given !== undefined && data.budget?.[own] !== undefined)
      issues.push({
        path: seedKey,
        reason: `sets the same thing as budget.${own}: keep one of the two`,
      });
  }
  const { auto, prune: pruneOn, threshold: absolute, ...compaction } = data.compaction ?? {};
  if (absolute === 0 && auto === true)
    issues.push({
      path: ['compaction', 'threshold'],
      reason: 'is 0, which turns automatic compaction off, but compaction.auto is true',
    });
  if (pruneOn !== undefined && data.prune !== undefined && (pruneOn === false) !== (data.prune === false))
    issues.push({
      path: ['compaction', 'prune'],
      reason: `is ${pruneOn} but prune is ${data.prune === false ? 'false' : 'a mapping of settings'}`,
    });
  if (issues.length > 0) return issues;

  const budget: Partial<BudgetConfig> = { ...data.budget };
  if (data.session?.compactThreshold !== undefined) budget.threshold = data.session.compactThreshold;
  if (auto !== undefined) budget.auto = auto;
  if (absolute !== undefined) {
    budget.absolute = absolute;
    if (absolute === 0) budget.auto = false;
  }
  // `compaction.prune: true` means on: the preset's rules, or condense's defaults if it has none.
  const prune = pruneOn === false ? false : (data.prune ?? (pruneOn ? {} : undefined));
  const options: SessionOptions = {
    ...(data.model !== undefined ? { model: data.model } : {}),
    ...(data.limits ? { limits: data.limits } : {}),
    ...(Object.keys(budget).length > 0 ? { budget } : {}),
    ...(data.estimator ? { estimator: data.estimator } : {}),
    ...(prune !== undefined ? { prune } : {}),
    ...(Object.keys(compaction).length > 0 ? { compaction } : {}),
    ...(data.checks ? { checks: data.checks } : {}),
    ...(data.background !== undefined ? { background: data.background } : {}),
  };
  return {
    ...(data.preset ? { preset: resolvePresetName(data.preset) } : {}),
    options,
    store: { ...data.store },
  };
}
