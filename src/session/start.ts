import { afterStepDecision, type Decision } from '../budget/index.js';
import type { CompactionOutcome } from './compaction.js';
import type { PruneOutcome } from './prune.js';
import type { StepContext } from './step-context.js';

/** What opening the session did, in order. */
export interface SessionStart {
  /** The check of the last step's stored usage (`checks.atOpen`), when there was one. */
  decision: Decision | null;
  compaction: CompactionOutcome | null;
  /** A compaction that failed: its task stays queued for prepare(), and the opening prune waits. */
  compactionError?: Error;
  pruned: PruneOutcome | null;
}

/** What the start runs, as the session runs it (the marker's compaction, the prune). */
export interface StartInput extends StepContext {
  queueMarker(decision: Decision): Promise<string>;
  runMarker(markerId: string): Promise<CompactionOutcome>;
  prune(): Promise<PruneOutcome | null>;
}

/**
 * Qwery's session start: check overflow on the stored usage of the last step, create the
 * compaction task, summarize and save the summary — then prune, so the summarizer read the
 * outputs pruning would clear. A start with nothing due writes nothing.
 */
export async function startSession(session: StartInput): Promise<SessionStart> {
  const { config } = session;
  const start: SessionStart = { decision: null, compaction: null, pruned: null };
  if (config.checks.atOpen) {
    // The last step's usage; a compaction clears it, so its own step never re-triggers.
    const usage = session.log.record.state.lastUsage?.usage;
    if (usage && session.log.record.state.pendingMarkerId === null) {
      start.decision = afterStepDecision(usage, config.budget, config.checks);
      if (start.decision.compact) await session.queueMarker(start.decision);
    }
    const pending = session.log.record.state.pendingMarkerId;
    if (pending) {
      try {
        start.compaction = await session.runMarker(pending);
      } catch (error) {
        start.compactionError = error as Error;
        return start;
      }
    }
  }
  if (config.prune?.when === 'open') start.pruned = await session.prune();
  return start;
}
