import { isContextOverflowError } from './overflow-error.js';
import { SummaryRejectedError } from './summarizer.js';

/** Openings of replies that decline the task instead of summarizing. Checked on the first line only. */
export const REFUSAL_PATTERNS: readonly RegExp[] = [
  /^(?:I'?m|I am) (?:sorry|afraid)[,.!]? (?:but )?I (?:can(?:no|')t|cannot|am unable to|'m unable to|won't|will not)\b/i,
  /^(?:sorry|apologies)[,.!]? (?:but )?I (?:can(?:no|')t|cannot|am unable to|won't)\b/i,
  /^I (?:can(?:no|')t|cannot|won't|will not|am unable to|'m unable to|am not able to|'m not able to) (?:help|assist|comply|provide|do that|summarize|fulfill|complete)\b/i,
  /^(?:Unfortunately, )?I (?:can(?:no|')t|cannot) (?:help|assist) with (?:that|this)\b/i,
  /^As an AI(?: language model)?, I (?:can(?:no|')t|cannot|am unable)\b/i,
];

export function looksLikeRefusal(text: string): boolean {
  const first = text.trimStart().split('\n', 1)[0] ?? '';
  return REFUSAL_PATTERNS.some((re) => re.test(first));
}

/** The parts of a generateText result that decide whether its text may become a summary. */
export interface GeneratedSummary {
  text: string;
  finishReason: string;
  toolCalls: readonly unknown[];
}

/** Why a generated text must not be stored as a summary, or null when it is acceptable. */
export function rejectionFor(result: GeneratedSummary): SummaryRejectedError | null {
  const text = result.text;
  const reject = (reason: ConstructorParameters<typeof SummaryRejectedError>[0], message: string) =>
    new SummaryRejectedError(reason, message, { text });
  if (result.toolCalls.length > 0 || result.finishReason === 'tool-calls') {
    return reject('tool-calls', 'the summarizer tried to call a tool');
  }
  if (result.finishReason === 'length')
    return reject('length', 'the summary was cut off at the output limit');
  if (result.finishReason === 'content-filter')
    return reject('content-filter', 'the provider filtered the output');
  if (result.finishReason === 'error') return reject('error', 'the model stopped with an error');
  if (text.trim() === '') return reject('empty', 'the summarizer returned no text');
  if (looksLikeRefusal(text)) return reject('refusal', `the summarizer declined: ${text.slice(0, 120)}`);
  return null;
}

/** A thrown call as a rejection: abort, a provider overflow (input too large), or any other error. */
export function rejectionForError(err: unknown, signal?: AbortSignal): SummaryRejectedError {
  if (err instanceof SummaryRejectedError) return err;
  const name = err instanceof Error ? err.name : '';
  const message = err instanceof Error ? err.message : String(err);
  if (signal?.aborted || name === 'AbortError') {
    return new SummaryRejectedError('aborted', 'the summary call was aborted', { cause: err });
  }
  if (isContextOverflowError(err)) {
    return new SummaryRejectedError(
      'too-large',
      `the summarizer's provider refused the input size: ${message}`,
      {
        cause: err,
      },
    );
  }
  return new SummaryRejectedError('error', message, { cause: err });
}
