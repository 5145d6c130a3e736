import { readFileSync } from 'node:fs';
import { InputError } from '../model/errors.js';

/** One LoCoMo question: the turns (dia_ids) that hold its evidence, and its answer when it has one. */
export interface LocomoQuestion {
  question: string;
  answer?: string;
  evidence: string[];
  category: number;
}

/** One turn as the dataset has it: who said it, when (its session's date), and its words. */
export interface LocomoTurn {
  id: string;
  speaker: string;
  /** Speaker A talks as the user, speaker B as the assistant. */
  role: 'user' | 'assistant';
  /** The turn's words, with "[shares …]" and the photo's caption where the speaker shared one. */
  text: string;
  /** The session's date as written ("1:56 pm on 8 May, 2023"), and as a time. */
  date: string;
  at: number;
}

/**
 * A LoCoMo conversation, to be written out in any of the layouts an application might use (see
 * layouts.ts). `turnText` is each turn's own words: what "kept verbatim" looks for.
 */
export interface LocomoConversation {
  id: string;
  turns: LocomoTurn[];
  turnText: Map<string, string>;
  questions: LocomoQuestion[];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
type RawConversation = Record<string, unknown> & { speaker_a: string; speaker_b: string };
interface RawSample {
  sample_id: string;
  conversation: RawConversation;
  qa: Array<{ question: string; answer?: unknown; evidence?: unknown; category: number }>;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "1:56 pm on 8 May, 2023" → ms since epoch (UTC), or undefined when the text is not that shape. */
export function parseLocomoDate(text: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) (\w+),? (\d{4})$/i.exec(text.trim());
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[5]!.slice(0, 3).toLowerCase());
  if (month < 0) return undefined;
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/** Evidence ids as listed; a few entries hold several ids in one string ("D8:6; D9:17"). */
function evidenceIds(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e) => (typeof e === 'string' ? (e.match(/D\d+:\d+/g) ?? []) : []));
}

function sessionKeys(c: RawConversation): string[] {
  return Object.keys(c)
    .filter((k) => /^session_\d+$/.test(k) && Array.isArray(c[k]))
    .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
}

/** A conversation's turns, in order, each timed at its session's date, 30 s apart. */
export function locomoConversation(sample: RawSample): LocomoConversation {
  const c = sample.conversation;
  const turns: LocomoTurn[] = [];
  const turnText = new Map<string, string>();
  for (const key of sessionKeys(c)) {
    const date = String(c[`${key}_date_time`] ?? '');
    const start = parseLocomoDate(date);
    if (start === undefined)
      throw new InputError(`unreadable date '${date}'`, { field: `${sample.sample_id}.${key}_date_time` });
    (c[key] as RawTurn[]).forEach((turn, i) => {
      const text = turn.blip_caption ? `${turn.text}\n[shares ${turn.blip_caption}]` : turn.text;
      const role = turn.speaker === c.speaker_a ? 'user' : 'assistant';
      turns.push({ id: turn.dia_id, speaker: turn.speaker, role, text, date, at: start + i * 30_000 });
      turnText.set(turn.dia_id, turn.text);
    });
  }
  const questions = sample.qa.map((q) => ({
    question: q.question,
    ...(q.answer === undefined || q.answer === null ? {} : { answer: String(q.answer) }),
    evidence: evidenceIds(q.evidence).filter((id) => turnText.has(id)),
    category: q.category,
  }));
  return { id: sample.sample_id, turns, turnText, questions };
}

/** Every conversation of locomo10.json, read in place (the data is CC BY-NC: never copied). */
export function loadLocomo(file: string): LocomoConversation[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError(`cannot read LoCoMo data (${(error as Error).message})`, { file });
  }
  if (!Array.isArray(raw)) throw new InputError('expected an array of conversations', { file });
  return (raw as RawSample[]).map((s) => locomoConversation(s));
}
