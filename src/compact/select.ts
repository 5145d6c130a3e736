import { type Candidates, wordsOf } from './candidates.js';
import { Flags, Heap, type HeapState } from './select-heap.js';
import type { EventLog } from './select-log.js';

export { type Candidates, prepareUnits } from './candidates.js';

/** Share of a unit's value that does not depend on its novelty (see chooseUnits). */
const BASE_SHARE = 0.3;
/** Candidates always considered, besides one per token of room (see chooseUnits). */
const MIN_CANDIDATES = 4_000;
/** Units whose value per token is within this factor are equal: the spread over the span decides. */
const STEP = Math.log(1.05);
/** Rounds of the greedy loop between two saved states of a traced run (by default). */
const CHECKPOINT_ROUNDS = 512;

export interface Choice {
  chosen: Set<number>;
  /**
   * The room limited nothing: every candidate was weighed and none was left out for its cost. Any
   * larger room chooses the same units.
   */
  unbounded: boolean;
}

/**
 * Where the room enters a run: a unit taken (the room left shrinks by its cost), a cost compared
 * with the room left (it fits or not), the loop's test that some room is left (open or spent).
 * Everything else a run does follows from the units and the outcomes of these.
 */
export const Event = { Take: 0, Fits: 1, Misfits: 2, Open: 3, Spent: 4 } as const;
export type Event = (typeof Event)[keyof typeof Event];

/** A run's state at the top of a round of its greedy loop. */
export interface Checkpoint {
  /** Events recorded before it. */
  event: number;
  /** Units chosen before it. */
  taken: number;
  rounds: number;
  unbounded: boolean;
  heap: HeapState;
  /** The lines, texts and words shown before it. */
  open: Uint8Array;
  seen: Uint8Array;
  covered: Uint8Array;
}

/** What a run did, in order: enough to start another run where the two would part (see select-resume). */
export interface Trace {
  room: number;
  limit: number;
  /** Per event: its kind, and the cost taken or compared (0 for the loop's test). */
  events: EventLog;
  chosen: number[];
  checkpoints: Checkpoint[];
  unbounded: boolean;
}

/** The candidates a room lets compete (see chooseUnits). */
export function candidateLimit(c: Candidates, room: number): number {
  return Math.min(c.ranked.length, MIN_CANDIDATES + Math.max(0, Math.floor(room)));
}

/**
 * One run of chooseUnits' lazy greedy choice, optionally traced, its state saved every `every`
 * rounds of the loop. A traced run can be started at a checkpoint of another run's trace: the
 * state there is saved whole: the heap, the units chosen and the flags.
 */
export class Greedy {
  private readonly open = new Flags();
  private readonly seen = new Flags();
  private readonly covered = new Flags();
  /** Units chosen by an untraced run. */
  private chosen: number[] = [];
  private readonly heap: Heap;
  private readonly limit: number;
  private left: number;
  private unbounded = true;
  private rounds = 0;

  constructor(
    private readonly c: Candidates,
    room: number,
    private readonly trace?: Trace,
    private readonly every = CHECKPOINT_ROUNDS,
  ) {
    this.left = room;
    this.limit = candidateLimit(c, room);
    this.heap = new Heap(this.limit, c.order);
  }

  /** The run from its start: tier 1 first, then the candidates by their bound. */
  start(): this {
    const { c } = this;
    for (let i = 0; i < c.units.length; i++) {
      if (c.units[i]!.tier !== 1) continue;
      const cost = this.costOf(i);
      if (this.fits(cost)) this.commit(i, cost);
    }
    // Keys start at full novelty (an upper bound) and are refined when they reach the top. On a huge
    // span only the best candidates by that bound compete: the rest could not make the cut.
    const { limit } = this;
    if (limit < c.ranked.length) this.unbounded = false;
    for (let k = 0; k < limit; k++) {
      const i = c.ranked[k]!;
      if (Number.isNaN(c.fullKey[i]!)) c.fullKey[i] = this.key(i, 1);
      this.heap.push(c.fullKey[i]!, i);
    }
    return this;
  }

