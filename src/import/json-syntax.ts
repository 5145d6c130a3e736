/**
 * Offset of the first JSON syntax error in `text`, or -1 if it parses. Used only after JSON.parse
 * failed with a message that carries no position (Node 20's "Unexpected token" errors), so a bad
 * file's error can still name its line. A plain recursive-descent scan of the JSON grammar.
 */
export function syntaxErrorOffset(text: string): number {
  let i = 0;
  const n = text.length;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const expect = (ch: string) => (text[i] === ch ? i++ : fail());
  const string = () => {
    expect('"');
    while (i < n) {
      const ch = text.charCodeAt(i);
      if (ch === 34) return void i++;
      if (ch < 32) fail();
      if (ch !== 92) {
        i++;
        continue;
      }
      i++; // the backslash: one of the JSON escapes must follow
      if (text[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
      else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
      else fail();
    }
    fail();
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const container = (close: '}' | ']') => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (close === '}') {
        ws();
        string();
        ws();
        expect(':');
      }
      value();
      ws();
      if (text[i] !== ',') break;
      i++;
    }
    expect(close);
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') container('}');
    else if (ch === '[') container(']');
    else if (ch === '"') string();
    else {
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      NUMBER.lastIndex = i;
      if (word) i += word.length;
      else if (NUMBER.test(text)) i = NUMBER.lastIndex;
      else fail();
    }
  };
  try {
    value();
    ws();
    if (i < n) fail();
    return -1;
  } catch (offset) {
    // Nesting too deep for the call stack: no position to give.
    return typeof offset === 'number' ? offset : -1;
  }
}
