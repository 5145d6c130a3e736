import type { Lineage, Turn } from '../lineage/index.js';
import { messageText } from '../model/message.js';
import type { SessionSummary } from '../store/store.js';
import { table } from './io.js';

/** A fork of the session: which session, from which turn, how. */
export interface ForkRow {
  session: string;
  atTurn: string | null;
  mode: string;
}

/** The sessions forked from `id`, each placed at the turn holding its fork point. */
export function forksOf(id: string, sessions: SessionSummary[], lineage: Lineage): ForkRow[] {
  return sessions.flatMap((s) => {
    const from = s.metadata.forkedFrom;
    if (from === null || typeof from !== 'object' || Array.isArray(from) || from.session !== id) return [];
    const entryId = typeof from.entryId === 'string' ? from.entryId : '';
    let atTurn: string | null = null;
    try {
      atTurn = lineage.turnOfEntry(entryId).id;
    } catch {
      // The fork point is not in this session's log (written by other code): listed without a turn.
    }
    return [{ session: s.id, atTurn, mode: typeof from.mode === 'string' ? from.mode : 'exact' }];
  });
}

/** One line for a turn: its request, or what a compaction did. */
export function turnSummary(turn: Turn, number: (id: string | undefined) => string): string {
  if (turn.turnType === 'compaction') {
    const kept = turn.firstKeptTurnId ? `kept ${number(turn.firstKeptTurnId)}…` : 'kept nothing';
    return `compaction: summarized through ${number(turn.summarizedThroughTurnId)}, ${kept} (${turn.tokensBefore} → ${turn.tokensAfter} tokens)`;
  }
  const asked = turn.queryMessages.map(messageText).join(' ').trim();
  const text =
    asked === '' ? `(continues) ${turn.responseMessage ? messageText(turn.responseMessage) : ''}` : asked;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}

/** Turn ids as the `#n` the listing shows (1-based position in the session). */
export function numbering(lineage: Lineage): (id: string | undefined) => string {
  const at = new Map(lineage.turns().map((t, i) => [t.id, i + 1]));
  return (id) => (id === undefined ? '-' : at.has(id) ? `#${at.get(id)}` : id);
}

/** `history`: one row per turn of `turns`. */
export function historyTable(turns: Turn[], lineage: Lineage): string {
  const number = numbering(lineage);
  return table([
    ['#', 'turn', 'type', 'tokens', 'tools', 'when', 'what'],
    ...turns.map((t) => [
      number(t.id),
      t.id,
      t.turnType,
      t.tokenCount,
      t.toolCalls.length,
      new Date(t.timestamp).toISOString().slice(0, 19),
      turnSummary(t, number),
    ]),
  ]);
}

/** `tree`: the turn chain from the root to the head, pivots marked, forks under their turn. */
export function treeText(id: string, lineage: Lineage, forks: ForkRow[], forkedFrom: string | null): string {
  const number = numbering(lineage);
  const turns = lineage.turns();
  const head = lineage.head();
  const lines = [`session ${id}${forkedFrom ? ` (${forkedFrom})` : ''}: ${turns.length} turns`];
  for (const [i, t] of turns.entries()) {
    const last = i === turns.length - 1;
    const mark = t.turnType === 'compaction' ? '◆' : '●';
    const headNote = t.id === head?.id ? '  ← head' : '';
    lines.push(`${last ? '└─' : '├─'} ${mark} ${number(t.id)} ${turnSummary(t, number)}${headNote}`);
    for (const f of forks.filter((x) => x.atTurn === t.id)) {
      lines.push(`${last ? '  ' : '│ '}   ⑂ fork ${f.session} (${f.mode})`);
    }
  }
  for (const f of forks.filter((x) => x.atTurn === null))
    lines.push(`⑂ fork ${f.session} (${f.mode}), fork point not found`);
  return lines.join('\n');
}