  /** The run from a checkpoint of `from`, with `left` the room the new run has left there. */
  resume(from: Trace, at: Checkpoint, left: number): this {
    const { trace } = this;
    const chosen = from.chosen.slice(0, at.taken);
    if (trace) {
      trace.events = from.events.prefix(at.event);
      trace.checkpoints = from.checkpoints.filter((p) => p.event < at.event);
      trace.chosen = chosen;
    } else this.chosen = chosen;
    this.heap.restore(at.heap);
    this.open.restore(at.open);
    this.seen.restore(at.seen);
    this.covered.restore(at.covered);
    this.left = left;
    this.unbounded = at.unbounded;
    this.rounds = at.rounds;
    return this;
  }

  /** Runs the greedy loop to its end. */
  finish(): Choice {
    const { heap, trace } = this;
    while (heap.size > 0) {
      if (trace && this.rounds % this.every === 0)
        trace.checkpoints.push({
          event: trace.events.length,
          taken: trace.chosen.length,
          rounds: this.rounds,
          unbounded: this.unbounded,
          heap: heap.save(),
          open: this.open.save(),
          seen: this.seen.save(),
          covered: this.covered.save(),
        });
      this.rounds++;
      const open = this.left > 0;
      this.record(open ? Event.Open : Event.Spent, 0);
      if (!open) break;
      const i = heap.pop();
      // What cannot fit any more is dropped before its words are read.
      const cost = this.costOf(i);
      if (!this.fits(cost)) continue;
      const now = this.key(i, this.novelty(i));
      if (now < heap.peek()) heap.push(now, i);
      else this.commit(i, cost);
    }
    if (heap.size > 0) this.unbounded = false;
    if (trace) trace.unbounded = this.unbounded;
    return { chosen: new Set(this.trace?.chosen ?? this.chosen), unbounded: this.unbounded };
  }

  private record(kind: Event, cost: number): void {
    if (this.trace === undefined) return;
    this.trace.events.push(kind, cost);
  }

  /** A unit's cost now: its own, and its line's label unless a piece of the line is shown. */
  private costOf(i: number): number {
    const { c } = this;
    return c.cost[i]! + (this.open.has(c.line[i]!) ? 0 : c.label[i]!);
  }

  private fits(cost: number): boolean {
    const fits = !(cost > this.left);
    this.record(fits ? Event.Fits : Event.Misfits, cost);
    if (!fits) this.unbounded = false;
    return fits;
  }

  /** Shows a unit that fits, unless its text is shown already. */
  private commit(i: number, cost: number): void {
    const { c } = this;
    const ids = wordsOf(c, i);
    const text = c.textIds[i]!;
    if (text >= 0) {
      if (this.seen.has(text)) return;
      this.seen.add(text);
    }
    for (let k = 0; k < ids.length; k++) this.covered.add(ids[k]!);
    (this.trace?.chosen ?? this.chosen).push(i);
    this.open.add(c.line[i]!);
    this.left -= cost;
    this.record(Event.Take, cost);
  }

  /** The share of a unit's words not shown yet. */
  private novelty(i: number): number {
    const ids = wordsOf(this.c, i);
    if (ids.length === 0) return 1;
    let fresh = 0;
    for (let k = 0; k < ids.length; k++) if (!this.covered.has(ids[k]!)) fresh++;
    return fresh / ids.length;
  }

  /** A line's label is part of what its first piece costs: counted for ordering on every piece. */
  private key(i: number, fresh: number): number {
    const { c } = this;
    const r = (c.value[i]! * (BASE_SHARE + (1 - BASE_SHARE) * fresh)) / (c.cost[i]! + c.label[i]!);
    return Math.floor(Math.log(r) / STEP);
  }
}

/**
 * The units to show within `room` tokens: tier 1 first in their order, then tier 2 by value per
 * token — most informative first, wherever they stand in the span. Redundancy is removed: a
 * unit's value shrinks with the share of its words already shown, and texts already chosen are
 * not chosen twice. The first unit of a line also pays for the line's label. Units of about equal
 * worth are taken spread over the span. Pure and deterministic (lazy greedy: a unit's worth only
 * falls as more is shown; `c`'s memos change no result).
 */
export function chooseUnits(c: Candidates, room: number): Choice {
  return new Greedy(c, room).start().finish();
}
