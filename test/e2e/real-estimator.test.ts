/**
 * The hybrid estimate on replayed Claude Code sessions WITH compactions in the middle. Before each
 * step the session's estimate of the prompt (prepare().tokens) is compared with what the
 * simulated provider then reports for that very prompt (replay.ts: o200k_base tokens of the
 * Anthropic request plus undeclared framing). Between compactions the estimate is the last usage
 * plus the calibrated delta; right after one there is no usage for the new context, so it falls
 * back to the calibrated local count (ratio × raw + residual). Figures are reported, with only
 * sanity assertions: the real-usage accuracy is measured in test/tokens/calibration-real.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { replay, type StepFigure } from './replay.js';
import { HAS_DATA, loadFamily, noticeIfNoData, stats } from './support.js';

noticeIfNoData('hybrid estimator over compacted Claude Code replays');

const error = (estimate: number, truth: number) => Math.abs(estimate - truth) / truth;

function line(label: string, figures: StepFigure[], pick: (f: StepFigure) => number): string {
  const e = figures.map((f) => error(pick(f), f.truth));
  const bias = stats.mean(figures.map((f) => (pick(f) - f.truth) / f.truth));
  const q = (x: number) => stats.pct(stats.quantile(e, x));
  return `  ${label.padEnd(34)} n=${String(e.length).padStart(3)}  |error| mean ${stats.pct(stats.mean(e))}  median ${q(0.5)}  p90 ${q(0.9)}  max ${q(1)}  bias ${bias >= 0 ? '+' : ''}${stats.pct(bias)}`;
}

describe.skipIf(!HAS_DATA)(
  'hybrid estimate vs the simulated provider across compactions (Claude Code)',
  () => {
    it('falls back to calibrated figures after each compaction and stays usable', async () => {
      const sessions = loadFamily('claude-code');
      expect(sessions).toHaveLength(4);
      const all: StepFigure[] = [];
      let compactions = 0;
      for (const real of sessions) {
        const r = await replay(real);
        expect(r.errors).toEqual([]);
        compactions += r.compactions;
        // The first step of a session has nothing learned yet: reported apart.
        all.push(...r.figures.map((f, i) => ({ ...f, first: i === 0 })));
      }
      const first = all.filter((f) => (f as StepFigure & { first: boolean }).first);
      const later = all.filter((f) => !(f as StepFigure & { first: boolean }).first);
      const steady = later.filter((f) => f.method === 'usage+delta');
      const afterCompaction = later.filter((f) => f.compactedHere);
      console.log(
        [
          `[e2e estimator] 4 Claude Code sessions, ${all.length} prepared prompts, ${compactions} compactions; truth = simulated provider`,
          line('usage+delta (between compactions)', steady, (f) => f.estimate),
          line('calibrated, right after compaction', afterCompaction, (f) => f.estimate),
          line('  plain chars/4 at the same points', afterCompaction, (f) => f.raw),
          line('first call (nothing learned)', first, (f) => f.estimate),
          line('plain chars/4, every call', all, (f) => f.raw),
        ].join('\n'),
      );
      // One prepare() runs at most one compaction, and none can run before the first step.
      expect(afterCompaction.length).toBe(compactions);
      expect(compactions).toBeGreaterThan(sessions.length);
      // A compaction clears the provider's last count: the estimate is the calibrated local count.
      for (const f of afterCompaction) expect(f.method).toBe('calibrated');
      for (const f of all) {
        expect(Number.isFinite(f.estimate)).toBe(true);
        expect(f.estimate).toBeGreaterThan(0);
      }
      // Sanity only (measured: 3.7% between compactions, 19% right after one; see the report).
      const mean = (list: StepFigure[]) => stats.mean(list.map((f) => error(f.estimate, f.truth)));
      expect(mean(steady)).toBeLessThan(0.25);
      expect(mean(afterCompaction)).toBeLessThan(0.6);
    });
  },
);
