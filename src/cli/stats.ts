import type { Decision } from '../budget/index.js';
import type { Entry } from '../model/entry.js';
import type { Session } from '../session/index.js';
import { currentCalibration } from '../session/state.js';
import type { TokenEstimate } from '../tokens/index.js';

export interface SessionStats {
  session: string;
  model: string;
  entries: number;
  activeEntries: number;
  compactions: number;
  tokens: { total: number; active: number; byRole: Record<string, number>; byTool: Record<string, number> };
  contextWindow: number;
  /** True when the window is the 128,000 fallback: neither the model nor an option gave one. */
  windowFallback: boolean;
  usable: number | null;
  limit: number | null;
  /** The prompt size the provider last reported, and for which model. */
  lastReported: { promptTokens: number; model?: string } | null;
  /** What the estimator learned from reported usage (null: nothing reported yet). */
  calibration: { samples: number; ratio: number; residual: number } | null;
  estimate: TokenEstimate;
  /** How the next-prompt figure was made: from a reported prompt, calibrated, or a plain estimate. */
  basis: 'usage+delta' | 'calibrated' | 'uncalibrated';
  decision: Decision;
}

/** Token figures for a whole session (reads the whole log: a report, not a per-turn path). */
export function sessionStats(session: Session, history: Entry[], decision: Decision): SessionStats {
  // The system prompt kept in the session's settings counts first, like the one in the log would.
  const system = session.config.system;
  const byRole: Record<string, number> = system ? { system: session.config.estimator.text(system) } : {};
  const byTool: Record<string, number> = {};
  for (const entry of history) {
    const role = entry.kind === 'message' ? entry.message.role : 'summary';
    byRole[role] = (byRole[role] ?? 0) + entry.tokens;
    if (entry.kind !== 'message') continue;
    entry.message.parts.forEach((part, i) => {
      if (part.type === 'tool') byTool[part.name] = (byTool[part.name] ?? 0) + (entry.partTokens[i] ?? 0);
    });
  }
  const { state } = session.record;
  const budget = session.config.budget;
  const estimate = session.estimate();
  const learned = currentCalibration(state, session.config.model);
  const calibrated = learned !== undefined && learned.samples > 0;
  return {
    session: session.id,
    model: session.config.model,
    entries: history.length,
    activeEntries: session.activeEntries().length,
    compactions: history.filter((e) => e.kind === 'compaction').length,
    tokens: { total: state.totalTokens, active: state.activeTokens, byRole, byTool },
    contextWindow: budget.contextWindow,
    windowFallback: session.config.windowFallback,
    usable: budget.usable,
    limit: budget.limit,
    lastReported: state.lastUsage
      ? { promptTokens: state.lastUsage.usage.inputTotal, model: state.lastUsage.model }
      : null,
    calibration: calibrated
      ? { samples: learned.samples, ratio: learned.ratio, residual: Math.round(learned.residual) }
      : null,
    estimate,
    basis: estimate.method === 'calibrated' && !calibrated ? 'uncalibrated' : estimate.method,
    decision,
  };
}

/** Says what the next-prompt figure rests on, so an uncalibrated guess never reads as a measurement. */
function basisText(s: SessionStats): string {
  const e = s.estimate;
  if (s.basis === 'usage+delta') return `usage+delta: last reported ${e.base} + ${e.delta} added since`;
  if (s.basis === 'calibrated')
    return `calibrated from ${s.calibration?.samples} reported usages, none since the last compaction`;
  return 'estimated, uncalibrated: no usage reported';
}

export function formatStats(s: SessionStats): string {
  const window = `${s.contextWindow}${s.windowFallback ? ' (fallback: model not known)' : ''}`;
  const cal = s.calibration;
  const lines = [
    `session ${s.session}  model ${s.model}  window ${window}  usable ${s.usable ?? 'unlimited'}  trigger at ${s.limit ?? 'never'}`,
    `entries ${s.entries} (${s.activeEntries} in view)  compactions ${s.compactions}`,
    `last reported prompt: ${s.lastReported ? `${s.lastReported.promptTokens} tokens` : 'none'}; calibration: ${cal ? `${cal.samples} samples, ${cal.ratio.toFixed(2)} provider tokens per estimated token, residual ${cal.residual}` : 'none'}`,
    `tokens: ${s.tokens.total} appended in all, ${s.tokens.active} in the current view; next prompt ≈ ${s.estimate.tokens} (${basisText(s)})`,
    'by role (what each entry costs now; pruned outputs count as their placeholder):',
    ...Object.entries(s.tokens.byRole).map(([k, v]) => `  ${k.padEnd(10)} ${String(v).padStart(9)}`),
    'by tool (outputs):',
    ...Object.entries(s.tokens.byTool)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `  ${k.padEnd(20)} ${String(v).padStart(9)}`),
    `decision: ${s.decision.compact ? 'COMPACT' : 'ok'} (${s.decision.reason}; ${s.decision.tokens} vs limit ${s.decision.limit ?? 'none'})`,
  ];
  return lines.join('\n');
}
