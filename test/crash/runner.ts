/**
 * Runs crash children for one store and operation, and checks the store after each (check.ts).
 * Children on one place run one after another, each continuing what the last one left (so
 * recovery from a recovered state is tested too); a new place replays a dry run exactly (same
 * cycles from 0), so a kill point the dry run passed is reached there. A violation fails the test
 * with the kill, the seed and the child's last lines.
 */
import { expect } from 'vitest';
import { checkAfterKill } from './check.js';
import type { Snapshot } from './history.js';
import type { CrashOp } from './ops.js';
import { pointsOf } from './plan.js';
import { type ChildRun, describeKill, type Kill, runChild } from './spawn.js';
import type { CrashStore } from './stores.js';
import { transcript } from './verdict.js';

export class CrashRunner {
  readonly tally = { kills: 0, old: 0, new: 0, between: 0, replayed: 0, childMs: 0, checkMs: 0 };
  /** Per place: the next cycle number, and what the last check left (nothing of it may be lost). */
  private readonly places = new Map<string, { cycle: number; known: Snapshot }>();
  private made = 0;

  constructor(
    private readonly childFile: string,
    private readonly crash: CrashStore,
    private readonly op: CrashOp,
    private readonly inputs: string,
    readonly seed: number,
  ) {}

  /** A new, empty place for the store. */
  async fresh(): Promise<string> {
    const place = await this.crash.place(`${this.op.name}-${this.made++}`);
    this.places.set(place, { cycle: 0, known: new Map() });
    return place;
  }

  /** Runs a child on `place` until `kill`, then checks the store. */
  async run(kill: Kill, place: string): Promise<ChildRun> {
    const at = this.places.get(place)!;
    const { crash, op } = this;
    const args = [crash.kind, place, op.name, String(at.cycle), String(op.cycles), this.inputs];
    const started = Date.now();
    const run = await runChild(this.childFile, args, kill);
    const ran = Date.now();
    this.tally.childMs += ran - started;
    // The next child starts with the cycle this one did not finish: a killed import is run again.
    at.cycle = nextCycle(run, at.cycle);
    const where = `${crash.kind} ${op.name}, seed ${this.seed}, ${describeKill(kill)}`;
    const tail = `${run.lines.slice(-6).join('\n')}\n${run.stderr}`;
    expect(ended(run) || run.signal === 'SIGKILL', `${where}: the child failed\n${tail}`).toBe(true);
    await crash.settled?.(run.pid);
    const checked = await checkAfterKill(
      async () => crash.open(place),
      transcript(run.lines),
      op,
      at.known,
      crash.check,
    );
    at.known = checked.after;
    this.tally.checkMs += Date.now() - ran;
    expect(checked.violations, `${where}\n${tail}`).toEqual([]);
    if (run.signal === 'SIGKILL') {
      this.tally.kills++;
      this.tally[checked.inFlight ?? 'between']++;
    }
    return run;
  }

  /** The kill points of a child run to its end on `place`. */
  async dry(place: string): Promise<string[]> {
    return pointsOf((await this.run({ kind: 'none' }, place)).lines);
  }

  /**
   * A kill at a step the dry run passed: on `place`, or — when a continuing child never got there
   * (the state it started from had nothing to prune, say) — replayed on a new place.
   */
  async reach(kill: Kill, place: string): Promise<void> {
    if ((await this.run(kill, place)).signal === 'SIGKILL') return;
    this.tally.replayed++;
    const replay = await this.run(kill, await this.fresh());
    expect(
      replay.signal,
      `${this.crash.kind} ${this.op.name}, seed ${this.seed}: never reached ${describeKill(kill)}`,
    ).toBe('SIGKILL');
  }
}

const ended = (run: ChildRun) => run.status === 0 && run.lines.at(-1) === 'end';

function nextCycle(run: ChildRun, first: number): number {
  const done = run.lines.filter((l) => l.startsWith('cycle ')).map((l) => Number(l.slice(6)));
  return done.length === 0 ? first : done.at(-1)! + 1;
}
