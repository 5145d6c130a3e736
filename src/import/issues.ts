import { InputError } from '../model/errors.js';
import type { ImportIssue } from './types.js';

const NOUN: Record<ImportIssue['kind'], (n: number) => string> = {
  'orphan-result': (n) => `${n} tool result${n === 1 ? '' : 's'} answering no tool call`,
  'invalid-utf8': (n) => `${n} byte sequence${n === 1 ? '' : 's'} that are not UTF-8`,
};

const KEPT: Record<ImportIssue['kind'], string> = {
  'orphan-result': 'kept as user messages marked orphanResult',
  'invalid-utf8': 'read as U+FFFD',
};

/** How many lines are listed before "…": enough to find them, not a screenful. */
const SHOWN_LINES = 10;

function countOf(issues: readonly ImportIssue[]): number {
  return issues.reduce((sum, i) => sum + (i.count ?? 1), 0);
}

function byKind(issues: readonly ImportIssue[]): Map<ImportIssue['kind'], ImportIssue[]> {
  const groups = new Map<ImportIssue['kind'], ImportIssue[]>();
  for (const issue of issues) groups.set(issue.kind, [...(groups.get(issue.kind) ?? []), issue]);
  return groups;
}

/** One line per kind: file, count, and where (`file: 3 tool results ... (lines 4, 9, 12)`). */
export function describeIssues(issues: readonly ImportIssue[], file?: string): string[] {
  return [...byKind(issues)].map(([kind, group]) => {
    const places = group.map((i) => (i.line !== undefined ? String(i.line) : i.field)).filter(Boolean);
    const shown = [...new Set(places)];
    const list =
      shown.length === 0
        ? ''
        : ` (line${shown.length === 1 ? '' : 's'} ${shown.slice(0, SHOWN_LINES).join(', ')}${shown.length > SHOWN_LINES ? ', …' : ''})`;
    return `${file ? `${file}: ` : ''}${NOUN[kind](countOf(group))} ${KEPT[kind]}${list}`;
  });
}

/**
 * Under --strict, the first issue as an error naming its file, line and field, with how many
 * there are of its kind; undefined when there is none.
 */
export function strictError(issues: readonly ImportIssue[], file?: string): InputError | undefined {
  const first = issues[0];
  if (!first) return undefined;
  const total = countOf(issues.filter((i) => i.kind === first.kind));
  return new InputError(`${first.detail}: refused by --strict (${NOUN[first.kind](total)} in the file)`, {
    file,
    line: first.line,
    field: first.field,
  });
}
