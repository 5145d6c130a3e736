import { openSession, presetOptions } from '../session/index.js';
import type { Store } from '../store/store.js';
import { type CommonOptions, int, oneOf, requireSession } from './io.js';
import { PRESET_CHOICES } from './presets.js';

export interface ModelOptions extends CommonOptions {
  model?: string;
  contextWindow?: string;
  preset?: string;
}

/**
 * Opens a session that must already exist, for reading: the preset's budget and layout and the
 * named model's limits apply, but pruning is off so that opening (seed 000 prunes on open) writes nothing.
 */
export async function existingSession(store: Store, id: string, opts: ModelOptions) {
  const preset = opts.preset ? presetOptions(oneOf(opts.preset, PRESET_CHOICES, '--preset')) : {};
  const limits = opts.contextWindow
    ? { contextWindow: int(opts.contextWindow, '--context-window') }
    : preset.limits;
  await requireSession(store, id, opts);
  return openSession(store, id, { ...preset, model: opts.model ?? preset.model, limits, prune: false });
}
