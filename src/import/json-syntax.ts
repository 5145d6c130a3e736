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
      i += ch === 92 ? 2 : 1;
    }
    fail();
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (close === '}') {
          ws();
          string();
          ws();
          expect(':');
        }
        value();
        ws();
        if (text[i] === ',') i++;
        else return void expect(close);
      }
    }
    if (ch === '"') return string();
    for (const word of ['true', 'false', 'null'])
      if (text.startsWith(word, i)) return void (i += word.length);
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail();
  };
  try {
    value();
    ws();
    if (i < n) fail();
    return -1;
  } catch (offset) {
    return offset as number;
  }
}
