import type { Decision } from '../budget/index.js';
import type { FallbackReason } from '../compact/index.js';
import type { CompactionEntry } from '../model/entry.js';
import { maskSecrets } from '../model/secrets.js';
import type { StaleReason } from './background/job.js';

/** Why a prepared summary was not applied. */
export type DiscardReason = StaleReason | 'failed' | 'not-enough';

export interface SessionEvents {
  overflow: { decision: Decision; markerId: string };
  'compaction:start': { auto: boolean; reason: string; tokensBefore: number };
  'compaction:end': { pivot: CompactionEntry; tokensBefore: number; tokensAfter: number; millis: number };
  'compaction:error': { error: Error };
  /** A window held only in part is being read for its first compaction: entries read so far, of about `total`. */
  'compaction:progress': { read: number; total: number };
  /**
   * The configured summarizer failed or its summary was refused by the quality gate (empty, not
   * smaller than what it replaces, over its budget, missing facts it could not be completed with):
   * the extractive summary was written instead.
   */
  'compaction:fallback': { reason: FallbackReason; detail: string; summarizer: string };
  /** Automatic compaction failed `failures` times in a row and is off until a manual compact(). */
  'compaction:stopped': { failures: number; error: Error };
  prune: { parts: number; tokensSaved: number };
  /** Past the soft threshold, a summary of the current prefix was queued off the agent's path. */
  'background:start': { jobId: string; tokens: number; summarizedThroughId: string };
  /** A queued summary is ready (`millis`: how long the worker took). */
  'background:prepared': { jobId: string; millis: number };
  /** At the hard threshold the prepared summary became the pivot; `waitedMillis`: the turn's wait for it. */
  'background:applied': { jobId: string; pivot: CompactionEntry; waitedMillis: number };
  /** A prepared (or still running) summary was dropped, never applied; `discarded` counts them so far. */
  'background:discarded': { jobId: string; reason: DiscardReason; discarded: number };
  /** Once per session, at its first prepare(): no catalog entry or option gave the model's window. */
  'window:fallback': { model: string; contextWindow: number; message: string };
  /** Something failed that does not undo what was done (e.g. the recount after a compaction). */
  warning: { message: string; error: unknown };
}

type Listener<T> = (payload: T) => void;

/** A small typed emitter: listeners run synchronously; one that throws does not stop the others. */
export class Emitter<E extends object> {
  private readonly listeners = new Map<keyof E, Set<Listener<never>>>();

  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<K extends keyof E>(event: K, payload: E[K]): void {
    // No credential reaches a listener (a log, a metrics exporter): a provider error may hold one.
    const error = (payload as { error?: unknown } | null)?.error;
    if (error !== undefined) maskSecrets(error);
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as Listener<E[K]>)(payload);
      } catch {
        // A faulty listener must not break the agent's turn.
      }
    }
  }
}
