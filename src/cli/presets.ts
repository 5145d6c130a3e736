import {
  describePreset,
  PRESET_INPUTS,
  PRESET_NAMES,
  type PresetName,
  resolvePresetName,
} from '../session/preset-names.js';

/** Preset names for option help and checking, without loading the session stack. */
export { PRESET_INPUTS as PRESET_CHOICES, type PresetName as PresetChoice };

/** `default | seed-000 (qwery) | …`: both names of each preset, for help texts. */
export const PRESET_HELP = PRESET_NAMES.map(describePreset).join(' | ');

/** A preset named on the command line (either name), as its canonical name. */
export function presetChoice(value: string, flag = '--preset'): PresetName {
  const name = resolvePresetName(value);
  if (!name) throw new Error(`${flag} must be one of ${PRESET_INPUTS.join(', ')}, got '${value}'`);
  return name;
}
