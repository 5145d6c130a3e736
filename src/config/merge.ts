import type { SessionOptions } from '../session/options.js';

const defined = <T extends object>(o: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * `over` on top of `base`, setting by setting: a nested group (budget, limits, checks, compaction
 * and its plan, prune) keeps what `over` does not name, so a file that sets `budget.threshold`
 * keeps the preset's other budget rules. `prune: false` turns pruning off; settings turn it on
 * (likewise `background`).
 * This is the precedence chain's one rule: flags over file over preset over defaults.
 */
export function mergeOptions(base: SessionOptions, over: SessionOptions): SessionOptions {
  const merged: SessionOptions = { ...base, ...defined(over) };
  const group = <K extends 'limits' | 'budget' | 'checks' | 'metadata' | 'hooks' | 'cache'>(key: K) => {
    if (base[key] && over[key]) merged[key] = { ...base[key], ...defined(over[key]) } as SessionOptions[K];
  };
  group('limits');
  group('budget');
  group('checks');
  group('metadata');
  group('hooks');
  group('cache');
  if (base.compaction && over.compaction) {
    const plan =
      base.compaction.plan && over.compaction.plan
        ? { ...base.compaction.plan, ...defined(over.compaction.plan) }
        : (over.compaction.plan ?? base.compaction.plan);
    merged.compaction = { ...base.compaction, ...defined(over.compaction), ...(plan ? { plan } : {}) };
  }
  if (base.prune && over.prune) merged.prune = { ...base.prune, ...defined(over.prune) };
  // The file's `soft` and the program's `queue` combine.
  if (base.background && over.background)
    merged.background = { ...base.background, ...defined(over.background) };
  return merged;
}
