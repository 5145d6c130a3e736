/**
 * The preset names, in a module of their own: the CLI and the config reader check names against
 * them without loading the session stack and the AI SDK at startup.
 */
export const PRESET_NAMES = ['default', 'seed-000', 'seed-001', 'seed-002', 'seed-003', 'seed-004'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * The real system each seed preset reproduces, by the name its users know. The seeds are design
 * documents of these systems: 000 is Qwery's RFC 007 (session compaction and pruning), 001
 * opencode's compaction, 002 the Nexus agent system's compaction turns, 003 Pegasus's session
 * compact, 004 Mistral Vibe's auto-compact (its middleware, prompt and 16-token recount).
 */
export const PRESET_SYSTEMS = {
  'seed-000': 'qwery',
  'seed-001': 'opencode',
  'seed-002': 'nexus',
  'seed-003': 'pegasus',
  'seed-004': 'mistral-vibe',
} as const satisfies Record<Exclude<PresetName, 'default'>, string>;

export type PresetSystemName = (typeof PRESET_SYSTEMS)[keyof typeof PRESET_SYSTEMS];
/** A preset by either of its names: `seed-001` or `opencode`. */
export type PresetInput = PresetName | PresetSystemName;

const BY_SYSTEM = new Map<string, PresetName>(
  Object.entries(PRESET_SYSTEMS).map(([seed, system]) => [system, seed as PresetName]),
);

/** Every accepted preset name: the canonical ones, then the systems' names. */
export const PRESET_INPUTS: readonly PresetInput[] = [...PRESET_NAMES, ...BY_SYSTEM.keys()] as PresetInput[];

/** The canonical name of a preset given by either name; undefined when it names no preset. */
export function resolvePresetName(input: string): PresetName | undefined {
  if ((PRESET_NAMES as readonly string[]).includes(input)) return input as PresetName;
  return BY_SYSTEM.get(input);
}

/**
 * The store a preset's sessions go to where condense picks one for the user (the CLI): Pegasus's
 * agent keeps `current.jsonl` and its timestamped archives, the others a SQLite file.
 */
export function presetStore(name: PresetName | undefined): 'sqlite' | 'jsonl' {
  return name === 'seed-003' ? 'jsonl' : 'sqlite';
}

/** `seed-001 (opencode)`: how help texts and errors list a preset. */
export function describePreset(name: PresetName): string {
  return name === 'default' ? name : `${name} (${PRESET_SYSTEMS[name]})`;
}
