/**
 * One crash test per store for an operation: a dry run lists the persistence steps; then one kill
 * at each step of the operation (on one place, each child continuing the last), one at each step
 * of starting a store (each on a new place), and kills at random points and moments (runner.ts).
 * Prints what the kills found.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS, type OpName } from './ops.js';
import { planKills, random } from './plan.js';
import { CrashRunner } from './runner.js';
import { bundleChild } from './spawn.js';
import { type CrashStore, STORES } from './stores.js';

export interface SuiteOptions {
  /** Kills at random points and moments, besides one at each named step. */
  spread: number;
  /** Also kill at the steps of starting a store (migration, creating the session). */
  start?: boolean;
}

/** CRASH_SPREAD=N runs N random kills per store instead of the suite's few (a soak run). */
const SOAK = Number(process.env.CRASH_SPREAD ?? 0);

export function crashSuite(
  opName: OpName,
  suite: SuiteOptions,
  stores: readonly CrashStore[] = STORES,
): void {
  const op = OPS[opName];
  const opts = SOAK > 0 ? { ...suite, spread: SOAK } : suite;
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
      it(
        `${crash.kind}: the store reopens with the old or the new state, and works`,
        async (ctx) => {
          if (crash.available && !(await crash.available())) return ctx.skip();
          const runner = new CrashRunner(child.file, crash, op, inputs, Date.now());
          const place = await runner.fresh();
          const dry = await runner.dry(place);
          const next = random(runner.seed);
          const plan = planKills(dry, op.focus, op.cycles, opts.spread, next);
          for (const { kill, named } of plan.mixed)
            await (named ? runner.reach(kill, place) : runner.run(kill, place));
          // Where one transaction does all the writing, few kills land after it: draw more random
          // ones until a kill has left each state (a bounded number), so both are always checked.
          for (let extra = 0; extra < 24 && (runner.tally.old === 0 || runner.tally.new === 0); extra++)
            await runner.run(planKills(dry, [], op.cycles, extra + 1, next).spread.at(-1)!, place);
          if (opts.start) for (const kill of plan.start) await runner.reach(kill, await runner.fresh());
          const { kills, old, new: landed, between, replayed, childMs, checkMs } = runner.tally;
          console.log(
            `[crash] ${crash.kind} ${opName} (seed ${runner.seed}): ${kills} kills (${plan.named.length} at the operation's steps, ` +
              `${opts.start ? plan.start.length : 0} at start-up steps, ${replayed} of them on a new store; ${opts.spread} random); ` +
              `in a write: ${old} left the old state, ${landed} the new; ${between} between writes; 0 violations; children ${childMs} ms, checks ${checkMs} ms`,
          );
          expect(old).toBeGreaterThan(0);
          expect(landed).toBeGreaterThan(0);
        },
        120_000 + opts.spread * 5_000,
      );
    }
  });
}
