import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModel } from 'ai';
import { InputError } from '../model/errors.js';
import { estimateErrors } from './estimate.js';
import { LOCOMO_LAYOUTS } from './layouts.js';
import { loadLocomo } from './locomo.js';
import { evalLocomo, type Strategy } from './locomo-eval.js';
import { evalPlanted } from './planted.js';
import { realCounter } from './real-count.js';
import type { EvalReport, Stats } from './report.js';
import { evalSessions, loadSessions, SESSION_CAP, SESSION_SHARE } from './sessions.js';
import { shippedContext } from './shipped.js';
import { evenSample, newestTail } from './strategies.js';
import { thresholds } from './thresholds.js';

export interface EvalOptions {
  /** The shared data folder (holding locomo/ and agent-sessions/). */
  data: string;
  /** Also evaluate an LLM summarizer with this model. */
  llm?: { model: Exclude<LanguageModel, string>; label: string };
  /** Only the first n LoCoMo conversations (the test's quick subset). */
  conversations?: number;
}

function stats(a: readonly number[]): Stats {
  const s = [...a].sort((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN;
  return { mean: s.reduce((x, y) => x + y, 0) / Math.max(1, s.length), median: at(0.5), p90: at(0.9) };
}

/** The window of the planted-facts run: small, so that eight compactions happen. */
const PLANTED_WINDOW = 12_000;

/**
 * The strategies compared at one budget: condense as shipped (default options, only the target
 * given), the LLM summary when a model is given, and the two baselines.
 */
function strategies(llm: EvalOptions['llm']): Array<[string, Strategy]> {
  const list: Array<[string, Strategy]> = [['condense', (m, b, count) => shippedContext(m, b, count)]];
  if (llm)
    list.push([
      `condense (${llm.label})`,
      (m, b, count) => shippedContext(m, b, count, { model: llm.model }),
    ]);
  list.push(
    [
      'newest-tail',
      async (m, b, count) =>
        newestTail(
          m.map((x) => x.message),
          b,
          count,
        ),
    ],
    [
      'even-sample',
      async (m, b, count) =>
        evenSample(
          m.map((x) => x.message),
          b,
          count,
        ),
    ],
  );
  return list;
}

function need(path: string, what: string): void {
  if (!existsSync(path))
    throw new InputError(`${what} is missing: the evaluation needs it (pass --data <dir>)`, { file: path });
}

/**
 * Runs every part of the evaluation. Missing data is an error, never a pass. Deterministic without
 * `llm`. Everything goes through the public session API with the default options; every context
 * is counted with the o200k tokenizer.
 */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const started = Date.now();
  const locomoFile = join(options.data, 'locomo', 'locomo10.json');
  const sessionDir = join(options.data, 'agent-sessions');
  need(locomoFile, 'the LoCoMo data (locomo/locomo10.json)');
  need(sessionDir, 'the real agent sessions (agent-sessions/)');
  const count = realCounter();
  const list = strategies(options.llm);
  const conversations = loadLocomo(locomoFile).slice(0, options.conversations);
  const rows = await evalLocomo(conversations, list, [0.25, 0.5], LOCOMO_LAYOUTS, count);
  const baseline = list.filter(([n]) => n === 'condense' || n === 'newest-tail');
  const heldOut = await evalLocomo(conversations.slice(5), baseline, [0.25], ['names'], count);
  const questions = conversations.reduce((a, c) => a + c.questions.length, 0);

  const loaded = loadSessions(sessionDir);
  if (loaded.length === 0) throw new InputError('no agent session found', { file: sessionDir });
  const sessions = { count: loaded.length, rows: await evalSessions(loaded, list, count) };
  const errors = estimateErrors(loaded.map((s) => s.imported));
  const planted: EvalReport['planted'] = { window: PLANTED_WINDOW, rows: {} };
  planted.rows.condense = await evalPlanted(undefined, 8, PLANTED_WINDOW);
  if (options.llm)
    planted.rows[`condense (${options.llm.label})`] = await evalPlanted(options.llm.model, 8, PLANTED_WINDOW);
  const report: EvalReport = {
    data: options.data,
    locomo: { conversations: conversations.length, questions, rows, heldOut },
    sessions,
    planted,
    estimate: {
      requests: errors.calibrated.length,
      calibrated: stats(errors.calibrated),
      plain: stats(errors.plain),
    },
    checks: [],
    millis: 0,
  };
  report.checks = thresholds(report);
  report.millis = Date.now() - started;
  return report;
}

export type { EvalReport, SessionRow } from './report.js';
export { SESSION_CAP, SESSION_SHARE };
