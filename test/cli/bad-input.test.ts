import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportJsonl, parseJsonText } from '../../src/import/index.js';
import { buildLog } from '../../src/model/build.js';
import { InputError } from '../../src/model/errors.js';
import type { Message } from '../../src/model/index.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';
import { type CliResult, cliAsync, freshDb, json, ok, smallChat, tempDir, writeFile } from './support.js';

const dir = tempDir();

/** A valid condense export of three messages: line 1 the header, lines 2–4 the entries. */
function exportLines(): string[] {
  const messages: Message[] = [
    { role: 'user', parts: [{ type: 'text', text: 'List the files.' }] },
    {
      role: 'assistant',
      parts: [
        {
          type: 'tool',
          callId: 'c1',
          name: 'ls',
          input: { dir: '.' },
          state: 'completed',
          output: 'a.ts b.ts',
        },
      ],
    },
    { role: 'assistant', parts: [{ type: 'text', text: 'Two files: a.ts and b.ts.' }] },
  ];
  const entries = buildLog(messages, heuristicEstimator(), 'exported');
  return exportJsonl({ id: 'exported', createdAt: 1_700_000_000_000, metadata: {} }, entries)
    .trim()
    .split('\n');
}

/** Replaces line `n` (1-based) of a valid export. */
function exportWithLine(n: number, edit: (line: string) => string): string {
  const lines = exportLines();
  lines[n - 1] = edit(lines[n - 1]!);
  return `${lines.join('\n')}\n`;
}

/** OpenAI chat text with one message per line, so line numbers are predictable. */
function chatText(messages: unknown[]): string {
  return `[\n${messages.map((m) => JSON.stringify(m)).join(',\n')}\n]\n`;
}

interface Case {
  name: string;
  file: string;
  content?: string;
  /** What stderr must say after `condense: <file>` (the line and field). */
  expected: string | RegExp;
}

const chat = smallChat();

/** `[[[…0…]]]` nested `levels` deep, written as text: JSON.stringify itself overflows on it. */
const nested = (levels: number): string => `${'['.repeat(levels)}0${']'.repeat(levels)}`;

/** The small chat with its tool call's arguments replaced by `args` (raw JSON text), one message a line. */
function chatWithArguments(args: string): string {
  const [before, after] = chatText(chat).split('"arguments":"{\\"path\\":\\"notes.txt\\"}"');
  if (after === undefined) throw new Error('the small chat changed: no arguments to replace');
  return `${before}"arguments":${args}${after}`;
}

