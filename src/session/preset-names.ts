/**
 * The preset names, in a module of their own: the CLI checks options against them without
 * loading the session stack and the AI SDK at startup.
 */
export const PRESET_NAMES = ['default', 'seed-000', 'seed-001', 'seed-002', 'seed-003', 'seed-004'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];
