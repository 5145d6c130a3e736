import type { LocomoRow } from './locomo-eval.js';
import type { PlantedRow } from './planted.js';
import type { SessionScores } from './sessions.js';

/** One threshold condense must meet, checked on a report. */
export interface EvalCheck {
  name: string;
  pass: boolean;
  detail: string;
}

export type SessionRow = { strategy: string } & SessionScores;

export interface EvalReport {
  data: string;
  locomo: {
    conversations: number;
    questions: number;
    rows: LocomoRow[];
    /** condense and keep-newest at 25% on conversations 6–10 alone: the salience weights were fitted on 1–5. */
    heldOut: LocomoRow[];
  };
  sessions: { count: number; rows: SessionRow[] };
  planted: { window: number; rows: Partial<Record<string, PlantedRow[]>> };
  estimate: { requests: number; calibrated: Stats; plain: Stats };
  checks: EvalCheck[];
  millis: number;
}

export interface Stats {
  mean: number;
  median: number;
  p90: number;
}
