import type { LanguageModel } from 'ai';
import { mergeOptions } from '../config/merge.js';
import { openSession, presetOptions, type SessionOptions } from '../session/index.js';
import type { Store } from '../store/store.js';
import { fallbackWindowMessage } from '../tokens/models.js';
import { type CommonOptions, chosenPreset, cliConfig, int, requireSession } from './io.js';

export interface ModelOptions extends CommonOptions {
  model?: string;
  contextWindow?: string;
  preset?: string;
}

/**
 * A command's session options: its flags over the configuration file over the preset over
 * condense's defaults. `summarizerModel` gives a preset its seed's own prompt and recount.
 */
export async function commandOptions(
  opts: CommonOptions & { preset?: string },
  flags: SessionOptions,
  extra: { summarizerModel?: LanguageModel } = {},
): Promise<SessionOptions> {
  const preset = await chosenPreset(opts);
  const base = preset ? presetOptions(preset, extra) : {};
  return mergeOptions(mergeOptions(base, (await cliConfig(opts)).options), flags);
}

/** `--model` and `--context-window`, as options. */
export function modelFlags(opts: ModelOptions): SessionOptions {
  return {
    ...(opts.model ? { model: opts.model } : {}),
    ...(opts.contextWindow ? { limits: { contextWindow: int(opts.contextWindow, '--context-window') } } : {}),
  };
}

/**
 * Opens a session that must already exist, for reading: the preset's and the configuration's
 * budget and layout and the model's limits apply, but pruning is off so that opening (Qwery
 * prunes on open) writes nothing.
 */
export async function existingSession(store: Store, id: string, opts: ModelOptions) {
  // Nor Qwery's overflow check at open, which would compact.
  const options = await commandOptions(opts, {
    ...modelFlags(opts),
    prune: false,
    checks: { atOpen: false },
  });
  await requireSession(store, id, opts);
  const session = warnFallback(await openSession(store, id, options));
  // Inspecting shows the whole window, even one too large to hold until it is compacted.
  await session.loadWindow();
  return session;
}

/** Says once on stderr that the model's window is a guess: every figure after it rests on it. */
export function warnFallback<
  S extends { config: { windowFallback: boolean; model: string; budget: { contextWindow: number } } },
>(session: S): S {
  const { windowFallback, model, budget } = session.config;
  if (windowFallback)
    process.stderr.write(`condense: warning: ${fallbackWindowMessage(model, budget.contextWindow)}\n`);
  return session;
}
