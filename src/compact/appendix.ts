import type { PivotDetails } from '../model/entry.js';
import { carriedCommands, carriedLines } from './details.js';
import { clipLine } from './error-lines.js';
import { LAST_REQUEST_PREFIX } from './prompts.js';

export const APPENDIX_HEADING = '--- Facts carried over (deterministic) ---';

/** Commands the full appendix lists besides failures and fixes: the newest ones. */
const RECENT_COMMANDS = 10;

/**
 * The request openings, commands with their final outcome, the user's decisions and the announced
 * next step: what an extractive summary shows in its sections, for summaries written by a model
 * (`full`).
 */
function fullSections(details: PivotDetails): string[] {
  const lines: string[] = [];
  const requests = carriedLines(details, 'requests');
  if (requests.length > 0)
    lines.push(
      'User requests, oldest first (opening words):',
      ...requests.map((r) => `- ${clipLine(r, 160)}`),
    );
  const commands = carriedCommands(details);
  const shown = commands.filter(([, s], i) => s !== 'ok' || i >= commands.length - RECENT_COMMANDS);
  if (shown.length > 0)
    lines.push(
      'Commands run, with their final outcome:',
      ...shown.map(
        ([c, s]) =>
          `- ${c} → ${s === 'fixed' ? 'failed, then fixed' : s === 'failed' ? 'still failing' : 'ok'}`,
      ),
    );
  const decisions = carriedLines(details, 'decisions');
  if (decisions.length > 0) lines.push("User's decisions (verbatim):", ...decisions.map((c) => `- ${c}`));
  const next = carriedLines(details, 'nextStep')[0];
  if (next) lines.push(`Next step the assistant announced: ${next}`);
  return lines;
}

/**
 * The deterministic tail of every summary: files read and modified, failing commands with their
 * errors, the user's explicit constraints, and the latest request verbatim (seed 004's last line);
 * with `full` (a model's summary) also the requests, the commands with their outcome, the user's
 * decisions and the next step. Whatever the summarizer wrote, these facts reach the model unchanged.
 */
export function buildAppendix(details: PivotDetails, showRequest = true, full = false): string {
  const lines = [APPENDIX_HEADING];
  const modified = new Set(details.filesModified);
  const readOnly = details.filesRead.filter((f) => !modified.has(f));
  if (details.filesModified.length > 0) lines.push(`Files modified: ${details.filesModified.join(', ')}`);
  if (readOnly.length > 0) lines.push(`Files read: ${readOnly.join(', ')}`);
  if (full) lines.push(...fullSections(details));
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
export function withAppendix(
  summary: string,
  details: PivotDetails,
  showRequest = true,
  full = false,
): string {
  return `${summary.trimEnd()}\n\n${buildAppendix(details, showRequest, full)}`;
}

/** The summary without its appendix (to reuse a previous summary's own text). */
export function stripAppendix(summary: string): string {
  const at = summary.lastIndexOf(APPENDIX_HEADING);
  return at < 0 ? summary : summary.slice(0, at).trimEnd();
}
