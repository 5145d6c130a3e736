/**
 * One crash test per store for an operation: a dry run lists the persistence steps, then children
 * are killed one after another on the same store (each continuing what the last one left, so
 * recovery from a recovered state is tested too), and after every kill the store is checked
 * (check.ts). Kills at the steps of starting a store (migrating, creating the session), which a
 * continuing child never passes, each get a new store. Stops at the first violation, with the kill and the child's last lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAfterKill } from './check.js';
import type { Snapshot } from './history.js';
import { OPS, type OpName } from './ops.js';
import { planKills, pointsOf, random } from './plan.js';
import { bundleChild, type ChildRun, describeKill, type Kill, runChild } from './spawn.js';
import { type CrashStore, STORES } from './stores.js';
import { transcript } from './verdict.js';

interface Tally {
  kills: number;
  old: number;
  new: number;
  between: number;
}

export interface SuiteOptions {
  /** Kills at random points and moments, besides one at each named step. */
  spread: number;
  /** Also kill at the steps of starting a store (migration, creating the session). */
  start?: boolean;
}

export function crashSuite(opName: OpName, opts: SuiteOptions, stores: readonly CrashStore[] = STORES): void {
  const op = OPS[opName];
  let child: Awaited<ReturnType<typeof bundleChild>>;
  const inputs = mkdtempSync(join(tmpdir(), 'condense-crash-inputs-'));
  beforeAll(async () => {
    child = await bundleChild();
    await op.inputs?.(inputs);
  });
  afterAll(async () => {
    child?.remove();
    rmSync(inputs, { recursive: true, force: true });
    for (const s of stores) await s.cleanup();
  });

  describe.concurrent(`SIGKILL at any persistence step of ${opName}`, () => {
    for (const crash of stores) {
      it(`${crash.kind}: the store reopens with the old or the new state, and works`, async (ctx) => {
        if (crash.available && !(await crash.available())) return ctx.skip();
        const seed = Date.now();
        const next = random(seed);
        let places = 0;
        const fresh = async () => crash.place(`${opName}-${places++}`);
        const place = await fresh();
        let cycle = 0;
        const tally: Tally = { kills: 0, old: 0, new: 0, between: 0 };
        const reached = new Set<Kill>();
        /** Per place, what the last check left: the next child must not lose any of it. */
        const known = new Map<string, Snapshot>();
        let childMs = 0;
        let checkMs = 0;

        /** Runs a child on `at`, checks the store, fails the test on a violation. */
        async function killed(kill: Kill, at = place): Promise<ChildRun> {
          const args = [crash.kind, at, opName, String(cycle), String(op.cycles), inputs];
          const t0 = Date.now();
          const run = await runChild(child.file, args, kill);
          const t1 = Date.now();
          childMs += t1 - t0;
          cycle += op.cycles + 1;
          const where = `${crash.kind} ${opName}, seed ${seed}, ${describeKill(kill)}`;
          const tail = `${run.lines.slice(-6).join('\n')}\n${run.stderr}`;
          const ended = run.status === 0 && run.lines.at(-1) === 'end';
          expect(ended || run.signal === 'SIGKILL', `${where}: the child failed\n${tail}`).toBe(true);
          const t = transcript(run.lines);
          const checked = await checkAfterKill(
            async () => crash.open(at),
            t,
            op,
            known.get(at) ?? new Map(),
            crash.check,
          );
          known.set(at, checked.after);
          checkMs += Date.now() - t1;
          expect(checked.violations, `${where}\n${tail}`).toEqual([]);
          if (run.signal === 'SIGKILL') {
            reached.add(kill);
            tally.kills++;
            tally[checked.inFlight ?? 'between']++;
          }
          return run;
        }

        const dry = await killed({ kind: 'none' });
        const plan = planKills(pointsOf(dry.lines), op.focus, op.cycles, opts.spread, next);
        const start = opts.start ? plan.start : [];
        for (const kill of plan.named) await killed(kill);
        for (const kill of start) await killed(kill, await fresh());
        const missed = [...plan.named, ...start].filter((kill) => !reached.has(kill)).map(describeKill);
        expect(missed, `${crash.kind} ${opName}, seed ${seed}: kill points never reached`).toEqual([]);
        for (const kill of plan.spread) await killed(kill);
        console.log(
          `[crash] ${crash.kind} ${opName} (seed ${seed}): ${tally.kills} kills: ${plan.named.length} named steps, ${start.length} start-up steps, ${opts.spread} random points/moments; ` +
            `in a write: ${tally.old} left old, ${tally.new} left new; ${tally.between} between writes; 0 violations; children ${childMs} ms, checks ${checkMs} ms`,
        );
        expect(tally.old + tally.new).toBeGreaterThan(0);
      }, 60_000);
    }
  });
}
