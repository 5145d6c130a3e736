import type { ImportedSession } from '../import/index.js';
import { buildCompactionEntry, buildMessageEntry } from '../model/build.js';
import { emptySessionState } from '../model/session.js';
import { resolveSession } from '../session/resolve.js';
import { afterAppend, afterPivot, afterUsage, nextPromptEstimate } from '../session/state.js';
import { normalizeUsage } from '../tokens/usage.js';

/** Relative errors of the token estimate against the prompt sizes providers reported. */
export interface EstimateErrors {
  /** condense's estimate: the last reported prompt plus the calibrated estimate of what came since. */
  calibrated: number[];
  /** chars/4 of the log alone, what a naive check counts. */
  plain: number[];
}

/**
 * Replays each session's reported requests in order, as the importer does: before each request,
 * the estimate an agent would have had then is compared with the size the provider reported for
 * it; then the usage teaches the calibration. A session's first request (nothing learned yet) is
 * left out.
 */
export function estimateErrors(sessions: readonly ImportedSession[]): EstimateErrors {
  const out: EstimateErrors = { calibrated: [], plain: [] };
  for (const s of sessions) {
    const models = s.messages.map((m) => m.model).filter((m): m is string => m !== undefined);
    const config = resolveSession(models.length > 0 ? { model: models.at(-1)! } : {}, { system: s.system });
    let state = emptySessionState();
    let learned = false;
    let next = 0;
    const compactions = s.compactions ?? [];
    s.messages.forEach((m, seq) => {
      while (compactions[next]?.at === seq) {
        const c = compactions[next++]!;
        const pivot = buildCompactionEntry(
          {
            summary: c.summary,
            summarizedThroughId: `m${seq - 1}`,
            firstKeptId: null,
            tokensBefore: 0,
            tokensAfter: 0,
            auto: c.auto,
            summarizer: s.format,
            details: { filesRead: [], filesModified: [] },
            previousPivotId: null,
          },
          { sessionId: 'estimate', seq, parentId: null, id: `p${seq}` },
          config.estimator,
        );
        state = afterPivot(state, pivot, [], seq);
      }
      const entry = buildMessageEntry(
        m.message,
        { sessionId: 'estimate', seq, parentId: null, id: `m${seq}` },
        config.estimator,
      );
      const logRaw = state.activeTokens;
      const model = m.model ?? config.model;
      const estimate = nextPromptEstimate(state, model, config.overheadRaw).tokens;
      state = afterAppend(state, [entry]);
      if (m.usage === undefined) return;
      const usage = normalizeUsage(m.usage);
      if (usage.inputTotal <= 0) return;
      if (learned) {
        out.calibrated.push(Math.abs(estimate - usage.inputTotal) / usage.inputTotal);
        out.plain.push(Math.abs(logRaw + config.overheadRaw - usage.inputTotal) / usage.inputTotal);
      }
      learned = true;
      state = afterUsage(state, usage, model, { logRaw, overheadRaw: config.overheadRaw }, seq);
    });
  }
  return out;
}
