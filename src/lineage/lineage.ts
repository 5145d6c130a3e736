import { isMarkerOnly } from '../compact/turns.js';
import {
  type ContextFormat,
  type ContextPayload,
  type RenderOptions,
  renderContext,
  type ViewOptions,
} from '../context/index.js';
import type { CompactionEntry, Entry } from '../model/entry.js';
import { deriveTurns, type TurnIndex } from './derive.js';
import { type CompactionTurn, NotACompactionError, type Turn, UnknownTurnError } from './turn.js';

/** What one compaction really covered: its window, split at the cut. */
export interface Coverage {
  compaction: CompactionTurn;
  /** The compaction whose summary this one summarized again (recursive, Nexus); null for the first. */
  previousCompaction: CompactionTurn | null;
  /**
   * Entries the summary stands for, in log order: the compacted view's messages through
   * summarizedThroughId (a previous compaction's kept tail included). Message entries only:
   * markers are in no span, and the previous summary is `previousCompaction`.
   */
  summarizedEntryIds: string[];
  /** Entries the view kept verbatim after the summary. */
  keptEntryIds: string[];
  /** Turns holding summarized entries; a turn the cut went through is in both lists. */
  summarizedTurns: Turn[];
  keptTurns: Turn[];
}

/**
 * Nexus's traversal over one session's log, read once. Each function is O(length of what it
 * walks); none is on the per-turn path (a turn never reads the whole log).
 */
export class Lineage {
  private constructor(
    private readonly index: TurnIndex,
    private readonly view: ViewOptions,
  ) {}

  /**
   * `model`: what a turn reports when its response does not record one (the session's model);
   * `view`: how buildContext renders (the session's system prompt, summary layout, placeholder).
   */
  static of(log: readonly Entry[], opts: { sessionId: string; model: string; view?: ViewOptions }): Lineage {
    return new Lineage(deriveTurns(log, opts.sessionId, opts.model), opts.view ?? {});
  }

  /** Every turn, in log order. */
  turns(): Turn[] {
    return [...this.index.turns];
  }

  /** The last turn: the session's head. */
  head(): Turn | undefined {
    return this.index.turns.at(-1);
  }

  turn(turnId: string): Turn {
    const at = this.index.position.get(turnId);
    if (at === undefined) throw new UnknownTurnError(this.index.sessionId, turnId);
    return this.index.turns[at]!;
  }

  /** The turn holding an entry. */
  turnOfEntry(entryId: string): Turn {
    const id = this.index.turnOfEntry.get(entryId);
    if (id === undefined) throw new UnknownTurnError(this.index.sessionId, entryId);
    return this.turn(id);
  }

  /** Root → `turnId` along parent links, compaction turns included. */
  getFullHistory(turnId: string): Turn[] {
    const history: Turn[] = [];
    for (let t: Turn | undefined = this.turn(turnId); t; t = this.parent(t)) history.push(t);
    return history.reverse();
  }

  /**
   * Nexus's literal walk: back from summarizedThroughTurnId, stopping at and including
   * the previous compaction. For the second compaction of the seed: [compact-001, turn-006].
   */
  getSummarizedTurns(compactionTurnId: string): Turn[] {
    const compaction = this.compaction(compactionTurnId);
    const turns: Turn[] = [];
    const start = this.index.position.get(compaction.summarizedThroughTurnId);
    for (let t = start === undefined ? undefined : this.index.turns[start]; t; t = this.parent(t)) {
      turns.push(t);
      if (t.turnType === 'compaction') break;
    }
    return turns.reverse();
  }

  /** The newest compaction on the way from `turnId` (itself included) to the root; null if none. */
  findLatestCompaction(turnId: string): CompactionTurn | null {
    for (let t: Turn | undefined = this.turn(turnId); t; t = this.parent(t)) {
      if (t.turnType === 'compaction') return t;
    }
    return null;
  }

