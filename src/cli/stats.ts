import type { Decision } from '../budget/index.js';
import type { Entry } from '../model/entry.js';
import type { Session } from '../session/index.js';
import type { TokenEstimate } from '../tokens/index.js';

export interface SessionStats {
  session: string;
  model: string;
  entries: number;
  activeEntries: number;
  compactions: number;
  tokens: { total: number; active: number; byRole: Record<string, number>; byTool: Record<string, number> };
  contextWindow: number;
  usable: number | null;
  limit: number | null;
  estimate: TokenEstimate;
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
  return {
    session: session.id,
    model: session.config.model,
    entries: history.length,
    activeEntries: session.activeEntries().length,
    compactions: history.filter((e) => e.kind === 'compaction').length,
    tokens: { total: state.totalTokens, active: state.activeTokens, byRole, byTool },
    contextWindow: budget.contextWindow,
    usable: budget.usable,
    limit: budget.limit,
    estimate: session.estimate(),
    decision,
  };
}

export function formatStats(s: SessionStats): string {
  const lines = [
    `session ${s.session}  model ${s.model}  window ${s.contextWindow}  usable ${s.usable ?? 'unlimited'}  trigger at ${s.limit ?? 'never'}`,
    `entries ${s.entries} (${s.activeEntries} in view)  compactions ${s.compactions}`,
    `tokens: ${s.tokens.total} appended in all, ${s.tokens.active} in the current view; next prompt ≈ ${s.estimate.tokens} (${s.estimate.method})`,
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
