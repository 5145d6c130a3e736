import { readFileSync } from 'node:fs';
import { buildMessageEntry } from '../model/build.js';
import type { MessageEntry } from '../model/entry.js';
import { InputError } from '../model/errors.js';
import type { Message } from '../model/message.js';
import type { Estimator } from '../tokens/estimator.js';

/** One LoCoMo question: the turns (dia_ids) that hold its evidence, and its answer when it has one. */
export interface LocomoQuestion {
  question: string;
  answer?: string;
  evidence: string[];
  category: number;
}

/** A LoCoMo conversation as a condense log: speaker A is the user, speaker B the assistant. */
export interface LocomoConversation {
  id: string;
  entries: MessageEntry[];
  /** Each turn's own words (caption excluded), by dia_id: what "kept verbatim" looks for. */
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

/**
 * A conversation as messages: each turn's text, plus "[shares …]" with the photo's caption where the
 * speaker shared one (the dataset's stand-in for the image). Each turn is timed at its session's
 * date, 30 s apart, and named after its speaker (`metadata.name`).
 */
export function locomoConversation(sample: RawSample, estimator: Estimator): LocomoConversation {
  const c = sample.conversation;
  const entries: MessageEntry[] = [];
  const turnText = new Map<string, string>();
  for (const key of sessionKeys(c)) {
    const start = parseLocomoDate(String(c[`${key}_date_time`] ?? ''));
    if (start === undefined)
      throw new InputError(`unreadable date '${c[`${key}_date_time`]}'`, {
        field: `${sample.sample_id}.${key}_date_time`,
      });
    (c[key] as RawTurn[]).forEach((turn, i) => {
      const text = turn.blip_caption ? `${turn.text}\n[shares ${turn.blip_caption}]` : turn.text;
      const role = turn.speaker === c.speaker_a ? 'user' : 'assistant';
      const message = { role, parts: [{ type: 'text', text }], metadata: { name: turn.speaker } } as Message;
      const place = {
        sessionId: sample.sample_id,
        seq: entries.length,
        parentId: entries.at(-1)?.id ?? null,
      };
      entries.push(
        buildMessageEntry(message, { ...place, id: turn.dia_id, createdAt: start + i * 30_000 }, estimator),
      );
      turnText.set(turn.dia_id, turn.text);
    });
  }
  const questions = sample.qa.map((q) => ({
    question: q.question,
    ...(q.answer === undefined || q.answer === null ? {} : { answer: String(q.answer) }),
    evidence: evidenceIds(q.evidence).filter((id) => turnText.has(id)),
    category: q.category,
  }));
  return { id: sample.sample_id, entries, turnText, questions };
}

/** Every conversation of locomo10.json, read in place (the data is CC BY-NC: never copied). */
export function loadLocomo(file: string, estimator: Estimator): LocomoConversation[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError(`cannot read LoCoMo data (${(error as Error).message})`, { file });
  }
  if (!Array.isArray(raw)) throw new InputError('expected an array of conversations', { file });
  return (raw as RawSample[]).map((s) => locomoConversation(s, estimator));
}
