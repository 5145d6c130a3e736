import type { Summarizer } from '../compact/index.js';
import { buildMessageEntry } from '../model/build.js';
import type { MessageEntry } from '../model/entry.js';
import type { Message } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';
import type { Estimator } from '../tokens/estimator.js';
import { replay, viewOf } from './replay.js';
import type { Context } from './strategies.js';

/**
 * A coding session with facts planted in its first turns, then ordinary work that competes with
 * them (requests with numbers and paths, big file reads, passing tests), compacted again and
 * again. After each compaction the view (summary + kept messages) is checked for every fact.
 */
interface Fact {
  name: string;
  holds: (context: Context, text: string) => boolean;
}

let calls = 0;
const call = (name: string, input: ToolPart['input'], output: string): ToolPart => ({
  type: 'tool',
  callId: `p${++calls}`,
  name,
  input,
  state: 'completed',
  output,
});
const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const assistant = (text: string, ...tools: ToolPart[]): Message => ({
  role: 'assistant',
  parts: [...(text ? [{ type: 'text' as const, text }] : []), ...tools],
});

const FIRST =
  'We are building the billing service. Never push to main; always open a pull request. The invoice retry limit is 7 and the cache TTL is 86400 seconds.';
const WEBHOOK = 'Set the webhook timeout to 45 seconds in config/webhooks.yaml.';
const FILE = 'services/billing/src/invoice-store.ts';

function planted(): Message[] {
  return [
    user(FIRST),
    assistant(
      'Decision: keep invoices in SQLite, not Postgres, because the service runs on one node.',
      call('Read', { file_path: FILE }, 'export const MAX_RETRIES = 5;\n'.repeat(40)),
      call('Edit', { file_path: FILE, old_string: '5', new_string: '7' }, 'ok'),
      call(
        'Bash',
        { command: 'npm test' },
        'Exit code 1\nFAIL invoice.test.ts\nAssertionError: expected 6 to be 7',
      ),
      call(
        'Bash',
        { command: 'npm run lint' },
        `Exit code 1\n${FILE}:3:10 error 'x' is defined but never used no-unused-vars`,
      ),
    ),
    user(WEBHOOK),
    assistant('Done, and the tests pass now.', call('Bash', { command: 'npm test' }, 'Tests 12 passed')),
  ];
}

function filler(n: number): Message[] {
  const code =
    `export function handler${n}(input: Input): Output {\n  return process(input, ${n});\n}\n`.repeat(70);
  return [
    user(
      `Task ${n}: look into module m${n} (src/m${n}/index.ts) and tell me whether its ${(n % 5) + 2} handlers are covered by tests.`,
    ),
    assistant(
      '',
      call('Read', { file_path: `src/m${n}/index.ts` }, code),
      call('Bash', { command: `npm test -- m${n}` }, `Tests ${(n % 7) + 3} passed`),
    ),
    assistant(
      `Module m${n} has ${(n % 5) + 2} handlers; ${n % 3} of them lack tests. The slowest handler takes ${n * 7} ms in src/m${n}/slow.ts. I added ${(n % 3) + 1} cases to tests/m${n}.test.ts and noted the rest in the checklist. Coverage went from ${60 + (n % 30)}% to ${70 + (n % 25)}%.`,
    ),
  ];
}

const FACTS: Fact[] = [
  { name: 'first request (the goal)', holds: (_c, t) => t.includes('We are building the billing service') },
  { name: 'number: retry limit 7', holds: (_c, t) => t.includes('retry limit is 7') },
  { name: 'number: TTL 86400', holds: (_c, t) => t.includes('86400') },
  { name: 'constraint: never push to main', holds: (_c, t) => t.includes('Never push to main') },
  { name: 'file modified', holds: (_c, t) => t.includes(FILE) },
  {
    name: 'decision: SQLite, not Postgres',
    holds: (_c, t) => t.includes('keep invoices in SQLite, not Postgres'),
  },
  {
    name: 'later request: webhook timeout 45 s',
    holds: (_c, t) => t.includes('webhook timeout to 45 seconds'),
  },
  { name: 'open failure with its error', holds: (_c, t) => /npm run lint[^\n]*no-unused-vars/.test(t) },
  {
    name: 'fixed failure not listed as open',
    holds: (c) => !(c.details?.failedCommands ?? []).some((f) => f.startsWith('npm test →')),
  },
];

export interface PlantedRow {
  compactions: number;
  present: number;
  total: number;
  missing: string[];
}

/** Facts present after each of the first `rounds` compactions (and the latest request, verbatim). */
export async function evalPlanted(
  summarizer: Summarizer,
  estimator: Estimator,
  rounds = 8,
  window = 12_000,
): Promise<PlantedRow[]> {
  const messages = [...planted()];
  for (let n = 1; n <= rounds * 10; n++) messages.push(...filler(n));
  const entries: MessageEntry[] = messages.map((m, i) =>
    buildMessageEntry(
      m,
      {
        sessionId: 'planted',
        seq: i,
        parentId: i > 0 ? `m${i - 1}` : null,
        id: `m${i}`,
        createdAt: i * 60_000,
      },
      estimator,
    ),
  );
  const rows: PlantedRow[] = [];
  await replay(entries, window, summarizer, estimator, { keepTokens: Math.floor(window / 4) }, (log, k) => {
    if (k > rounds) return;
    const context = viewOf(log);
    const text = context.text.replace(/[ \t]+/g, ' ');
    const latest = log.findLast((e) => e.kind === 'message' && e.message.role === 'user');
    const facts: Fact[] = [
      ...FACTS,
      {
        name: 'latest request, verbatim',
        holds: (_c, t) =>
          latest?.kind === 'message' && t.includes((latest.message.parts[0] as { text: string }).text),
      },
    ];
    const missing = facts.filter((f) => !f.holds(context, text)).map((f) => f.name);
    rows.push({ compactions: k, present: facts.length - missing.length, total: facts.length, missing });
  });
  return rows;
}
