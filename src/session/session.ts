import { afterStepDecision, type Decision } from '../budget/index.js';
import { isContextOverflowError, isMarkerOnly, overflowPromptTokens } from '../compact/index.js';
import { type ContextFormat, IncrementalContext } from '../context/index.js';
import { anthropicTtl, cacheRuleFor } from '../cost/caching.js';
import { Lineage, type Turn } from '../lineage/index.js';
import { toolDefinitions } from '../model/ai-sdk/tools.js';
import type { Entry, MessageEntry } from '../model/entry.js';
import type { JsonValue } from '../model/json.js';
import type { Message } from '../model/message.js';
import { maskSecrets } from '../model/secrets.js';
import type { SessionRecord } from '../model/session.js';
import { loneSurrogates } from '../model/text.js';
import type { ChannelEvent, StoredEvent } from '../store/events.js';
import type { Store } from '../store/store.js';
import { fallbackWindowMessage, type TokenEstimate } from '../tokens/index.js';
import { type AppendInput, hasToolMessage, planAppend, waitingResults } from './append.js';
import { BackgroundCompaction } from './background/controller.js';
import { inProcessQueue } from './background/queue.js';
import { type CompactionOutcome, runCompaction } from './compaction.js';
import { appendWrite, withCursor } from './entries.js';
import { Emitter, type SessionEvents } from './events.js';
import { type ForkMode, planFork, writeFork } from './fork.js';
import { AutoCompactionGuard, DEFAULT_MAX_FAILURES } from './guard.js';
import type { SessionHandle } from './handle.js';
import { Log } from './log.js';
import type { SessionOptions } from './options.js';
import { TRUNCATE_SHARE, truncateOversized, WindowBytes } from './oversize.js';
import { type Prepared, type PrepareInput, preparedFresh, prepareTurn } from './prepare.js';
import { type PruneCheck, type PruneOutcome, runPrune } from './prune.js';
import { recordAndQuote } from './quote.js';
import { overheadOf, type ResolvedSession, resolveSession } from './resolve.js';
import { type SessionStart, startSession } from './start.js';
import { nextPromptEstimate } from './state.js';
import {
  parseStep,
  reportedPromptWrite,
  type SentFigures,
  type StepInput,
  type StepResult,
  stepWrite,
  type ToolResult,
} from './steps.js';
import { viewOptions } from './summary-input.js';
import { lateResultWrite, NoWaitingCallError, toolResultWrite } from './tool-results.js';
import { WindowNotHeldError, windowBound } from './window-read.js';

/** The orchestrator an agent calls around each model call: append, recordStep, prepare. */
export class Session implements SessionHandle {
  readonly events = new Emitter<SessionEvents>();
  /** Raw log tokens and overhead of the last context handed out, to calibrate against usage. */
  private lastPrepared: SentFigures | null = null;
  /** Whether a usage was reported to this process (Pegasus keeps lastPromptTokens in memory only). */
  private usageHere = false;
  private overflowRetried = false;
  private fallbackWarned = false;
  /** Keeps a compaction that would only fail again from being retried every turn. */
  readonly guard: AutoCompactionGuard;
  /** Summaries prepared off the agent's path (the `background` option), else null. */
  readonly background: BackgroundCompaction | null;
  /** What the session start did: the stored-usage check, its compaction, the opening prune. */
  opened: SessionStart = { decision: null, compaction: null, pruned: null };
  /** Raw tokens of the system prompt and tools as last sent (prepare() may override the options'). */
  overheadRaw: number;
  /** The system prompt and tools as last sent: a recount after compaction counts the same. */
  sentContext: { system?: string; tools?: unknown };
  /** The unpruned tool-output total and log position at which a batched prune check found nothing. */
  pruneCheckedAt: PruneCheck | null = null;
  private readonly contexts = new Map<ContextFormat, IncrementalContext<ContextFormat>>();
  private readonly windowBytes = new WindowBytes();

