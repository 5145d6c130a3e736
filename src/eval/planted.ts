import type { LanguageModel } from 'ai';
import type { Message } from '../model/message.js';
import type { ToolPart } from '../model/parts.js';
import { openSession } from '../session/index.js';
import { memoryStore } from '../store/index.js';
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

/**
 * Facts present after each of the first `rounds` compactions (and the latest request, verbatim):
 * the session's own automatic compaction, with the default options, in a `window`-token model.
 */
export async function evalPlanted(
  model: Exclude<LanguageModel, string> | undefined,
  rounds = 8,
  window = 12_000,
): Promise<PlantedRow[]> {
  // Filler until `rounds` compactions: pruning (its thresholds scale with the window) puts each
  // compaction further off, so the count of filler turns is not fixed.
  const messages = [...planted()];
  for (let n = 1; n <= rounds * 40; n++) messages.push(...filler(n));
  const session = await openSession(memoryStore(), 'planted', {
    ...(model ? { model } : {}),
    limits: { contextWindow: window, maxOutput: 2_000 },
  });
  const rows: PlantedRow[] = [];
  for (const message of messages) {
    await session.append(message);
    const prepared = await session.prepare({ format: 'openai' });
    const outcome = prepared.compaction;
    if (rows.length >= rounds) break;
    if (outcome?.status !== 'compacted') continue;
    const context: Context = {
      tokens: 0,
      text: prepared.messages
        .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
        .join('\n'),
      details: outcome.pivot.pivot.details,
    };
    const text = context.text.replace(/[ \t]+/g, ' ');
    const latest = messages.slice(0, messages.indexOf(message) + 1).findLast((m) => m.role === 'user');
    const facts: Fact[] = [
      ...FACTS,
      {
        name: 'latest request, verbatim',
        holds: (_c, t) => latest !== undefined && t.includes((latest.parts[0] as { text: string }).text),
      },
    ];
    const missing = facts.filter((f) => !f.holds(context, text)).map((f) => f.name);
    rows.push({
      compactions: rows.length + 1,
      present: facts.length - missing.length,
      total: facts.length,
      missing,
    });
  }
  return rows;
}
