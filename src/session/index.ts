// The session layer's public face; the root entry re-exports it whole.
export type { PrefixBasis, PreparedSummary, SummaryJob } from './background/job.js';
export {
  type CompactionQueue,
  type InProcessQueueOptions,
  inProcessQueue,
  type JobOutcome,
} from './background/queue.js';
export type { CompactionOutcome } from './compaction.js';
export type { DiscardReason, SessionEvents } from './events.js';
export type { ForkMode } from './fork.js';
export type { SessionHandle } from './handle.js';
export type {
  BackgroundSettings,
  CheckSettings,
  CompactionSettings,
  PruneSettings,
  SessionHooks,
  SessionOptions,
  SummaryContext,
} from './options.js';
export { EmptyContextError } from './prepare.js';
export { PRESET_INPUTS, type PresetInput, type PresetSystemName } from './preset-names.js';
export { PRESET_NAMES, type PresetName, presetOptions } from './presets.js';
export type { PruneOutcome } from './prune.js';
export {
  openSession,
  type Prepared,
  type PrepareInput,
  Session,
  type SessionStart,
  type StepInput,
  type StepResult,
  type ToolResult,
} from './session.js';
export { WindowNotHeldError } from './window-read.js';
