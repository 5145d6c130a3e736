/** The preset names for option help and checking, without loading the session stack. */
export { PRESET_NAMES as PRESET_CHOICES, type PresetName as PresetChoice } from '../session/preset-names.js';
