export { CONTINUE_MESSAGE, type CompactionOutcome } from './compaction.js';
export type { SessionEvents } from './events.js';
export { compactionThatSummarized, type ForkMode, planFork } from './fork.js';
export type {
  CheckSettings,
  CompactionSettings,
  PruneSettings,
  SessionHooks,
  SessionOptions,
} from './options.js';
export { PRESET_NAMES, type PresetName, presetOptions } from './presets.js';
export type { PruneOutcome } from './prune.js';
export {
  openSession,
  type Prepared,
  type PrepareInput,
  Session,
  type StepInput,
  type StepResult,
} from './session.js';