  /**
   * The compaction whose summary stands for `turnId`, by real coverage: the first later
   * compaction that summarized through it or past it; for a compaction, the next one. After the
   * seed's second compaction, turn-004 (kept by the first) counts as summarized by the second.
   * Null while it is still in the view.
   */
  findCompactionThatSummarized(turnId: string): CompactionTurn | null {
    const turn = this.turn(turnId);
    const from = this.index.position.get(turn.id)!;
    for (let i = from + 1; i < this.index.turns.length; i++) {
      const t = this.index.turns[i]!;
      if (t.turnType !== 'compaction') continue;
      // A summary is always summarized again by the next compaction (recursive, Nexus).
      if (turn.turnType === 'compaction') return t;
      const through = this.index.position.get(t.summarizedThroughTurnId);
      if (through !== undefined && through >= from) return t;
    }
    return null;
  }

  /** A compaction's window split at its cut: what its summary really stands for, and what it kept. */
  getCoverage(compactionTurnId: string): Coverage {
    const compaction = this.compaction(compactionTurnId);
    const chain = this.ancestry(compaction).filter((e) => !(e.kind === 'message' && isMarkerOnly(e)));
    const self = chain.length - 1;
    const at = chain.findLastIndex((e, i) => i < self && e.kind === 'compaction');
    const previous = at < 0 ? undefined : (chain[at] as CompactionEntry);
    const start = previous === undefined ? 0 : viewStart(chain, previous, at);
    const through = chain.findIndex((e) => e.id === this.entryOf(compaction).pivot.summarizedThroughId);
    const summarized = chain.slice(start, through + 1).filter((e) => e.kind === 'message');
    const kept = chain.slice(through + 1, self).filter((e) => e.kind === 'message');
    const turnsOf = (entries: Entry[]) => [...new Set(entries.map((e) => this.index.turnOfEntry.get(e.id)!))];
    return {
      compaction,
      previousCompaction: previous === undefined ? null : (this.turn(previous.id) as CompactionTurn),
      summarizedEntryIds: summarized.map((e) => e.id),
      keptEntryIds: kept.map((e) => e.id),
      summarizedTurns: turnsOf(summarized).map((id) => this.turn(id)),
      keptTurns: turnsOf(kept).map((id) => this.turn(id)),
    };
  }

  /**
   * The context as of the end of `turnId` (Nexus "Context Assembly"): the latest compaction in
   * its ancestry gives the summary, then what it kept and everything after; with none, the whole
   * thread. Pruning marks are as stored now.
   */
  buildContext<F extends ContextFormat = 'ai-sdk'>(
    turnId: string,
    opts: Partial<RenderOptions<F>> = {},
  ): ContextPayload<F> {
    const format = (opts.format ?? 'ai-sdk') as F;
    return renderContext(this.ancestry(this.turn(turnId)), { ...this.view, ...opts, format });
  }

  /** Every entry from the root to the end of `turn`, along parent links. */
  ancestry(turn: Turn): Entry[] {
    return this.getFullHistory(turn.id).flatMap((t) => t.entryIds.map((id) => this.index.entries.get(id)!));
  }

  private parent(turn: Turn): Turn | undefined {
    return turn.parentTurnId === undefined ? undefined : this.turn(turn.parentTurnId);
  }

  private compaction(turnId: string): CompactionTurn {
    const turn = this.turn(turnId);
    if (turn.turnType !== 'compaction') throw new NotACompactionError(this.index.sessionId, turnId);
    return turn;
  }

  private entryOf(turn: CompactionTurn) {
    const entry = this.index.entries.get(turn.id);
    if (entry?.kind !== 'compaction') throw new Error(`turn ${turn.id} has no compaction entry`);
    return entry;
  }
}

/** Index in `chain` where the view after `pivot` (at `at`) starts: its first kept entry, or after it. */
function viewStart(chain: readonly Entry[], pivot: CompactionEntry, at: number): number {
  const firstKept = pivot.pivot.firstKeptId;
  const kept = firstKept === null ? -1 : chain.findIndex((e) => e.id === firstKept);
  return kept < 0 ? at + 1 : kept;
}
