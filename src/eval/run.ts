import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModel } from 'ai';
import {
  type CompactionPlan,
  extractiveSummarizer,
  llmSummarizer,
  type Summarizer,
} from '../compact/index.js';
import { type Estimator, heuristicEstimator } from '../tokens/estimator.js';
import { estimateErrors } from './estimate.js';
import { loadLocomo } from './locomo.js';
import { evalLocomo, type LocomoRow, type Strategy } from './locomo-eval.js';
import { evalPlanted, type PlantedRow } from './planted.js';
import { evalSessions, loadSessions, SESSION_CAP, SESSION_SHARE, type SessionScores } from './sessions.js';
import { condensed, evenSample, newestTail } from './strategies.js';
import { type EvalCheck, thresholds } from './thresholds.js';

export interface EvalOptions {
  /** The shared data folder (holding locomo/ and agent-sessions/). */
  data: string;
  /** Also evaluate an LLM summarizer with this model. */
  llm?: { model: LanguageModel; label: string };
  /** Only the first n LoCoMo conversations (the test's quick subset). */
  conversations?: number;
}

export type SessionRow = { strategy: string } & SessionScores;

export interface EvalReport {
  data: string;
  locomo:
    | {
        conversations: number;
        questions: number;
        rows: LocomoRow[];
        /** The same on conversations 6–10 alone: the salience weights were fitted on 1–5. */
        heldOut: LocomoRow[];
      }
    | { skipped: string };
  sessions: { count: number; rows: SessionRow[] } | { skipped: string };
  planted: { summaryTokens: number; window: number; rows: Partial<Record<string, PlantedRow[]>> };
  estimate: { requests: number; calibrated: Stats; plain: Stats } | { skipped: string };
  checks: EvalCheck[];
  millis: number;
}

export interface Stats {
  mean: number;
  median: number;
  p90: number;
}

function stats(a: readonly number[]): Stats {
  const s = [...a].sort((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN;
  return { mean: s.reduce((x, y) => x + y, 0) / Math.max(1, s.length), median: at(0.5), p90: at(0.9) };
}

/** The summary budget of the planted-facts run: half the default, so that choosing matters. */
export const PLANTED_SUMMARY_TOKENS = 2_000;
const PLANTED_WINDOW = 12_000;

function strategies(estimator: Estimator, llm: EvalOptions['llm']): Array<[string, Strategy]> {
  const list: Array<[string, Strategy]> = [
    [
      'condense',
      (e, b) => condensed(e, b, (n) => extractiveSummarizer({ contextTokens: n, estimator }), estimator),
    ],
  ];
  if (llm) {
    // A model cannot be held to a budget: it is asked for at most what the tail leaves.
    const make = (n: number, plan: CompactionPlan): Summarizer =>
      llmSummarizer({
        model: llm.model,
        maxOutputTokens: Math.max(256, n - plan.predictedTailTokens),
        estimator,
      });
    list.push([`condense (${llm.label})`, (e, b) => condensed(e, b, make, estimator)]);
  }
  list.push(
    ['newest-tail', async (e, b) => newestTail(e, b)],
    ['even-sample', async (e, b) => evenSample(e, b)],
  );
  return list;
}

/** Runs every part of the evaluation whose data is present. Deterministic without `llm`. */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const started = Date.now();
  const estimator = heuristicEstimator();
  const list = strategies(estimator, options.llm);
  const locomoFile = join(options.data, 'locomo', 'locomo10.json');
  let locomo: EvalReport['locomo'] = { skipped: `${locomoFile} is absent` };
  if (existsSync(locomoFile)) {
    const conversations = loadLocomo(locomoFile, estimator).slice(0, options.conversations);
    const rows = await evalLocomo(conversations, list, [0.25, 0.5]);
    const heldOut = await evalLocomo(
      conversations.slice(5),
      list.slice(0, 1).concat(list.filter(([n]) => n === 'newest-tail')),
      [0.25],
    );
    const questions = conversations.reduce((a, c) => a + c.questions.length, 0);
    locomo = { conversations: conversations.length, questions, rows, heldOut };
  }
  const sessionDir = join(options.data, 'agent-sessions');
  let sessions: EvalReport['sessions'] = { skipped: `${sessionDir} is absent` };
  let estimate: EvalReport['estimate'] = { skipped: `${sessionDir} is absent` };
  if (existsSync(sessionDir)) {
    const loaded = loadSessions(sessionDir, estimator);
    sessions = { count: loaded.length, rows: await evalSessions(loaded, list) };
    const errors = estimateErrors(loaded.map((s) => s.imported));
    estimate = {
      requests: errors.calibrated.length,
      calibrated: stats(errors.calibrated),
      plain: stats(errors.plain),
    };
  }
  const planted: EvalReport['planted'] = {
    summaryTokens: PLANTED_SUMMARY_TOKENS,
    window: PLANTED_WINDOW,
    rows: {},
  };
  planted.rows.condense = await evalPlanted(
    extractiveSummarizer({ summaryTokens: PLANTED_SUMMARY_TOKENS, estimator }),
    estimator,
    8,
    PLANTED_WINDOW,
  );
  if (options.llm)
    planted.rows[`condense (${options.llm.label})`] = await evalPlanted(
      llmSummarizer({ model: options.llm.model, maxOutputTokens: PLANTED_SUMMARY_TOKENS, estimator }),
      estimator,
      8,
      PLANTED_WINDOW,
    );
  const report = {
    data: options.data,
    locomo,
    sessions,
    planted,
    estimate,
    checks: [],
    millis: 0,
  } as EvalReport;
  report.checks = thresholds(report);
  report.millis = Date.now() - started;
  return report;
}

export { SESSION_CAP, SESSION_SHARE };
