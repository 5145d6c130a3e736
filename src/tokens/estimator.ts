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
  /** Tokens of a whole message: every part plus the call halves of tool parts and role overhead. */
  message(message: Message): number;
}

export interface EstimatorOptions {
  /** Upper bound on one part's estimate (seed 000: 50,000). */
  maxTokensPerPart?: number;
  /** Fixed cost of an image or other file, never derived from its base64 length. */
  fileTokens?: number;
  /** Tokens every message costs for its role and framing. */
  messageOverhead?: number;
}

export const DEFAULT_ESTIMATOR_OPTIONS: Required<EstimatorOptions> = {
  maxTokensPerPart: 50_000,
  fileTokens: 1_000,
  messageOverhead: 4,
};

/** What the estimate of a tool output measures (A000-06): a string as is, an object's text, else JSON. */
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
      case 'compaction-marker':
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
    message(m) {
      let total = o.messageOverhead;
      for (const p of m.parts) {
        total += part(p);
        if (p.type === 'tool') total += toolInput(p);
      }
      return total;
    },
  };
}

/** ceil(chars / 4), the seeds' heuristic (000, 001). */
export function heuristicEstimator(opts: EstimatorOptions = {}): Estimator {
  return makeEstimator('heuristic', (text) => Math.ceil(text.length / 4), opts);
}
