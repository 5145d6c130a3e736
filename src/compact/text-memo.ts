import { Vocabulary, type WordIds } from './candidates.js';
import { contentWords } from './sentences.js';

/**
 * Words and texts past which the vocabulary starts again (between summaries): a summarizer may
 * live long (a 100,000-message window's chunks end with some 24,000).
 */
const MAX_ENTRIES = 1 << 18;

/**
 * What a summarizer read of a text, kept from one summary to the next: a running summary's
 * excerpts and requests come back in every chunk of a long window, and are read once instead of
 * once per chunk. What a summary did not use is forgotten after it, so the memo holds at most two
 * summaries' texts.
 */
export class TextMemo {
  private vocabulary = new Vocabulary();
  private current = new Map<string, WordIds>();
  private previous = new Map<string, WordIds>();

  /** The text's content words (contentWords), as ids of this memo's vocabulary. */
  words(text: string): WordIds {
    let words = this.current.get(text);
    if (words === undefined) {
      words = this.previous.get(text) ?? this.vocabulary.intern(contentWords(text));
      this.current.set(text, words);
    }
    return words;
  }

  /** Ends a summary: texts it did not read are dropped. */
  turn(): void {
    this.previous = this.current;
    this.current = new Map();
    if (this.vocabulary.size > MAX_ENTRIES) {
      this.vocabulary = new Vocabulary();
      this.previous = new Map();
    }
  }
}
