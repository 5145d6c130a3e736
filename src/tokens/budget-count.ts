import { createRequire } from 'node:module';
import { type Estimator, makeEstimator, type TextCounter } from './estimator.js';
import type { ExactEncoding } from './exact.js';

/**
 * The count a compaction's target is held to. An estimate that is a third too low turns a
 * "fits" into a rejected request, so a target is checked against the provider's own count where
 * it can be known:
 *
 * - after the provider reported usage, the session's learned ratio (its real tokens per local
 *   estimate) scales the local count: that is the provider's own tokenizer, measured;
 * - before any usage, OpenAI models (and models nobody named) are counted with their BPE
 *   encoding (o200k / cl100k);
 * - other providers' tokenizers are not public: the o200k count plus a margin, since Claude and
 *   Gemini count 10–40% more tokens than o200k on the same text (prose at the low end, code and
 *   JSON at the high end), until usage calibrates it;
 * - without the tokenizer package, the local estimate plus the same margin;
 * - an estimator configured on purpose (the exact tokenizer, a preset's own rule) counts as it is.
 */
export interface BudgetCountInput {
  model: string;
  estimator: Estimator;
  /** Provider tokens per local-estimate token, learned from reported usage. */
  ratio: number;
  /** Whether `ratio` comes from reported usage (else it is the prior, 1). */
  calibrated: boolean;
}

/** Margin on an unmeasured count for a provider whose tokenizer is not public. */
export const UNCALIBRATED_MARGIN = 1.2;

const OPENAI_O200K = /^(?:openai\/)?(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o|gpt-oss)/i;
const OPENAI_CL100K = /^(?:openai\/)?(?:gpt-4(?![.o])|gpt-3\.5)/i;

/** The BPE encoding a model id is known to use, 'unknown' for an id nobody registered, else null. */
export function encodingOf(model: string): ExactEncoding | 'unknown' | null {
  if (OPENAI_O200K.test(model)) return 'o200k_base';
  if (OPENAI_CL100K.test(model)) return 'cl100k_base';
  return model === 'unknown' || model === '' ? 'unknown' : null;
}

type CountTokens = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;
const require = createRequire(import.meta.url);
const loaded = new Map<ExactEncoding, CountTokens | null>();
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** The tokenizer's count function, or null when the optional package is not installed. */
export function tokenizerCount(encoding: ExactEncoding): CountTokens | null {
  if (!loaded.has(encoding)) {
    try {
      const mod = require(`gpt-tokenizer/cjs/encoding/${encoding}`) as { countTokens: CountTokens };
      loaded.set(encoding, mod.countTokens);
    } catch {
      loaded.set(encoding, null);
    }
  }
  return loaded.get(encoding) ?? null;
}

/** A character repeated this many times or more is counted from a sample (see fastCount). */
const RUN = 256;
const LONG_RUN = /(.)\1{255,}/gsu;

/**
 * The tokenizer's count, with long runs of one character (a line of dashes, a padded field)
 * counted from a RUN-character sample and scaled: the BPE merge is some 70 times slower on such a
 * run than on text, and the count of a run grows linearly with its length.
 */
function fastCount(count: CountTokens): (text: string) => number {
  return (text) => {
    if (text.length < RUN) return count(text, PLAIN_TEXT);
    let total = 0;
    let from = 0;
    LONG_RUN.lastIndex = 0;
    for (let m = LONG_RUN.exec(text); m !== null; m = LONG_RUN.exec(text)) {
      total += count(text.slice(from, m.index), PLAIN_TEXT);
      const sample = count(m[0].slice(0, RUN), PLAIN_TEXT);
      total += Math.ceil((sample * m[0].length) / RUN);
      from = m.index + m[0].length;
    }
    return total + count(text.slice(from), PLAIN_TEXT);
  };
}

/** Below this length a text is counted whole. */
const SEGMENTED = 4_096;
/** Characters of counted lines kept per encoding before the memo starts over. */
const MEMO_CHARS = 16_000_000;
const memos = new Map<
  ExactEncoding,
  { counts: Map<string, number>; withNewline: Map<string, number>; chars: number }
>();

/** Counts of a text: whole, or of lines joined by newlines without joining them. */
interface LineCount {
  text: (text: string) => number;
  /** The count of `lines.join('\n')`. */
  lines: (lines: readonly string[]) => number;
}

/**
 * The same count, line by line, each line's count remembered: a summary measured round after
 * round while it is fitted to its budget, or a window counted turn after turn, is mostly lines
 * counted before. Exact, not an estimate: the encodings' pre-tokenizers (o200k, cl100k) never
 * join a newline with a following character other than whitespace or '/', and BPE merges only
 * inside a pre-token, so a count is the sum of the counts of pieces cut after such a newline.
 * `lines` cuts the same pieces from a list of lines, as if joined: a line that is a piece of its
 * own is looked up by itself (the same string object, round after round), not joined to its newline.
 */
