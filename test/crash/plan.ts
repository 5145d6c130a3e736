/**
 * Which kills a test injects, from a dry run's points: one at every named persistence step (at a
 * random occurrence of it), some at the N-th point of any name, and some by the parent's timer at
 * a random moment after a random cycle — where no kill point is, mid-statement, mid-write.
 */
import type { Kill } from './spawn.js';

/** A small seeded generator, so that a failing run can be repeated from the seed in its message. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The kill points a run passed, in order (`point NAME` lines). */
export const pointsOf = (lines: string[]) =>
  lines.filter((l) => l.startsWith('point ')).map((l) => l.slice(6));

/** The phase a point belongs to (`compact/append#2: tx begun` → `compact`). */
const phaseOf = (point: string) => point.slice(0, point.indexOf('/'));

export interface KillPlan {
  /** One at each step of the `focus` phases, each at a random occurrence of it. */
  named: Kill[];
  /**
   * The named kills with the random ones among them: a child's first points then often recover
   * what the kill before left half done (a JSONL rotation's renames), and are killed in turn.
   */
  mixed: { kill: Kill; named: boolean }[];
  /** One at each step of opening a new store (migrating, creating the session). */
  start: Kill[];
  /** At random: the N-th point of a run, one of its first points (recovering what a kill left), a timer. */
  spread: Kill[];
}

/** The kills for a test, from the points of a dry run that started the store. */
export function planKills(
  points: string[],
  focus: string[],
  cycles: number,
  spread: number,
  next: () => number,
): KillPlan {
  const counts = new Map<string, number>();
  for (const p of points) counts.set(p, (counts.get(p) ?? 0) + 1);
  const pick = (n: number) => Math.floor(next() * n);
  const named = [...counts]
    .filter(([name]) => focus.includes(phaseOf(name)))
    .map(([name, count]): Kill => ({ kind: 'point', at: `${name}@${1 + pick(count)}` }));
  const start = [...counts.keys()]
    .filter((name) => phaseOf(name) === 'open')
    .map((name): Kill => ({ kind: 'point', at: `${name}@1` }));
  const random: Kill[] = Array.from({ length: spread }, (_, i) => {
    if (i % 3 === 0) return { kind: 'point', at: `#${pick(points.length)}` };
    if (i % 3 === 1) return { kind: 'point', at: `#${pick(3)}` };
    return { kind: 'timer', afterCycles: pick(cycles), delayMs: next() * 40 };
  });
  const mixed = named.map((kill) => ({ kill, named: true }));
  for (const kill of random) mixed.splice(pick(mixed.length + 1), 0, { kill, named: false });
  return { named, mixed, start, spread: random };
}
