import type { PivotDetails } from '../model/entry.js';
import { LAST_REQUEST_PREFIX } from './prompts.js';

export const APPENDIX_HEADING = '--- Facts carried over (deterministic) ---';

/**
 * The deterministic tail of every summary: files read and modified, failing commands, the
 * user's explicit constraints, and the latest request verbatim (seed 004's last line). Whatever
 * the summarizer wrote, these facts reach the model unchanged.
 */
export function buildAppendix(details: PivotDetails, showRequest = true): string {
  const lines = [APPENDIX_HEADING];
  const modified = new Set(details.filesModified);
  const readOnly = details.filesRead.filter((f) => !modified.has(f));
  if (details.filesModified.length > 0) lines.push(`Files modified: ${details.filesModified.join(', ')}`);
  if (readOnly.length > 0) lines.push(`Files read: ${readOnly.join(', ')}`);
  if (details.failedCommands && details.failedCommands.length > 0) {
    lines.push('Failing commands (last run failed):', ...details.failedCommands.map((c) => `- ${c}`));
  }
  if (details.constraints && details.constraints.length > 0) {
    lines.push("User's explicit constraints (verbatim):", ...details.constraints.map((c) => `- ${c}`));
  }
  if (lines.length === 1) lines.push('(no files, failures or constraints recorded)');
  // Once is enough: when the request is in the kept tail, the model already sees it verbatim.
  if (showRequest && details.lastUserRequest !== undefined && details.lastUserRequest.trim() !== '') {
    lines.push('', LAST_REQUEST_PREFIX + details.lastUserRequest);
  }
  return lines.join('\n');
}

/** Summary text followed by the appendix, separated by a blank line. */
export function withAppendix(summary: string, details: PivotDetails, showRequest = true): string {
  return `${summary.trimEnd()}\n\n${buildAppendix(details, showRequest)}`;
}

/** The summary without its appendix (to reuse a previous summary's own text). */
export function stripAppendix(summary: string): string {
  const at = summary.lastIndexOf(APPENDIX_HEADING);
  return at < 0 ? summary : summary.slice(0, at).trimEnd();
}