  /** UTF-8 bytes of the window's messages, counted as they are appended (not per turn). */
  requestBytes(): number {
    return this.windowBytes.of(this.log.active);
  }

  private constructor(
    readonly log: Log,
    readonly config: ResolvedSession,
    private readonly options: SessionOptions,
  ) {
    this.overheadRaw = config.overheadRaw;
    this.sentContext = { system: config.system, tools: config.tools };
    this.guard = new AutoCompactionGuard(config.compaction.maxFailures ?? DEFAULT_MAX_FAILURES);
    const bg = config.background;
    const queue =
      bg && (bg.queue ?? inProcessQueue({ summarizer: config.summarizer, estimator: config.estimator }));
    this.background = bg && queue ? new BackgroundCompaction(queue, bg.soft) : null;
    const background = this.background;
    if (background) log.onChange((changed) => background.changed(changed));
  }

  static async open(store: Store, id: string, options: SessionOptions = {}): Promise<Session> {
    // Configuration is checked before anything is written: a bad one creates no session.
    const stored = (await store.getSession(id))?.metadata ?? options.metadata ?? {};
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const tools = await toolDefinitions(options.tools);
    const config = resolveSession(
      { ...options, tools },
      { system: text(stored.system), model: text(stored.model) },
    );
    const bound = windowBound(config.budget.contextWindow);
    const log = await Log.open(store, id, config.now, options.metadata, bound);
    const session = new Session(log, config, options);
    session.opened = await startSession(session);
    return session;
  }

  get id(): string {
    return this.log.record.id;
  }

  /**
   * The id of the current interaction log: new after every compaction (Mistral Vibe step 7, "new
   * interaction log"), the session id before the first.
   */
  get interactionId(): string {
    return this.log.record.state.pivotId ?? this.id;
  }

  get record(): SessionRecord {
    return structuredClone(this.log.record);
  }

