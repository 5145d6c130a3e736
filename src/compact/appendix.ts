import type { Estimator } from '../tokens/estimator.js';
import { HANDOVER_HEADING, renderHandover } from './handover/render.js';
import type { Handover } from './handover/types.js';

/** The heading of the appendix earlier versions wrote: stored summaries may still carry it. */
export const APPENDIX_HEADING = '--- Facts carried over (deterministic) ---';

/**
 * A summary followed by the handover block: whatever the summarizer wrote, the facts reach the
 * model unchanged, within `budgetTokens`.
 */
export function withHandover(
  summary: string,
  handover: Handover,
  budgetTokens: number,
  estimator: Estimator,
): string {
  const block = renderHandover(handover, { budgetTokens, estimator }).text;
  return block === '' ? summary : `${summary.trimEnd()}\n\n${block}`;
}

/**
 * The summary without its deterministic part (to reuse a previous summary's own text): the
 * handover block, or the appendix of earlier versions.
 */
export function stripAppendix(summary: string): string {
  const at = Math.max(summary.lastIndexOf(HANDOVER_HEADING), summary.lastIndexOf(APPENDIX_HEADING));
  return at < 0 ? summary : summary.slice(0, at).trimEnd();
}
