import type { Entry } from '../model/entry.js';
import type { TokenEstimate } from '../tokens/index.js';
import type { SessionEvents } from './events.js';
import type { AutoCompactionGuard } from './guard.js';
import type { Log } from './log.js';
import type { ResolvedSession } from './resolve.js';

/**
 * What a step of the session (a compaction, a prune, the turn's policy, the background job) is
 * given: the session's log, its resolved configuration and the figures it keeps, read-only. A step
 * writes only through `log.mutate`, which computes each write from the stored state and applies it
 * in one place; it reports through `events`. `Session` is one such context and passes itself, so
 * no step imports the class (nor can edit its fields).
 */
export interface StepContext {
  readonly id: string;
  readonly log: Log;
  readonly config: ResolvedSession;
  readonly events: { emit<K extends keyof SessionEvents>(event: K, payload: SessionEvents[K]): void };
  /** Raw tokens of the system prompt and tools as last sent. */
  readonly overheadRaw: number;
  /** The system prompt and tools as last sent: a recount or a summary call uses the same. */
  readonly sentContext: Readonly<{ system?: string; tools?: unknown }>;
  /** The before-turn token figure (see Session.estimate). */
  estimate(): TokenEstimate;
  /** Every entry of the session, oldest first (reads the whole log). */
  history(): Promise<Entry[]>;
}

/** A step that must know whether automatic compaction is stopped or waiting for growth. */
export interface GuardedContext extends StepContext {
  readonly guard: Readonly<Pick<AutoCompactionGuard, 'stopped' | 'suspended'>>;
}
