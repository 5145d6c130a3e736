import { describe, expect, it } from 'vitest';
import type { SessionState } from '../../src/model/session.js';
import { type CalibrationState, hybridEstimate, updateCalibration } from '../../src/tokens/calibration.js';
import { type Estimator, heuristicEstimator } from '../../src/tokens/estimator.js';
import { exactEstimator } from '../../src/tokens/exact.js';
import { claudeCodeSessions, replayClaudeCode } from './claude-code-replay.js';

/**
 * Replays the real Claude Code sessions call by call: before each call's usage is revealed, the
 * hybrid estimate of its prompt is made from what an agent would know at that point (the previous
 * usage, the entries appended since, the calibration learned so far), then the usage is fed to the
 * calibration. The prompt truth is input + cache read + cache creation as Anthropic reported it.
 * No overhead is declared: Claude Code's ~27k–51k tokens of system prompt and tools are unknown
 * to us, which is exactly what the residual has to learn.
 */
const sessions = claudeCodeSessions();

interface Errors {
  hybrid: number[];
  plain: number[];
  firstCall: number[];
  afterCompaction: number[];
  ratios: number[];
}

function replay(estimator: Estimator): Errors {
  const out: Errors = { hybrid: [], plain: [], firstCall: [], afterCompaction: [], ratios: [] };
  for (const file of sessions) {
    let activeRaw = 0;
    let added = 0;
    let lastUsage: SessionState['lastUsage'] = null;
    let compacted = false;
    let cal: CalibrationState | undefined;
    for (const ev of replayClaudeCode(file, estimator)) {
      if (ev.kind === 'message') {
        activeRaw += ev.raw;
        added += ev.raw;
      } else if (ev.kind === 'compact') {
        activeRaw = 0;
        added = 0;
        lastUsage = null; // seed 003 / C-22: no usage until the next call
        compacted = true;
      } else {
        const truth = ev.usage.inputTotal;
        const est = hybridEstimate({
          lastUsage,
          addedSinceUsage: added,
          activeRaw,
          overheadRaw: 0,
          calibration: cal,
        });
        const err = (n: number) => Math.abs(n - truth) / truth;
        if (!cal) out.firstCall.push(err(est.tokens));
        else {
          out.hybrid.push(err(est.tokens));
          out.plain.push(err(activeRaw)); // plain chars/4 of the log, what a naive check counts
          if (compacted) out.afterCompaction.push(err(est.tokens));
        }
        compacted = false;
        cal = updateCalibration(cal, { reportedInput: truth, logRaw: activeRaw, overheadRaw: 0 });
        lastUsage = { usage: ev.usage, model: ev.model, afterSeq: 0 };
        added = 0;
      }
    }
    if (cal) out.ratios.push(cal.ratio);
  }
  return out;
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)]!;
};
const p90 = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length * 0.9)]!;

describe.skipIf(sessions.length === 0)('hybrid estimate vs real Claude Code prompts', () => {
  if (sessions.length === 0) console.log('skipped: ../shared/data/agent-sessions/claude-code is absent');

  it.each([
    ['heuristic (chars/4)', heuristicEstimator()],
    ['exact (o200k_base)', exactEstimator()],
  ] as const)(
    '%s: the hybrid estimate is within a few percent, far better than chars/4',
    (name, estimator) => {
      const e = replay(estimator);
      console.log(
        [
          `[${name}] ${sessions.length} sessions, ${e.hybrid.length} calls after the first of each session`,
          `  hybrid         mean ${pct(mean(e.hybrid))}  median ${pct(median(e.hybrid))}  p90 ${pct(p90(e.hybrid))}`,
          `  plain (raw log) mean ${pct(mean(e.plain))}  median ${pct(median(e.plain))}  p90 ${pct(p90(e.plain))}`,
          `  first call of a session (nothing learned, overhead undeclared): mean ${pct(mean(e.firstCall))}`,
          `  first call after a compaction (calibrated, no usage): ${e.afterCompaction.map(pct).join(', ') || 'none'}`,
          `  learned ratios (provider / raw): ${e.ratios.map((r) => r.toFixed(2)).join(', ')}`,
        ].join('\n'),
      );
      expect(e.hybrid.length).toBeGreaterThan(150);
      // Measured: heuristic mean 1.15% / median 0.24% / p90 2.43%; exact 1.02% / 0.17% / 1.58%.
      expect(mean(e.hybrid)).toBeLessThan(0.03);
      expect(median(e.hybrid)).toBeLessThan(0.01);
      expect(p90(e.hybrid)).toBeLessThan(0.05);
      // Measured: plain chars/4 is off by about half (the system prompt and tools are invisible to it).
      expect(mean(e.plain)).toBeGreaterThan(10 * mean(e.hybrid));
      // The compaction in session 624a4a58 also shrank Claude Code's own prompt (51k → 36k of overhead);
      // the estimate errs high (safe) and stays within 60%. Measured: 41% (heuristic), 49% (exact).
      for (const x of e.afterCompaction) expect(x).toBeLessThan(0.6);
      // Claude counts more tokens than either local estimator: every learned ratio is above 1.
      for (const r of e.ratios) expect(r).toBeGreaterThan(1);
    },
  );
});
