import { HANDOVER_HEADING } from './handover/render.js';

/** The heading of the appendix earlier versions wrote: stored summaries may still carry it. */
export const APPENDIX_HEADING = '--- Facts carried over (deterministic) ---';

/**
 * The summary without its deterministic part (to reuse a previous summary's own text): the
 * handover block, or the appendix of earlier versions.
 */
export function stripAppendix(summary: string): string {
  const at = Math.max(summary.lastIndexOf(HANDOVER_HEADING), summary.lastIndexOf(APPENDIX_HEADING));
  return at < 0 ? summary : summary.slice(0, at).trimEnd();
}
