/**
 * Each seed preset also goes by the real system it reproduces; either name selects the same
 * options everywhere a preset is named (presetOptions, the config file's `preset`, --preset).
 */
import { describe, expect, it } from 'vitest';
import { presetChoice } from '../../src/cli/presets.js';
import { PRESET_INPUTS, PRESET_NAMES, presetOptions } from '../../src/session/index.js';
import { PRESET_SYSTEMS, resolvePresetName } from '../../src/session/preset-names.js';
import { load } from '../config/support.js';

const SYSTEMS = [
  ['seed-000', 'qwery'],
  ['seed-001', 'opencode'],
  ['seed-002', 'nexus'],
  ['seed-003', 'pegasus'],
  ['seed-004', 'mistral-vibe'],
] as const;

describe('preset names users know', () => {
  it('one system name per seed preset, none for the default', () => {
    expect(Object.entries(PRESET_SYSTEMS)).toEqual(SYSTEMS);
    expect(PRESET_INPUTS).toEqual([...PRESET_NAMES, ...SYSTEMS.map(([, system]) => system)]);
  });

  it.each(SYSTEMS)(
    '%s and %s are the same preset in presetOptions, the config file and --preset',
    (seed, system) => {
      expect(resolvePresetName(system)).toBe(seed);
      expect(resolvePresetName(seed)).toBe(seed);
      expect(presetOptions(system)).toEqual(presetOptions(seed));
      const [bySystem, bySeed] = [load(`preset: ${system}\n`), load(`preset: ${seed}\n`)];
      expect(bySystem.preset).toBe(seed);
      expect(bySystem.options).toEqual(bySeed.options);
      expect(presetChoice(system)).toBe(seed);
    },
  );

  it('an unknown name is refused with every accepted name listed', () => {
    expect(resolvePresetName('claude-code')).toBeUndefined();
    // @ts-expect-error: not a preset name
    expect(() => presetOptions('claude-code')).toThrow(
      /unknown preset 'claude-code' \(one of default, seed-000, .*opencode/,
    );
    expect(() => presetChoice('seed-9')).toThrow(/--preset must be one of .*mistral-vibe, got 'seed-9'/);
  });
});
