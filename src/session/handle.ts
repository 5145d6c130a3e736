import type { ContextFormat, IncrementalContext } from '../context/index.js';
import type { Lineage, Turn } from '../lineage/index.js';
import type { Entry, MessageEntry } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import type { SessionRecord } from '../model/session.js';
import type { ChannelEvent, StoredEvent } from '../store/events.js';
import type { TokenEstimate } from '../tokens/index.js';
import type { AppendInput } from './append.js';
import type { CompactionOutcome } from './commit.js';
import type { Emitter, SessionEvents } from './events.js';
import type { ForkMode } from './fork.js';
import type { Log } from './log.js';
import type { Prepared, PrepareInput } from './prepare.js';
import type { PruneOutcome } from './prune.js';
import type { ResolvedSession } from './resolve.js';
import type { SessionStart } from './start.js';
import type { StepInput, StepResult, ToolResult } from './steps.js';

/**
 * A session as the code built on it drives one: what `openSession()` returns, as an interface.
 * The integrations, the recall tools, the report and the CLI take this, never the `Session` class,
 * so that nothing above the session layer depends on how a session is put together. The methods
 * are documented on the class (session.ts).
 */
export interface SessionHandle {
  readonly id: string;
  readonly interactionId: string;
  readonly record: SessionRecord;
  readonly config: ResolvedSession;
  readonly log: Log;
  readonly events: Emitter<SessionEvents>;
  readonly opened: SessionStart;
  /** Raw tokens of the system prompt and tools as last sent. */
  readonly overheadRaw: number;
  on<K extends keyof SessionEvents>(event: K, listener: (payload: SessionEvents[K]) => void): () => void;
  activeEntries(): Entry[];
  loadWindow(): Promise<void>;
  append(
    input: AppendInput | readonly AppendInput[],
    opts?: { cursor?: JsonValue; expectCursor?: JsonValue },
  ): Promise<MessageEntry[]>;
  recordStep(step: StepInput): Promise<StepResult>;
  recordToolResult(callId: string, result: ToolResult): Promise<void>;
  recordError(
    error: unknown,
  ): Promise<{ overflow: boolean; retry: boolean; compaction: CompactionOutcome | null }>;
  estimate(): TokenEstimate;
  requestBytes(): number;
  prepare<F extends ContextFormat = 'ai-sdk'>(input?: PrepareInput<F>): Promise<Prepared<F>>;
  context<F extends ContextFormat>(format: F): IncrementalContext<F>;
  compact(opts?: {
    instructions?: string;
    auto?: boolean;
    markerId?: string;
    signal?: AbortSignal;
    targetTokens?: number;
  }): Promise<CompactionOutcome>;
  runMarker(markerId: string, signal?: AbortSignal): Promise<CompactionOutcome>;
  prune(opts?: { dryRun?: boolean; batch?: boolean }): Promise<PruneOutcome | null>;
  fork(newId: string, opts?: { at?: string; mode?: ForkMode }): Promise<SessionHandle>;
  history(): Promise<Entry[]>;
  quoteEvents(
    events: ChannelEvent | readonly ChannelEvent[],
    opts?: { format?: (event: StoredEvent) => string },
  ): Promise<{ events: StoredEvent[]; entry: MessageEntry }>;
  lineage(): Promise<Lineage>;
  turns(): Promise<Turn[]>;
  turn(id: string): Promise<Turn>;
}
