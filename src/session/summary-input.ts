import type { CompactionPlan } from '../compact/index.js';
import { buildView, type ViewOptions } from '../context/index.js';
import type { Entry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import type { ResolvedSession } from './resolve.js';

/** The view options every rendering of this session shares: prepare(), the recount, the summary call. */
export function viewOptions(config: ResolvedSession): ViewOptions {
  const { summaryAs, markerQuestion } = config.compaction;
  return {
    summaryAs,
    prunedPlaceholder: config.prune?.placeholder,
    ...(markerQuestion !== undefined ? { markerQuestion, dropPendingMarkers: false } : {}),
  };
}

/**
 * The summarized span as the model saw it: the window without the kept tail, queued tasks shown
 * as the policy shows them, no system prompt.
 */
export function summarizedView(config: ResolvedSession, active: Entry[], plan: CompactionPlan): Message[] {
  const kept = new Set(plan.toKeep.map((e) => e.id));
  return buildView(
    active.filter((e) => !kept.has(e.id)),
    viewOptions(config),
  );
}
