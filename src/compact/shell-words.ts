/**
 * A shell command line as simple commands, each a list of words with quotes removed. Enough shell
 * to read which files a command names: quotes and backslashes group words, and unquoted `&&`,
 * `||`, `;`, `|`, `&` and newlines separate commands. Expansions are left as written.
 */
export interface Word {
  text: string;
  /** Some of the word was quoted: a quoted word is a pattern or a program far more often than a path. */
  quoted: boolean;
}

/** The words and commands read so far (a class rather than closures: shellSegments runs per call). */
class Segments {
  readonly segments: Word[][] = [];
  private words: Word[] = [];
  private word = '';
  private quoted = false;
  private inWord = false;

  /** Adds text to the word being read (`quoted`: text that stood between quotes). */
  add(text: string, quoted = false): void {
    this.word += text;
    if (quoted) this.quoted = true;
    this.inWord = true;
  }

  endWord(): void {
    if (this.inWord) this.words.push({ text: this.word, quoted: this.quoted });
    this.word = '';
    this.quoted = false;
    this.inWord = false;
  }

  endSegment(): void {
    this.endWord();
    if (this.words.length > 0) this.segments.push(this.words);
    this.words = [];
  }
}

export function shellSegments(line: string): Word[][] {
  const s = new Segments();
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const end = close < 0 ? line.length : close;
      s.add(line.slice(i + 1, end), true);
      i = end;
    } else if (c === '\\' && i + 1 < line.length) s.add(line[++i]!);
    else if (c === ' ' || c === '\t') s.endWord();
    else if (c === '\n' || c === ';' || c === '|' || c === '&') {
      // `2>&1` and `&>` are redirections, not separators.
      if (c === '&' && (line[i - 1] === '>' || line[i + 1] === '>')) s.add(c);
      else s.endSegment();
    } else s.add(c);
  }
  s.endSegment();
  return s.segments;
}
