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

export function shellSegments(line: string): Word[][] {
  const segments: Word[][] = [];
  let words: Word[] = [];
  let word = '';
  let quoted = false;
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push({ text: word, quoted });
    word = '';
    quoted = false;
    inWord = false;
  };
  const endSegment = () => {
    endWord();
    if (words.length > 0) segments.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const end = close < 0 ? line.length : close;
      word += line.slice(i + 1, end);
      quoted = true;
      inWord = true;
      i = end;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t') endWord();
    else if (c === '\n' || c === ';' || c === '|' || c === '&') {
      // `2>&1` and `&>` are redirections, not separators.
      if (c === '&' && (line[i - 1] === '>' || line[i + 1] === '>')) {
        word += c;
        inWord = true;
      } else endSegment();
    } else {
      word += c;
      inWord = true;
    }
  }
  endSegment();
  return segments;
}
