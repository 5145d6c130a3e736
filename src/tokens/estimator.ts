import type { Message } from '../model/message.js';
import type { Part, ToolPart } from '../model/parts.js';

/**
 * Counts tokens locally. Estimates are made once when an entry is appended and stored with it;
 * nothing on the per-turn path calls an estimator over history.
 */
export interface Estimator {
  readonly name: string;
  /** Tokens of a piece of text. */
  text(text: string): number;
  /** Tokens a part costs in the context. For a tool part: its output or error only (see `toolInput`). */
  part(part: Part): number;
  /** Tokens of a tool call's name and input (the call half of the part). */
  toolInput(part: ToolPart): number;
  /**
   * Tokens of a whole message: every part plus the call halves of tool parts and role overhead.
   * `partTokens`, when given, are this estimator's `part()` of each part, already computed: they are
   * used as they are, so that no text is tokenized twice.
   */
  message(message: Message, partTokens?: readonly number[]): number;
}

export interface EstimatorOptions {
  /** Upper bound on one part's estimate: none by default (a part counts what it holds); Qwery: 50,000. */
  maxTokensPerPart?: number;
  /** Fixed cost of an image or other file, never derived from its base64 length. */
  fileTokens?: number;
  /** Tokens every message costs for its role and framing. */
  messageOverhead?: number;
}

export const DEFAULT_ESTIMATOR_OPTIONS: Required<EstimatorOptions> = {
  maxTokensPerPart: Number.POSITIVE_INFINITY,
  fileTokens: 1_000,
  messageOverhead: 4,
};

/** What the estimate of a tool output measures: a string as is, an object's text, else JSON. */
export function toolOutputText(part: ToolPart): string {
  if (part.state === 'error') return part.error;
  if (part.state !== 'completed') return '';
  const out = part.output;
  if (typeof out === 'string') return out;
  if (out !== null && typeof out === 'object' && !Array.isArray(out) && typeof out.text === 'string') {
    return out.text;
  }
  return JSON.stringify(out) ?? '';
}

/**
 * Counts the tokens of a text. `limit`, when given, is the cap the result will be clipped to: a
 * counter may stop early once it has counted that many (a tokenizer need not walk a 1.5M-char
 * output to learn that it exceeds a 50,000-token cap).
 */
export type TextCounter = (text: string, limit?: number) => number;

/** Builds an Estimator from a text counter, applying the shared rules for parts and messages. */
export function makeEstimator(name: string, count: TextCounter, opts: EstimatorOptions = {}): Estimator {
  const o = { ...DEFAULT_ESTIMATOR_OPTIONS, ...opts };
  const capped = (text: string) => Math.min(count(text, o.maxTokensPerPart), o.maxTokensPerPart);
  const part = (p: Part): number => {
    switch (p.type) {
      case 'text':
      case 'reasoning':
        return capped(p.text);
      case 'file':
        return o.fileTokens;
      case 'tool': {
        const attachments = 'attachments' in p && p.attachments ? p.attachments.length * o.fileTokens : 0;
        return capped(toolOutputText(p)) + attachments;
      }
      case 'compaction':
        return capped(p.instructions ?? '') + 1;
    }
  };
  const toolInput = (p: ToolPart) =>
    Math.min(count(p.name) + count(JSON.stringify(p.input) ?? '', o.maxTokensPerPart), o.maxTokensPerPart);
  return {
    name,
    text: (text) => count(text),
    part,
    toolInput,
    message(m, partTokens) {
      let total = o.messageOverhead;
      m.parts.forEach((p, i) => {
        total += partTokens?.[i] ?? part(p);
        if (p.type === 'tool') total += toolInput(p);
      });
      return total;
    },
  };
}

/** ceil(chars / 4), the seeds' heuristic (000, 001). */
export function heuristicEstimator(opts: EstimatorOptions = {}): Estimator {
  return makeEstimator('heuristic', (text) => Math.ceil(text.length / 4), opts);
}

/** round(chars / 4): opencode's estimator. */
export function roundedHeuristicEstimator(): Estimator {
  return makeEstimator('chars/4 rounded', (text) => Math.round(text.length / 4));
}

/** Qwery's cap on one part's estimate. */
export const SEED_000_MAX_TOKENS_PER_PART = 50_000;

/**
 * chars / `charsPerToken` of a message's content and its tool calls' JSON, rounded up once per
 * message, nothing added for framing: Pegasus's `len / 3.5`.
 */
export function charsPerTokenEstimator(charsPerToken: number): Estimator {
  // Counted in characters, divided once: no float drift from summing fractions.
  const chars = makeEstimator('chars', (text) => text.length, {
    maxTokensPerPart: Number.POSITIVE_INFINITY,
    messageOverhead: 0,
    fileTokens: Math.round(DEFAULT_ESTIMATOR_OPTIONS.fileTokens * charsPerToken),
  });
  const tokens = (n: number) => Math.ceil(n / charsPerToken);
  return {
    name: `chars/${charsPerToken}`,
    text: (text) => tokens(text.length),
    part: (p) => tokens(chars.part(p)),
    toolInput: (p) => tokens(chars.toolInput(p)),
    message: (m) => tokens(chars.message(m)),
  };
}
