import { type CompactionPlan, capText, HANDOVER_LIMITS } from '../compact/index.js';
import { requestText } from '../compact/requests.js';
import { type Entry, isMessageEntry } from '../model/entry.js';

/**
 * A pivot condense did not write (a compaction imported from Claude Code or Codex, or one from an
 * older version) carries no list of the user's requests, nor the latest one: they are read once
 * from the stored history before it, so that the summary carries every request of the branch and
 * the user's original task is not lost at the next compaction. Pure but for `history`.
 */
export async function withEarlierRequests(
  plan: CompactionPlan,
  history: () => Promise<Entry[]>,
): Promise<CompactionPlan> {
  const prev = plan.previousPivot;
  if (prev === null || Array.isArray(prev.pivot.details.extra?.requests)) return plan;
  const requests = (await history())
    .filter((e) => isMessageEntry(e) && e.seq < prev.seq)
    .map((e) => (isMessageEntry(e) ? requestText(e) : ''))
    .filter((t) => t !== '')
    .map((t) => capText(t, HANDOVER_LIMITS.requestChars));
  if (requests.length === 0) return plan;
  const details = prev.pivot.details;
  const carried = {
    ...details,
    extra: { ...details.extra, requests },
    ...(details.lastUserRequest === undefined ? { lastUserRequest: requests.at(-1)! } : {}),
  };
  return {
    ...plan,
    previousPivot: { ...prev, pivot: { ...prev.pivot, details: carried } },
    ...(plan.latestUserRequest === undefined ? { latestUserRequest: requests.at(-1)! } : {}),
  };
}