function byLines(count: (text: string) => number, encoding: ExactEncoding): LineCount {
  let memo = memos.get(encoding);
  if (memo === undefined) {
    memo = { counts: new Map(), withNewline: new Map(), chars: 0 };
    memos.set(encoding, memo);
  }
  const m = memo;
  const remembered = (map: Map<string, number>, key: string, text: () => string) => {
    let n = map.get(key);
    if (n === undefined) {
      n = count(text());
      if (m.chars > MEMO_CHARS) {
        m.counts.clear();
        m.withNewline.clear();
        m.chars = 0;
      }
      map.set(key, n);
      m.chars += key.length;
    }
    return n;
  };
  const piece = (text: string) => remembered(m.counts, text, () => text);
  const lines = (lines: readonly string[]): number => {
    let length = Math.max(0, lines.length - 1);
    for (const l of lines) length += l.length;
    if (length < SEGMENTED) return count(lines.join('\n'));
    let total = 0;
    // The start of the piece being cut, when it began in an earlier line.
    let pending = '';
    for (let k = 0; k < lines.length; k++) {
      const line = lines[k]!;
      const last = k === lines.length - 1;
      let from = 0;
      // Newlines inside the line: the one at its end is followed by the joining newline, or by nothing.
      for (let nl = line.indexOf('\n'); nl !== -1 && nl + 1 < line.length; nl = line.indexOf('\n', nl + 1)) {
        if (!startsPiece(line.charCodeAt(nl + 1))) continue;
        total += piece(pending + line.slice(from, nl + 1));
        pending = '';
        from = nl + 1;
      }
      if (last) return total + piece(pending + line.slice(from));
      // The joining newline: an empty next line puts another newline (or the end) after it.
      const next = lines[k + 1]!;
      if (next.length === 0 || !startsPiece(next.charCodeAt(0))) pending += `${line.slice(from)}\n`;
      else if (pending === '' && from === 0) total += remembered(m.withNewline, line, () => `${line}\n`);
      else {
        total += piece(`${pending}${line.slice(from)}\n`);
        pending = '';
      }
    }
    return total + piece(pending);
  };
  // A text is a list of one line.
  return { text: (text) => lines([text]), lines };
}

/** Whether a pre-token surely starts with this character when a newline comes before it. */
function startsPiece(code: number): boolean {
  // Whitespace (a newline run, spaces a newline may join) and '/' (o200k joins it to punctuation
  // and newlines before it) are never cut before; anything else is.
  return !(
    code === 0x2f ||
    code <= 0x20 ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Counts `text` the way the budget is held to (see BudgetCountInput). */
export function budgetCounter(input: BudgetCountInput): TextCounter {
  return budgetCounts(input).text;
}

/**
 * budgetCounter's count, and when it is made line by line, the same count of lines joined by
 * newlines without joining them.
 */
function budgetCounts(input: BudgetCountInput): {
  text: TextCounter;
  lines?: (lines: readonly string[]) => number;
} {
  const { estimator, ratio } = input;
  if (input.calibrated) return { text: (text) => Math.ceil(estimator.text(text) * ratio) };
  // An estimator chosen on purpose (exact, a preset's own rule) is the count the budget is held to.
  if (estimator.name !== 'heuristic') return { text: (text) => estimator.text(text) };
  const encoding = encodingOf(input.model);
  const margin = encoding === null ? UNCALIBRATED_MARGIN : 1;
  const tokenizer = tokenizerCount(encoding === null || encoding === 'unknown' ? 'o200k_base' : encoding);
  if (tokenizer === null) return { text: (text) => Math.ceil(estimator.text(text) * UNCALIBRATED_MARGIN) };
  const count = byLines(fastCount(tokenizer), encoding === 'cl100k_base' ? 'cl100k_base' : 'o200k_base');
  return {
    text: (text) => Math.ceil(count.text(text) * margin),
    lines: (lines) => Math.ceil(count.lines(lines) * margin),
  };
}

/** An estimator counting like `budgetCounter`; `lines`, when there is one, counts lines as if joined by newlines. */
export interface BudgetEstimator extends Estimator {
  lines?: (lines: readonly string[]) => number;
}

/** An estimator counting like `budgetCounter`, with the estimator's rules for parts and framing. */
export function budgetEstimator(input: BudgetCountInput): BudgetEstimator {
  const counts = budgetCounts(input);
  const estimator = makeEstimator('budget', counts.text);
  return counts.lines === undefined ? estimator : { ...estimator, lines: counts.lines };
}
