import { createRequire } from 'node:module';
import type { Node, YAMLError } from 'yaml';
import { lineOfField } from '../import/json-locate.js';
import { parseJsonText } from '../import/json-text.js';
import { InputError } from '../model/errors.js';

// Loaded on the first configuration file read, not with the package's root entry.
const require = createRequire(import.meta.url);
const yaml = () => require('yaml') as typeof import('yaml');

/** A parsed configuration document and a way back from a key path to its line. */
export interface ParsedText {
  value: unknown;
  lineOf: (path: (string | number)[]) => number | undefined;
}

/** `compaction.plan.keepTokens`, `prune.protectedTools[1]`: how a key path is shown. */
export function fieldOf(path: (string | number)[]): string {
  return path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join('');
}

/** JSON when the file name ends in `.json`, YAML otherwise; a syntax error names its line. */
export function parseConfigText(text: string, file: string): ParsedText {
  return file.toLowerCase().endsWith('.json') ? parseJson(text, file) : parseYaml(text, file);
}

function parseJson(text: string, file: string): ParsedText {
  const value = parseJsonText(text, file);
  // JSON.parse keeps the last of two equal keys without a word; JSON is YAML, whose parser says.
  const duplicate = yaml()
    .parseDocument(text)
    .errors.find((e) => e.code === 'DUPLICATE_KEY');
  if (duplicate) throw syntaxError(duplicate, 'JSON', file);
  return { value, lineOf: (path) => (path.length === 0 ? 1 : lineOfField(text, fieldOf(path))) };
}

/** A YAML document, and a way back from a key path to its line; a syntax error names its line. */
export function parseYaml(text: string, file: string): ParsedText {
  const { LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  // Duplicate keys are errors here (the library's default), so no setting is silently overridden.
  const doc = parseDocument(text, { lineCounter: counter });
  const error = doc.errors[0];
  if (error) throw syntaxError(error, 'YAML', file);
  const lineOf = (path: (string | number)[]) => {
    const offset = yamlOffset(doc.contents, path);
    return offset === undefined ? undefined : counter.linePos(offset).line;
  };
  // An empty file (or one holding only comments) is an empty configuration.
  return { value: doc.contents === null ? {} : doc.toJS(), lineOf };
}

/** The parser's reason, its position moved into the error's own line field. */
function syntaxError(error: YAMLError, format: 'JSON' | 'YAML', file: string): InputError {
  const reason =
    error.code === 'DUPLICATE_KEY'
      ? 'a key given a second time here (the first would be silently overridden)'
      : error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return new InputError(`malformed ${format}: ${reason}`, { file, line: error.linePos?.[0].line });
}

/**
 * Offset of the key at `path` (the key itself, which is where a user looks for a wrong name), or of
 * its deepest existing ancestor.
 */
function yamlOffset(root: unknown, path: (string | number)[]): number | undefined {
  const { isMap, isScalar, isSeq } = yaml();
  let node = root as Node | null;
  let offset = node?.range?.[0];
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg]) {
      node = node.items[seg] as Node;
      offset = node.range?.[0] ?? offset;
    } else break;
  }
  return offset;
}
