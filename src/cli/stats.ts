import type { Decision } from '../budget/index.js';
import type { Entry } from '../model/entry.js';
import { BAR_GLYPHS, breakdownBar, type ContextBreakdown, contextBreakdown } from '../session/breakdown.js';
import type { SessionHandle } from '../session/handle.js';
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
  windowSource: SessionHandle['config']['windowSource'];
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
  /** What fills the window on the next request, summing to `estimate.tokens`. */
  breakdown: ContextBreakdown;
}

/** Token figures for a whole session (reads the whole log: a report, not a per-turn path). */
export function sessionStats(session: SessionHandle, history: Entry[], decision: Decision): SessionStats {
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
    windowSource: session.config.windowSource,
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
    breakdown: contextBreakdown({
      systemRaw: system ? session.config.estimator.text(system) : 0,
      toolsRaw: Math.max(0, session.overheadRaw - (system ? session.config.estimator.text(system) : 0)),
      entries: session.activeEntries(),
      estimate,
      contextWindow: budget.contextWindow,
      trigger: budget.limit,
      usable: budget.usable,
    }),
  };
}

/** Says what the next-prompt figure rests on, so an uncalibrated guess never reads as a measurement. */
function basisText(s: SessionStats): string {
  const e = s.estimate;
  if (s.basis === 'usage+delta')
    return `the provider counted ${n(e.base)} tokens in the last request; ${n(e.delta)} were added since`;
  if (s.basis === 'calibrated')
    return `estimated, with the counting learned from ${s.calibration?.samples} reported requests`;
  return 'estimated: no request has reported its size yet';
}

const n = (v: number) => v.toLocaleString('en-US');
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

/** Rows of label, tokens and share, the tokens right-aligned. */
function breakdownLines(b: ContextBreakdown): string[] {
  const rows: [string, number, string][] = b.rows.map((r) => [
    `${BAR_GLYPHS[r.key]} ${r.label}`,
    r.tokens,
    pct(r.share),
  ]);
  if (b.free !== null) rows.push([`${BAR_GLYPHS.free} Free space`, b.free, pct(b.free / b.contextWindow)]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines: string[] = [];
  for (const [label, tokens, share] of rows) {
    lines.push(`  ${label.padEnd(width)}  ${n(tokens).padStart(9)}  ${share.padStart(6)}`);
    const row = b.rows.find((r) => `${BAR_GLYPHS[r.key]} ${r.label}` === label);
    for (const tool of row?.byTool?.slice(0, 6) ?? [])
      lines.push(`      ${tool.name.slice(0, width - 6).padEnd(width - 4)}  ${n(tool.tokens).padStart(9)}`);
    if (row?.key === 'unstored')
      lines.push(
        "      counted by the provider, not stored here: usually the agent's own system prompt and tools",
      );
  }
  return lines;
}

const SOURCE_TEXT: Partial<Record<SessionStats['windowSource'], string>> = {
  catalog: ' (from the model catalog)',
  options: ' (as configured)',
  num_ctx: " (the Ollama model's num_ctx)",
  fallback: ' (assumed: the model is not in the catalog)',
};

export function formatStats(s: SessionStats): string {
  const b = s.breakdown;
  const window = s.contextWindow === 0 ? 'unlimited window' : `window ${n(s.contextWindow)}`;
  const source = SOURCE_TEXT[s.windowSource] ?? '';
  const of = s.contextWindow > 0 ? ` of ${n(s.contextWindow)} (${pct(b.total / s.contextWindow)})` : '';
  const trigger = s.limit === null ? 'never compacts' : `compacts above ${n(s.limit)}`;
  const decision = s.decision.compact
    ? `the next turn compacts (${n(s.decision.tokens)} is over ${n(s.decision.limit ?? 0)})`
    : `no compaction needed yet (${n(s.decision.tokens)} of ${s.decision.limit === null ? 'no limit' : n(s.decision.limit)})`;
  return [
    `session ${s.session}  model ${s.model}  ${window}${source}`,
    '',
    `next prompt ≈ ${n(b.total)} tokens${of}; ${trigger}`,
    `[${breakdownBar(b)}]`,
    ...breakdownLines(b),
    ...(b.reservedForOutput
      ? [`  reserved for the answer: ${n(b.reservedForOutput)} of the free space`]
      : []),
    '',
    `how the figure is made: ${basisText(s)}`,
    `entries ${s.entries} (${s.activeEntries} in view)  compactions ${s.compactions}`,
    `decision: ${decision}`,
  ].join('\n');
}
