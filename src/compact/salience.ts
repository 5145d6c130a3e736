/**
 * How likely a piece of conversation is to be needed later, from what it says and where it
 * stands. Generic signals only: statements about oneself, dates, numbers and names, answers to
 * questions, what opens a conversation after a pause; questions, reactions and farewells weigh
 * less. The weights were fitted by logistic regression on half of the LoCoMo conversations
 * (which turns later questions rely on) and checked on the other half; the technical signals
 * (paths, code, decisions), which LoCoMo lacks, were set by hand.
 */
export interface UnitContext {
  /** The previous message, from the other side, asked a question. */
  answersQuestion: boolean;
  /** First message after a pause of an hour or more (or the first of all). */
  opensSession: boolean;
  /** Last message before such a pause. */
  closesSession: boolean;
}

const FIRST_PERSON = /\b(?:I|I'm|I've|I'll|I'd|my|me|mine|we|we're|we've|our|us)\b/g;
const TEMPORAL =
  /\b(?:yesterday|today|tonight|tomorrow|(?:last|next|this) (?:week|weekend|month|year|night|summer|winter|spring|fall|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|ago|january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|(?:19|20)\d\d)\b/gi;
const NUMBER = /\d+/g;
const WORD = /[A-Za-z][A-Za-z'-]*/g;
const REACTION =
  /^\s*(?:wow|whoa|haha|lol|omg|aw+|oh|yay|thanks|thank you|congrat\w*|great|awesome|cool|nice|amazing|sounds|that's (?:great|awesome|amazing|so)|glad|sorry|bye|take care|see you)\b/i;
const TECHNICAL =
  /`[^`\n]+`|[\w.-]\/[\w.-]|\w\.(?:[jt]sx?|py|go|rs|md|json|ya?ml|toml|sql|sh)\b|[a-z][A-Z]|\w\(\)/g;
const DECISION =
  /\b(?:decided|decision|instead of|rather than|root cause|the (?:issue|problem|bug|cause) (?:is|was)|fixed by|will use|going with|chose|trade-?off|constraint|requirement)\b/i;
const STOP = new Set(
  "i i'm i've i'll i'd a an the and or but if so to of in on at for with by from as is are was were be been it it's this that these those my your our their he she they we you me him her them what when where who why how yes no hey hi hello oh".split(
    ' ',
  ),
);

/** Characters of a piece that are read: pieces are sentences, at most a few hundred characters. */
const MAX_CHARS = 800;

function count(re: RegExp, text: string, cap: number): number {
  re.lastIndex = 0;
  let n = 0;
  while (n < cap && re.exec(text) !== null) n++;
  return n;
}

/** Capitalized words past a sentence start that are not common words: names, places, products. */
function names(text: string): number {
  WORD.lastIndex = 0;
  let n = 0;
  for (let m = WORD.exec(text); m !== null && n < 5; m = WORD.exec(text)) {
    const c = m[0].charCodeAt(0);
    if (c < 65 || c > 90) continue;
    // The character before the word, spaces skipped: a sentence end (or nothing) makes it a start.
    let k = m.index - 1;
    while (k >= 0 && (text[k] === ' ' || text[k] === '\n' || text[k] === '\t')) k--;
    const before = k < 0 ? '.' : text[k]!;
    if (before !== '.' && before !== '!' && before !== '?' && !STOP.has(m[0].toLowerCase())) n++;
  }
  return n;
}

/** Share of characters that are neither letters, digits nor spaces: tables, code, separators. */
function symbolShare(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // ASCII punctuation and symbols; anything beyond ASCII counts as a letter.
    if (c < 128 && !((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c <= 32)) n++;
  }
  return n / text.length;
}

/** The signals, in WEIGHTS order. Exported for the weight fitting and its test. */
export function features(text: string, ctx: UnitContext): number[] {
  const t = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  return [
    1,
    Math.log1p(t.length),
    Math.sqrt(count(FIRST_PERSON, t, 25)),
    count(TEMPORAL, t, 3),
    count(NUMBER, t, 3),
    Math.sqrt(names(t)),
    t.includes('[shares ') ? 1 : 0,
    /\?\s*$/.test(t) ? 1 : 0,
    ctx.answersQuestion ? 1 : 0,
    REACTION.test(t) ? 1 : 0,
    ctx.opensSession ? 1 : 0,
    ctx.closesSession ? 1 : 0,
    Math.sqrt(count(TECHNICAL, t, 9)),
    DECISION.test(t) ? 1 : 0,
    symbolShare(t) > 0.25 ? 1 : 0,
  ];
}

export const WEIGHTS = [-5.6, 0.7, 0.2, 1.6, 0.5, 0.35, 0.25, -0.55, 1.5, -0.2, 1.1, -0.7, 0.4, 2, -1];

/** Log-odds that the text will be needed. */
export function salience(text: string, ctx: UnitContext): number {
  const f = features(text, ctx);
  let s = 0;
  for (let i = 0; i < f.length; i++) s += f[i]! * WEIGHTS[i]!;
  return s;
}

/** Probability from log-odds. */
export function likelihood(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}
