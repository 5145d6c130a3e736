import type { Candidates } from './candidates.js';
import { type Checkpoint, type Choice, candidateLimit, Event, Greedy, type Trace } from './select.js';
import { EventLog } from './select-log.js';

/** Where a run with another room would first part from a traced run, and the checkpoint before that. */
interface Parting {
  trace: Trace;
  /** The first event whose outcome the new room changes (the trace's length: none). */
  event: number;
  checkpoint?: Checkpoint;
  /** The room the new run has left at the checkpoint. */
  left: number;
}

/**
 * Replays a trace's events with another room, in the same arithmetic a run would do: the room left
 * shrinks by each unit taken, and each comparison is made again. Until one comes out otherwise,
 * the new run does exactly what the traced one did.
 */
function parting(trace: Trace, room: number): Parting {
  const { checkpoints } = trace;
  const { kinds, costs, length } = trace.events;
  let left = room;
  let next = 0;
  let at: Parting = { trace, event: length, left: room };
  for (let e = 0; e < length; e++) {
    while (next < checkpoints.length && checkpoints[next]!.event === e)
      at = { trace, event: e, checkpoint: checkpoints[next++]!, left };
    const kind = kinds[e]!;
    const cost = costs[e]!;
    if (kind === Event.Take) left -= cost;
    else if (kind === Event.Fits || kind === Event.Misfits) {
      if (!(cost > left) !== (kind === Event.Fits)) return { ...at, event: e };
    } else if (left > 0 !== (kind === Event.Open)) return { ...at, event: e };
  }
  return { ...at, event: length };
}

/** Earlier runs a new run looks at for where to start. */
const NEAREST = 2;

/**
 * chooseUnits for the rounds of fitting one summary to its budget, which ask for the same
 * candidates with rooms that differ by a few per cent: each run is traced, and a run for a new room
 * starts from the last checkpoint before it would part from the closest earlier run, instead of
 * from the start. Same results as chooseUnits, room for room.
 */
export function resumableChooser(c: Candidates, every?: number): (room: number) => Choice {
  const traces: Trace[] = [];
  return (room) => {
    const limit = candidateLimit(c, room);
    let best: Parting | undefined;
    // The runs with the nearest rooms part last from this one: only they are replayed.
    const near = traces
      .filter((t) => t.limit === limit)
      .sort((a, b) => Math.abs(a.room - room) - Math.abs(b.room - room))
      .slice(0, NEAREST);
    for (const t of near) {
      const p = parting(t, room);
      if (p.event === t.events.length) return { chosen: new Set(t.chosen), unbounded: t.unbounded };
      if (p.checkpoint && (best?.checkpoint === undefined || p.checkpoint.event > best.checkpoint.event))
        best = p;
    }
    const trace: Trace = {
      room,
      limit,
      events: new EventLog(),
      chosen: [],
      checkpoints: [],
      unbounded: true,
    };
    const run = new Greedy(c, room, trace, every);
    const choice =
      best?.checkpoint === undefined
        ? run.start().finish()
        : run.resume(best.trace, best.checkpoint, best.left).finish();
    traces.push(trace);
    return choice;
  };
}
