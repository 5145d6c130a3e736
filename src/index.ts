// `condense-context`: what an agent calls. Layers' internals (planners, reducers, serializers) stay out of
// the public API; tests import them from their modules. test/packaging pins the runtime names.
// The SQLite store is `condense-context/sqlite`, the JSONL store `condense-context/jsonl`, the AI SDK helpers
// `condense-context/ai-sdk`. Biome keeps these sorted by path.

export type { BudgetConfig, Decision, DecisionReason, LimitKind } from './budget/index.js';
export {
  CompactionError,
  FloorTooLargeError,
  NoProgressError,
  RequestTooLargeError,
} from './compact/errors.js';
export { type ExtractiveOptions, extractiveSummarizer } from './compact/extractive.js';
export type { SummaryRequest } from './compact/input.js';
export { type LlmSummarizerOptions, llmSummarizer } from './compact/llm.js';
export { isContextOverflowError } from './compact/overflow-error.js';
export type { PlanOptions } from './compact/plan.js';
export {
  type SpanSummary,
  type Summarizer,
  SummaryRejectedError,
  type SummaryRejection,
  type SummaryResult,
} from './compact/summarizer.js';
export { CONFIG_FILE_NAMES, type LoadedConfig, loadConfig, mergeOptions } from './config/index.js';
export type { ContextFormat, ContextPayload, ContextPayloads } from './context/index.js';
export type { AnthropicPayload } from './context/serialize/anthropic.js';
export type { GeminiPayload } from './context/serialize/gemini.js';
export type { OpenAIChatMessage } from './context/serialize/openai.js';
export type { SummaryLayout } from './context/summary.js';
export { type Provider, type Violation, validate } from './context/validate.js';
export {
  type CompactionTurn,
  type Coverage,
  type Lineage,
  type NormalTurn,
  NotACompactionError,
  type Turn,
  UnknownTurnError,
} from './lineage/index.js';
export type { CompactionEntry, Entry, MessageEntry, Pivot, PivotDetails } from './model/entry.js';
export { ConfigError, InputError, type InputLocation } from './model/errors.js';
export type { JsonObject, JsonValue } from './model/json.js';
export type {
  AssistantMessage,
  Message,
  MessageMetadata,
  Role,
  SystemMessage,
  UserMessage,
} from './model/message.js';
export type {
  AssistantPart,
  CompactionMarkerPart,
  CompletedToolPart,
  ErroredToolPart,
  FilePart,
  Part,
  ReasoningPart,
  SystemPart,
  TextPart,
  ToolPart,
  ToolState,
  UserPart,
} from './model/parts.js';
export type { Calibration, SessionRecord, SessionState, Usage } from './model/session.js';
export type { PruneOptions } from './prune/options.js';
export type { ArchiveRead, ArchiveRequest, PageLimits } from './recall/archive.js';
export type { HistorySearch, SearchHit } from './recall/search.js';
export { type RecallOptions, type RecallToolSpec, recallToolSpecs } from './recall/tools.js';
export { report } from './report/index.js';
export * from './session/index.js';
// Memory store, the Store interface and its errors (the SQLite store is not in this barrel).
export * from './store/index.js';
export type { TokenEstimate } from './tokens/calibration.js';
export type { Estimator } from './tokens/estimator.js';
export {
  lookupModel,
  type ModelLimits,
  type ModelPrices,
  modelPrices,
  type ResolvedModel,
  registerModel,
} from './tokens/models.js';
export { type NormalizeUsageOptions, normalizeUsage } from './tokens/usage.js';
