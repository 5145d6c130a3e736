import { heuristicEstimator } from '../../src/tokens/estimator.js';
import { exactEstimator } from '../../src/tokens/exact.js';
import { type CalibrationState, hybridEstimate, updateCalibration } from '../../src/tokens/calibration.js';
import type { SessionState } from '../../src/model/session.js';
import { claudeCodeSessions, replayClaudeCode } from './claude-code-replay.js';

const est = process.argv[2] === 'exact' ? exactEstimator() : heuristicEstimator();
const errs = { hybrid: [] as number[], calibrated: [] as number[], plain: [] as number[] };
for (const f of claudeCodeSessions()) {
  let activeRaw = 0, added = 0; let lastUsage: SessionState['lastUsage'] = null; let cal: CalibrationState | undefined;
  const per: string[] = [];
  for (const ev of replayClaudeCode(f, est)) {
    if (ev.kind === 'message') { activeRaw += ev.raw; added += ev.raw; continue; }
    if (ev.kind === 'compact') { activeRaw = 0; added = 0; lastUsage = null; continue; }
    const y = ev.usage.inputTotal;
    const h = hybridEstimate({ lastUsage, addedSinceUsage: added, activeRaw, overheadRaw: 0, calibration: cal });
    const c = hybridEstimate({ lastUsage: null, addedSinceUsage: added, activeRaw, overheadRaw: 0, calibration: cal });
    if (cal) { errs.hybrid.push(Math.abs(h.tokens - y) / y); errs.calibrated.push(Math.abs(c.tokens - y) / y); errs.plain.push(Math.abs(activeRaw - y) / y); }
    per.push(`${y}:${h.method[0]}${((h.tokens - y) / y * 100).toFixed(1)}/${((c.tokens - y) / y * 100).toFixed(1)} r${cal?.ratio.toFixed(2)} c${Math.round(cal?.residual ?? 0)}`);
    cal = updateCalibration(cal, { reportedInput: y, logRaw: activeRaw, overheadRaw: 0 });
    lastUsage = { usage: ev.usage, afterSeq: 0 }; added = 0;
  }
  console.log(f.split('/').pop(), (process.argv[3] ? per : per.slice(0, 12)).join(' | '));
}
const stat = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return `mean ${(100 * a.reduce((x, y) => x + y, 0) / a.length).toFixed(2)}% median ${(100 * s[Math.floor(s.length / 2)]!).toFixed(2)}% p90 ${(100 * s[Math.floor(s.length * 0.9)]!).toFixed(2)}% max ${(100 * s[s.length - 1]!).toFixed(1)}% n=${a.length}`; };
for (const [k, v] of Object.entries(errs)) console.log(k, stat(v));
