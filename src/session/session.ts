import { afterStepDecision, type Decision } from '../budget/index.js';
import { isContextOverflowError, overflowPromptTokens } from '../compact/index.js';
import type { ContextFormat } from '../context/index.js';
import type { Entry, MessageEntry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import type { SessionRecord } from '../model/session.js';
import { parseMessage } from '../model/validate.js';
import type { Store } from '../store/store.js';
import { hybridEstimate, type TokenEstimate } from '../tokens/index.js';
import { type CompactionOutcome, runCompaction } from './compaction.js';
import { appendWrite } from './entries.js';
import { Emitter, type SessionEvents } from './events.js';
import { type ForkMode, planFork, writeFork } from './fork.js';
import { Log } from './log.js';
import type { SessionOptions } from './options.js';
import { AutoCompactionGuard, type Prepared, type PrepareInput, prepareTurn } from './prepare.js';
import { type PruneOutcome, runPrune } from './prune.js';
import { overheadOf, type ResolvedSession, resolveSession } from './resolve.js';
import {
  parseStep,
  reportedPromptWrite,
  type SentFigures,
  type StepInput,
  type StepResult,
  stepWrite,
  type ToolResult,
  toolResultWrite,
} from './steps.js';

/** The orchestrator an agent calls around each model call: append, recordStep, prepare. */
export class Session {
  readonly events = new Emitter<SessionEvents>();
  /** Raw log tokens and overhead of the last context handed out, to calibrate against usage. */
  private lastPrepared: SentFigures | null = null;
  private overflowRetried = false;
  /** Keeps a compaction that would only fail again from being retried every turn. */
  readonly guard = new AutoCompactionGuard();
  /** Raw tokens of the system prompt and tools as last sent (prepare() may override the options'). */
  overheadRaw: number;
  /** The system prompt and tools as last sent: a recount after compaction counts the same. */
  sentContext: { system?: string; tools?: unknown };
  /** The unpruned tool-output total and log position at which a batched prune check found nothing. */
  pruneCheckedAt: { total: number; nextSeq: number } | null = null;

  private constructor(
    readonly log: Log,
    readonly config: ResolvedSession,
    private readonly options: SessionOptions,
  ) {
    this.overheadRaw = config.overheadRaw;
    this.sentContext = { system: config.system, tools: config.tools };
  }

  static async open(store: Store, id: string, options: SessionOptions = {}): Promise<Session> {
    // Configuration is checked before anything is written: a bad one creates no session.
    const stored = ((await store.getSession(id))?.metadata ?? options.metadata)?.system;
    const config = resolveSession(options, typeof stored === 'string' ? stored : undefined);
    const log = await Log.open(store, id, config.now, options.metadata);
    const session = new Session(log, config, options);
    if (config.prune?.when === 'open') await session.prune();
    return session;
  }

  get id(): string {
    return this.log.record.id;
  }

  get record(): SessionRecord {
    return structuredClone(this.log.record);
  }

  on<K extends keyof SessionEvents>(event: K, listener: (payload: SessionEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** The entries the model's view is built from (from the latest pivot's first kept entry on). */
  activeEntries(): Entry[] {
    return structuredClone(this.log.active);
  }

  /** Appends messages after validating them; invalid input is rejected whole, nothing written. */
  async append(input: Message | Message[] | unknown): Promise<MessageEntry[]> {
    const list = Array.isArray(input) ? input : [input];
    const messages = list.map((m, i) =>
      parseMessage(m, { field: Array.isArray(input) ? `[${i}]` : undefined }),
    );
    return this.log.mutate(appendWrite(messages, this.config));
  }

  /** Records a finished model step: its messages, its usage, and the after-step overflow check. */
  async recordStep(step: StepInput): Promise<StepResult> {
    const { messages, usage } = parseStep(step);
    const sent = this.lastPrepared ?? {
      logRaw: this.log.record.state.activeTokens,
      overheadRaw: this.overheadRaw,
      pivotId: this.log.record.state.pivotId,
    };
    const model = step.model ?? this.config.model;
    const entries = await this.log.mutate(stepWrite(messages, usage, model, sent, this.config));
    this.lastPrepared = null;
    this.overflowRetried = false;
    // The usage described a context that a compaction has since replaced: nothing to check.
    const stale = sent.pivotId !== this.log.record.state.pivotId;
    if (!usage || stale || !this.config.checks.afterStep)
      return { entries, usage, decision: null, markerId: null };
    const { countOutput, countCacheWrite } = this.config.checks;
    const decision = afterStepDecision(usage, this.config.budget, { countOutput, countCacheWrite });
    const markerId = decision.compact ? await this.queueMarker(decision) : null;
    return { entries, usage, decision, markerId };
  }

  /**
   * Completes a tool call that was appended while pending or running (agents that run tools
   * themselves): the call's part gains its output or error.
   */
  async recordToolResult(callId: string, result: ToolResult): Promise<void> {
    await this.log.mutate(toolResultWrite(callId, result, this.config));
  }

  /** Queues a compaction marker (seed 001 §4.1); at most one is pending at a time (A001-14). */
  async queueMarker(decision: Decision | null, instructions?: string): Promise<string> {
    const pending = this.log.record.state.pendingMarkerId;
    if (pending) return pending;
    const marker: Message = {
      role: 'user',
      parts: [
        { type: 'compaction-marker', auto: decision !== null, ...(instructions ? { instructions } : {}) },
      ],
    };
    // Checked again inside the write: another worker may have queued one meanwhile.
    const [entry] = await this.log.mutate((record, active) => {
      if (record.state.pendingMarkerId) return null;
      const write = appendWrite([marker], this.config)(record, active);
      return { ...write, state: { ...write.state, pendingMarkerId: write.append![0]!.id } };
    });
    if (!entry) return this.log.record.state.pendingMarkerId!;
    if (decision) this.events.emit('overflow', { decision, markerId: entry.id });
    return entry.id;
  }

  /** The before-turn token figure: last reported prompt + calibrated estimate of what came since. */
  estimate(overheadRaw = this.overheadRaw): TokenEstimate {
    const state = this.log.record.state;
    return hybridEstimate({
      lastUsage: state.lastUsage,
      addedSinceUsage: state.addedSinceUsage,
      activeRaw: state.activeTokens,
      overheadRaw,
      calibration: state.calibration[state.lastUsage?.model ?? this.config.model],
    });
  }

  /** Runs queued or needed compaction and pruning, then builds the context to send. */
  async prepare<F extends ContextFormat = 'ai-sdk'>(input: PrepareInput<F> = {}): Promise<Prepared<F>> {
    await this.log.refresh();
    const system = input.system ?? this.config.system;
    this.sentContext = { system, tools: input.tools ?? this.config.tools };
    if (input.system !== undefined || input.tools !== undefined) {
      this.overheadRaw = overheadOf(this.config.estimator, system, this.sentContext.tools);
    }
    const prepared = await prepareTurn(this, input, system);
    const { activeTokens: logRaw, pivotId } = this.log.record.state;
    this.lastPrepared = { logRaw, overheadRaw: this.overheadRaw, pivotId };
    return prepared;
  }

  /** Runs the compaction a queued marker asks for, with the marker's own settings. */
  runMarker(markerId: string, signal?: AbortSignal): Promise<CompactionOutcome> {
    const marker = this.log.active.find((e) => e.id === markerId);
    const part = marker?.kind === 'message' ? marker.message.parts[0] : undefined;
    const auto = part?.type === 'compaction-marker' ? part.auto : true;
    const instructions = part?.type === 'compaction-marker' ? part.instructions : undefined;
    return this.compact({ auto, instructions, markerId, signal });
  }

  /** Compacts now (manual by default). Throws a typed error if it cannot make the context smaller. */
  async compact(
    opts: { instructions?: string; auto?: boolean; markerId?: string; signal?: AbortSignal } = {},
  ): Promise<CompactionOutcome> {
    await this.log.refresh();
    try {
      const outcome = await runCompaction(this, { auto: opts.auto ?? false, ...opts });
      if (outcome.status === 'compacted') this.guard.succeeded();
      return outcome;
    } catch (error) {
      this.guard.failed(error, this.estimate().tokens);
      this.events.emit('compaction:error', { error: error as Error });
      throw error;
    }
  }

  /** Marks old tool outputs as pruned when enough are prunable (batched: see src/prune/trigger). */
  async prune(opts: { dryRun?: boolean; batch?: boolean } = {}): Promise<PruneOutcome | null> {
    if (!this.config.prune) return null;
    const outcome = await runPrune(this, opts);
    if (outcome && !opts.dryRun && outcome.parts > 0) {
      this.events.emit('prune', { parts: outcome.parts, tokensSaved: outcome.tokensSaved });
    }
    return outcome;
  }

  /**
   * Tells condense a model call failed. A context-overflow error leads to one compaction and one
   * retry signal; a second overflow in a row is reported, not looped (A002-10).
   */
  async recordError(
    error: unknown,
  ): Promise<{ overflow: boolean; retry: boolean; compaction: CompactionOutcome | null }> {
    if (!isContextOverflowError(error)) return { overflow: false, retry: false, compaction: null };
    if (this.overflowRetried) return { overflow: true, retry: false, compaction: null };
    this.overflowRetried = true;
    // The estimate just proved wrong: take the provider's own count of the rejected request.
    const reported = overflowPromptTokens(error);
    if (reported !== undefined) {
      const sentLogRaw = this.lastPrepared?.logRaw ?? this.log.record.state.activeTokens;
      await this.log.mutate(reportedPromptWrite(reported, this.config.model, sentLogRaw));
    }
    const compaction = await this.compact({ auto: true });
    return { overflow: true, retry: compaction.status === 'compacted', compaction };
  }

  /**
   * Starts a new session from this one at entry `at` (default: the head). The source is never
   * changed. See ForkMode for what the fork starts with.
   */
  async fork(newId: string, opts: { at?: string; mode?: ForkMode } = {}): Promise<Session> {
    const log = await this.history();
    const at = opts.at ?? this.log.record.headId;
    if (!at) throw new Error('cannot fork an empty session');
    const mode = opts.mode ?? 'exact';
    await writeFork(
      this.log.store,
      this.log.record,
      newId,
      planFork(log, at, mode),
      at,
      mode,
      this.config.now(),
    );
    return Session.open(this.log.store, newId, this.options);
  }

  /** Every entry of the session, oldest first (reads the whole log: not for the per-turn path). */
  async history(): Promise<Entry[]> {
    return this.log.store.loadFrom(this.id, 0);
  }
}

export async function openSession(store: Store, id: string, options: SessionOptions = {}): Promise<Session> {
  return Session.open(store, id, options);
}

export type { Prepared, PrepareInput, StepInput, StepResult, ToolResult };