const CASES: Case[] = [
  {
    name: 'malformed JSON',
    file: 'malformed.json',
    // line 3 lacks the comma between two properties
    content: chatText(chat.slice(0, 2)).replace('"role":"user",', '"role":"user"'),
    expected: /^:line 3: malformed JSON/,
  },
  {
    name: 'a JSON Lines line that does not parse',
    file: 'broken-line.jsonl',
    content: exportWithLine(3, (l) => l.slice(0, 40)),
    expected: /^:line 3: malformed JSON line/,
  },
  {
    name: 'an unknown part type in condense JSONL',
    file: 'unknown-part.jsonl',
    content: exportWithLine(4, (l) => l.replace('"type":"text"', '"type":"hologram"')),
    expected: /^:line 4, field message\.parts\[0\]\.type: unknown part type "hologram"/,
  },
  {
    name: 'an entry with no id in condense JSONL',
    file: 'no-entry-id.jsonl',
    content: exportWithLine(2, (l) => l.replace(/"id":"e0",/, '')),
    expected: /^:line 2, field id: /,
  },
  {
    name: 'a tool call with no id (OpenAI Chat)',
    file: 'no-call-id.json',
    content: chatText(
      chat.map((m, i) =>
        i === 2 ? { ...m, tool_calls: [{ type: 'function', function: { name: 'ls', arguments: '{}' } }] } : m,
      ),
    ),
    expected: /^:line 4, field \[2\]\.tool_calls\[0\]\.id: /,
  },
  {
    name: 'a wrong role (OpenAI Chat)',
    file: 'wrong-role.json',
    content: chatText(chat.map((m, i) => (i === 1 ? { ...m, role: 'wizard' } : m))),
    expected: /^:line 3, field \[1\]\.role: unknown role "wizard"/,
  },
  {
    name: 'a wrong role in condense JSONL',
    file: 'wrong-role.jsonl',
    content: exportWithLine(2, (l) => l.replace('"role":"user"', '"role":"tool"')),
    expected: /^:line 2, field message\.role: /,
  },
  {
    name: 'a conversation with no messages',
    file: 'empty.json',
    content: '[]\n',
    expected: /^: no messages to import$/m,
  },
  {
    name: 'JSON nested 10,000 levels deep in a document',
    file: 'deep-document.json',
    content: chatWithArguments(`{"a":${nested(10_000)}}`),
    expected:
      /^:line 4, field \[2\]\.tool_calls\[0\]\.function\.arguments\.a\[0\]\[0\]…: JSON nested deeper than 512 levels/,
  },
  {
    name: "JSON nested 10,000 levels deep inside a tool call's arguments text",
    file: 'deep-arguments.json',
    content: chatWithArguments(JSON.stringify(`{"a":${nested(10_000)}}`)),
    expected:
      /^:line 4, field \[2\]\.parts\[0\]\.input\.a\[0\]\[0\]\[0\]\[0\]…: JSON nested deeper than 512 levels/,
  },
  {
    name: 'JSON nested 10,000 levels deep on one JSON Lines line',
    file: 'deep-line.jsonl',
    content: exportWithLine(3, (l) => l.replace('"input":{"dir":"."}', `"input":{"dir":${nested(10_000)}}`)),
    expected:
      /^:line 3, field message\.parts\[0\]\.input\.dir\[0\]\[0\]\[0\]…: JSON nested deeper than 512 levels/,
  },
  {
    name: 'a missing file',
    file: 'does-not-exist.json',
    expected: /^: cannot read file \(ENOENT/,
  },
];

describe('condense import rejects bad input and writes nothing', () => {
  const results = new Map<string, { path: string; run: CliResult }>();
  // One database for all the cases: the one `sessions` check at the end then covers every one.
  // Nine processes also open the new file at once, which once raced the schema migration.
  const db = freshDb(dir);

  beforeAll(async () => {
    await Promise.all(
      CASES.map(async (c) => {
        const path = c.content === undefined ? join(dir, c.file) : writeFile(dir, c.file, c.content);
        results.set(c.name, { path, run: await cliAsync(['import', path, '--db', db]) });
      }),
    );
  });

  it.each(CASES)(
    '$name: the error names file, line and field, and the exit status is not 0',
    ({ name, expected }) => {
      const { path, run } = results.get(name)!;
      expect(run.status, run.stderr).not.toBe(0);
      expect(run.stdout).toBe('');
      const prefix = `condense: ${path}`;
      expect(run.stderr.startsWith(prefix), run.stderr).toBe(true);
      expect(run.stderr.slice(prefix.length)).toMatch(expected);
      expect(run.stderr.trim().split('\n')).toHaveLength(1); // one line, no stack trace
    },
  );

  it('a multi-run file with one bad run is rejected whole', async () => {
    const good = { task_id: 1, trial: 0, reward: 1, traj: smallChat() };
    const bad = {
      task_id: 2,
      trial: 0,
      reward: 0,
      traj: [{ role: 'user', content: 'hi' }, { role: 'robot' }],
    };
    const path = writeFile(
      dir,
      'tau-mixed.json',
      [good, good, bad].map((r, i) => ({ ...r, task_id: i })),
    );
    const run = await cliAsync(['import', path, '--db', db]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/tau-mixed\.json:line \d+, field \[2\]\.traj\[1\]\.role/);
  });

  it('none of them wrote anything (sessions --json is empty)', async () => {
    expect(json(ok(await cliAsync(['sessions', '--db', db, '--json'])))).toEqual([]);
  });
});

describe('files other editors write, and databases in impossible places', () => {
  const bom = '\ufeff';

  it('a UTF-8 byte order mark is accepted, in JSON and in JSON Lines', async () => {
    const db = freshDb(dir);
    const chatFile = writeFile(dir, 'bom-chat.json', bom + chatText(chat));
    const exportFile = writeFile(dir, 'bom-export.jsonl', `${bom}${exportLines().join('\n')}\n`);
    const [first, second] = await Promise.all([
      cliAsync(['import', chatFile, '--db', db, '--json']),
      cliAsync(['import', exportFile, '--session', 'exp', '--db', db, '--json']),
    ]);
    expect(json(ok(first))).toEqual([{ session: 'bom-chat', messages: 3 }]);
    expect(json(ok(second))).toEqual([{ session: 'exp', messages: 3 }]);
  });

  it('--db under a path whose parent is a file names that file', async () => {
    const file = writeFile(dir, 'plain-file', 'not a folder');
    const [direct, deeper, folder] = await Promise.all([
      cliAsync(['sessions', '--db', join(file, 'x.db')]),
      cliAsync(['import', writeFile(dir, 'c.json', chat), '--db', join(file, 'sub', 'x.db')]),
      cliAsync(['sessions', '--db', dir]),
    ]);
    expect(direct.stderr).toBe(`condense: --db ${join(file, 'x.db')}: ${file} is a file, not a folder\n`);
    expect(deeper.stderr).toBe(
      `condense: --db ${join(file, 'sub', 'x.db')}: ${file} is a file, not a folder\n`,
    );
    expect(folder.stderr).toBe(
      `condense: --db ${dir} is a folder; give a file path, e.g. ${join(dir, 'condense.db')}\n`,
    );
    for (const r of [direct, deeper, folder]) expect(r.status).toBe(2);
  });
});

describe('line numbers of JSON syntax errors', () => {
  // Node 20's "Unexpected token" messages carry no position, so the line falls back to the file's
  // last line: `condense import` then points at line 4 for an error on line 3. In src/import.
  it('an unexpected token is reported on its own line (Node 20 gives no position)', () => {
    const text = '[\n{"role": "user",\n "content": }\n]\n';
    let error: unknown;
    try {
      parseJsonText(text, 'chat.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(3);
  });
});
