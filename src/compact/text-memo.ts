import { contentWords } from './sentences.js';

/**
 * What a summarizer read of a text, kept from one summary to the next: a running summary's
 * excerpts and requests come back in every chunk of a long window, and are read once instead of
 * once per chunk. What a summary did not use is forgotten after it, so the memo holds at most two
 * summaries' texts.
 */
export class TextMemo {
  private current = new Map<string, readonly string[]>();
  private previous = new Map<string, readonly string[]>();

  /** contentWords of the text. */
  words(text: string): readonly string[] {
    let words = this.current.get(text);
    if (words === undefined) {
      words = this.previous.get(text) ?? contentWords(text);
      this.current.set(text, words);
    }
    return words;
  }

  /** Ends a summary: texts it did not read are dropped. */
  turn(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}
