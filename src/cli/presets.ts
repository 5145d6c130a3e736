/**
 * The preset names, for option help and checking. The session layer's PRESET_NAMES would do, but
 * importing it loads the whole session stack (and the AI SDK) at startup, which commands such as
 * `sessions`, `export` and `validate` never need. test/cli checks the two lists stay equal.
 */
export const PRESET_CHOICES = [
  'default',
  'seed-000',
  'seed-001',
  'seed-002',
  'seed-003',
  'seed-004',
] as const;
export type PresetChoice = (typeof PRESET_CHOICES)[number];