  on<K extends keyof SessionEvents>(event: K, listener: (payload: SessionEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /**
   * The entries the model's view is built from (from the latest pivot's first kept entry on). A
   * window far larger than the model's is held only in part until it is compacted: `loadWindow()`
   * first reads the rest.
   */
  activeEntries(): Entry[] {
    if (!this.log.whole) throw new WindowNotHeldError(this.id, this.log.record.state.activeTokens);
    return structuredClone(this.log.active);
  }

  /** Reads whatever part of the window is not held in memory (see `activeEntries`). */
  loadWindow(): Promise<void> {
    return this.log.loadWhole();
  }

  /**
   * Appends messages (condense or AI SDK `ModelMessage`s) after validating them; invalid input is
   * rejected whole, nothing written. An AI SDK tool message completes the calls it answers.
   * `cursor` (integrations) is stored in the same write; with no messages, it is all that is written.
   */
  async append(
    input: AppendInput | readonly AppendInput[],
    opts: { cursor?: JsonValue; expectCursor?: JsonValue } = {},
  ): Promise<MessageEntry[]> {
    this.reportLoneSurrogates(input);
    // Results arriving apart from their calls need every waiting call: the whole window.
    if (!this.log.whole && hasToolMessage(input)) await this.log.loadWhole();
    const plan = planAppend(input, this.log.active);
    const { oversize, budget, estimator } = this.config;
    if (oversize === 'truncate' && budget.usable !== null)
      plan.messages = truncateOversized(plan.messages, Math.floor(budget.usable * TRUNCATE_SHARE), estimator);
    const write = plan.messages.length > 0 || opts.cursor !== undefined;
    const entries = write
      ? await this.log.mutate(
          withCursor(appendWrite(plan.messages, this.config), opts.cursor, opts.expectCursor),
        )
      : [];
    for (const { callId, result } of plan.results) await this.recordToolResult(callId, result);
    return entries;
  }

  /**
   * Records a finished model call: its messages, its usage, and the after-step overflow check. A
   * whole AI SDK `generateText` / `streamText` result may be passed: each of its steps calibrates
   * the estimate with the prompt that step really had.
   */
  async recordStep(step: StepInput): Promise<StepResult> {
    this.reportLoneSurrogates(step.message ?? (step.response && (await step.response).messages));
    const parsed = await parseStep(step);
    if (!this.log.whole && parsed.results.length > 0) await this.log.loadWhole();
    const results = waitingResults(parsed.results, this.log.active);
    const sent = this.lastPrepared ?? {
      logRaw: this.log.record.state.activeTokens,
      overheadRaw: this.overheadRaw,
      pivotId: this.log.record.state.pivotId,
    };
    const model = step.model ?? this.config.model;
    const entries = await this.log.mutate(
      withCursor(stepWrite(parsed, model, sent, this.config), step.cursor, step.expectCursor),
    );
    // Results for calls of earlier steps arrived with this response: added after it.
    for (const { callId, result } of results) await this.recordToolResult(callId, result);
    this.lastPrepared = null;
    this.overflowRetried = false;
    const usage = parsed.samples.at(-1)?.usage ?? null;
    if (usage) this.usageHere = true;
    // The usage described a context that a compaction has since replaced: nothing to check.
    const stale = sent.pivotId !== this.log.record.state.pivotId;
    if (!usage || stale || !this.config.checks.afterStep)
      return { entries, usage, decision: null, markerId: null };
    const decision = afterStepDecision(usage, this.config.budget, this.config.checks);
    const markerId = decision.compact ? await this.queueMarker(decision) : null;
    return { entries, usage, decision, markerId };
  }

  /**
   * Completes a tool call that was appended while pending or running (agents that run tools
   * themselves): the call's part gains its output or error.
   */
  async recordToolResult(callId: string, result: ToolResult): Promise<void> {
    this.reportLoneSurrogates(result);
    await this.log.loadWhole();
    try {
      await this.log.mutate(toolResultWrite(callId, result, this.config));
    } catch (error) {
      if (!(error instanceof NoWaitingCallError)) throw error;
      // Another worker compacted the call away while it ran (see lateResultWrite).
      const late = await lateResultWrite(this.log.store, this.log.record, callId, result, this.config);
      if (!late) throw error;
      await this.log.mutate(late);
      this.events.emit('warning', {
        message: `the result of tool call '${callId}' came after a compaction summarized the call: stored in the history, not shown in the context`,
        error: null,
      });
    }
  }

  /** Text no UTF-8 can hold is stored and sent with U+FFFD in its place (model/text.ts): said here. */
  private reportLoneSurrogates(input: unknown): void {
    const n = loneSurrogates(input);
    if (n === 0) return;
    this.events.emit('warning', {
      message: `${n} lone surrogate(s) (half of a UTF-16 pair, which no UTF-8 text can hold) replaced by U+FFFD`,
      error: undefined,
    });
  }

  /** Queues a compaction marker (opencode); at most one is pending at a time. */
  async queueMarker(
    decision: Decision | null,
    instructions?: string,
    auto = decision !== null,
  ): Promise<string> {
    const pending = this.log.record.state.pendingMarkerId;
    if (pending) return pending;
    const marker: Message = {
      role: 'user',
      parts: [{ type: 'compaction', auto, ...(instructions ? { instructions } : {}) }],
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
    // Pegasus (`checks.estimate: 'local'`): the raw local estimate, no learned ratio or overhead.
    const local = this.config.checks.estimate === 'local';
    const { state } = this.log.record;
    // Its last prompt tokens live in memory: after a restart the whole session is estimated locally.
    const held = local && !this.usageHere ? { ...state, lastUsage: null } : state;
    return nextPromptEstimate(held, this.config.model, overheadRaw, local);
  }

  /** Runs queued or needed compaction and pruning, then builds the context to send. */
  async prepare<F extends ContextFormat = 'ai-sdk'>(input: PrepareInput<F> = {}): Promise<Prepared<F>> {
    // Where the store reads a version alone (Postgres), that round trip runs while the turn is
    // prepared; a turn prepared on a record another writer had moved on from is prepared again.
    const read = await this.log.versionRead();
    if (read === null) await this.log.refresh();
    if (this.config.windowFallback && !this.fallbackWarned) {
      this.fallbackWarned = true;
      const { model, budget } = this.config;
      const message = fallbackWindowMessage(model, budget.contextWindow);
      this.events.emit('window:fallback', { model, contextWindow: budget.contextWindow, message });
    }
    const system = input.system ?? this.config.system;
    const tools = input.tools === undefined ? this.config.tools : await toolDefinitions(input.tools);
    this.sentContext = { system, tools };
    if (input.system !== undefined || input.tools !== undefined) {
      this.overheadRaw = overheadOf(this.config.estimator, system, this.sentContext.tools);
    }
    const prepared =
      read === null
        ? await prepareTurn(this, input, system)
        : await preparedFresh(read, this.log, () => prepareTurn(this, input, system));
    const { activeTokens: logRaw, pivotId } = this.log.record.state;
    this.lastPrepared = { logRaw, overheadRaw: this.overheadRaw, pivotId };
    return prepared;
  }

  /** The request in `format`, kept from turn to turn so that a turn renders only what changed. */
  context<F extends ContextFormat>(format: F): IncrementalContext<F> {
    let context = this.contexts.get(format);
    if (context === undefined) {
      const { breakpoints: cacheBreakpoints, ttlMinutes } = this.config.cache;
      const cacheTtl = anthropicTtl(ttlMinutes);
      const anthropicModel =
        cacheRuleFor(this.config.modelInfo.provider, this.config.model).provider === 'anthropic';
      context = new IncrementalContext(format, viewOptions(this.config), {
        cacheBreakpoints,
        anthropicModel,
        ...(cacheTtl ? { cacheTtl } : {}),
      });
      this.contexts.set(format, context);
    }
    return context as IncrementalContext<F>;
  }

  /** Runs the compaction a queued marker asks for, with the marker's own settings. */
  async runMarker(markerId: string, signal?: AbortSignal): Promise<CompactionOutcome> {
    const marker =
      this.log.active.find((e) => e.id === markerId) ?? (await this.log.store.getEntry(this.id, markerId));
    const part = marker?.kind === 'message' ? marker.message.parts[0] : undefined;
    const auto = part?.type === 'compaction' ? part.auto : true;
    const instructions = part?.type === 'compaction' ? part.instructions : undefined;
    return this.compact({ auto, instructions, markerId, signal });
  }

  /**
   * Compacts now (manual by default). `targetTokens`: what the summary and the verbatim tail may
   * hold together (default: the automatic compaction's target, at most half the context now).
   * Throws a typed error if it cannot make the context smaller.
   */
  async compact(
    opts: {
      instructions?: string;
      auto?: boolean;
      markerId?: string;
      signal?: AbortSignal;
      targetTokens?: number;
    } = {},
  ): Promise<CompactionOutcome> {
    await this.log.refresh();
    const auto = opts.auto ?? false;
    // Asked for by the caller, not by a check or a queued task: automatic compaction may resume.
    const automatic = auto || opts.markerId !== undefined;
    // Several processes told to compact at once compact once: those racing the first are dropped
    // at commit (commit.ts), one starting after it committed finds nothing new to summarize. A call
    // with instructions of its own asks for a new summary all the same.
    const fresh = !appendedSincePivot(this.log.active, this.log.record.state.pivotId);
    if (!automatic && fresh && !opts.instructions)
      return { status: 'skipped', reason: 'nothing was appended since the latest compaction' };
    if (!automatic) this.guard.resume();
    // Stopped after repeated failures: no automatic attempt calls the summarizer again.
    else if (this.guard.stopped) throw this.guard.stopped;
    const markerId =
      opts.markerId ??
      (this.config.compaction.recordTask ? await this.queueMarker(null, opts.instructions, auto) : undefined);
    try {
      // A summary prepared in the background serves an automatic compaction that asks for nothing extra.
      const prepared =
        automatic && !opts.instructions
          ? await this.background?.apply(this, { auto, markerId, signal: opts.signal })
          : null;
      const outcome = prepared ?? (await runCompaction(this, { ...opts, auto, markerId }));
      if (outcome.status === 'compacted') {
        const limit = this.config.budget.limit;
        this.guard.succeeded(outcome.tokensAfter, limit, automatic);
        if (automatic && this.guard.nearLimit(outcome.tokensAfter, limit))
          this.events.emit('warning', {
            message: `compaction left ${outcome.tokensAfter} tokens of a limit of ${limit}: automatic compaction waits until the context grows`,
            error: null,
          });
      }
      return outcome;
    } catch (error) {
      // A provider's error may echo the key it was sent: masked before anyone sees it.
      maskSecrets(error);
      const stopped = this.guard.failed(error, this.estimate().tokens, automatic);
      this.events.emit('compaction:error', { error: error as Error });
      if (!stopped) throw error;
      this.events.emit('compaction:stopped', { failures: stopped.failures, error: stopped });
      throw stopped;
    }
  }

  /** Marks old tool outputs as pruned when enough are prunable (batched: see src/prune/trigger). */
  async prune(opts: { dryRun?: boolean; batch?: boolean } = {}): Promise<PruneOutcome | null> {
    if (!this.config.prune) return null;
    const { outcome, checkedAt } = await runPrune(this, opts);
    if (checkedAt) this.pruneCheckedAt = checkedAt;
    if (outcome && !opts.dryRun && outcome.parts > 0) {
      this.events.emit('prune', { parts: outcome.parts, tokensSaved: outcome.tokensSaved });
    }
    return outcome;
  }

  /**
   * Tells condense a model call failed. A context-overflow error leads to one compaction and one
   * retry signal; a second overflow in a row is reported, not looped.
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
    const mode = opts.mode ?? this.options.fork?.mode ?? 'exact';
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

  /**
   * Records external channel events in the store's ledger (Nexus's Events Ledger: kept for
   * good, never compacted or pruned; a redelivered event is recorded once) and appends one user
   * message quoting them, whose `metadata.events` references them. The events are recorded first:
   * if the append fails they stay in the ledger, and quoting again records nothing twice.
   */
  quoteEvents(
    events: ChannelEvent | readonly ChannelEvent[],
    opts: { format?: (event: StoredEvent) => string } = {},
  ): Promise<{ events: StoredEvent[]; entry: MessageEntry }> {
    return recordAndQuote(this.log.store, events, (message) => this.append(message), opts.format);
  }

  /** Nexus's turns and traversal over the whole log, read once (not for the per-turn path). */
  async lineage(): Promise<Lineage> {
    const view = {
      system: this.config.system,
      summaryAs: this.config.compaction.summaryAs,
      prunedPlaceholder: this.config.prune?.placeholder,
    };
    return Lineage.of(await this.history(), { sessionId: this.id, model: this.config.model, view });
  }

  /** Every turn (Nexus's Turn shape), in log order. */
  async turns(): Promise<Turn[]> {
    return (await this.lineage()).turns();
  }

  /** One turn by id (its first entry's id); an unknown id throws UnknownTurnError. */
  async turn(id: string): Promise<Turn> {
    return (await this.lineage()).turn(id);
  }
}

/** Whether a message (other than a queued compaction task) follows the latest pivot; true with none. */
function appendedSincePivot(active: readonly Entry[], pivotId: string | null): boolean {
  if (pivotId === null) return true;
  for (let i = active.length - 1; i >= 0; i--) {
    const e = active[i]!;
    if (e.id === pivotId) return false;
    if (e.kind === 'message' && !isMarkerOnly(e)) return true;
  }
  return true; // the pivot is not held: the window moved on
}

export async function openSession(store: Store, id: string, options: SessionOptions = {}): Promise<Session> {
  return Session.open(store, id, options);
}

export type { Prepared, PrepareInput, SessionStart, StepInput, StepResult, ToolResult };
