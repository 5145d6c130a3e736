/**
 * The user's requests survive pivots, condense's own and imported ones: a Claude Code session whose
 * history holds Claude Code's own compaction (a compact_boundary) is imported and compacted by
 * condense, once and three times; every request the user typed — before the imported pivot too,
 * read back from the stored history — and the latest one are in the summary verbatim.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionTruth } from '../../src/eval/truth.js';
import { type ImportedSession, parseTranscript } from '../../src/import/index.js';
import { openSession } from '../../src/session/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import { cliAsync, DATA_DIR, freshDb, HAS_DATA, NO_DATA, ok, tempDir } from './support.js';

const FILE = join(DATA_DIR, 'agent-sessions', 'claude-code', 'session-624a4a58.jsonl');
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

describe.skipIf(!HAS_DATA)(
  'requests across pivots (a real Claude Code session with its own compaction)',
  () => {
    if (!HAS_DATA) console.warn(NO_DATA);

    it('after 1 and after 3 condense compactions, every request and the latest one are in the summary', async () => {
      const raw = readFileSync(FILE, 'utf8');
      const parsed = parseTranscript(raw, { file: FILE }) as ImportedSession;
      expect(parsed.compactions?.length ?? 0).toBeGreaterThan(0);
      const truth = sessionTruth(parsed, raw);
      expect(truth.requests.length).toBeGreaterThan(1);
      const db = freshDb(tempDir());
      ok(await cliAsync(['import', FILE, '--session', 'cc', '--db', db]));
      const store = sqliteStore({ path: db });
      const session = await openSession(store, 'cc');
      const requests = [...truth.requests];
      for (let round = 1; round <= 3; round++) {
        const outcome = await session.compact();
        if (outcome.status !== 'compacted') throw new Error(`round ${round}: ${outcome.reason}`);
        const summary = flat(outcome.summary);
        // Requests are carried capped (2,000 characters each): their openings must be there verbatim.
        const missing = requests.filter((r) => !summary.includes(flat(r).slice(0, 300)));
        expect(missing, `round ${round}: requests missing from the summary`).toEqual([]);
        const context = flat(JSON.stringify((await session.prepare({ format: 'openai' })).messages));
        expect(context, `round ${round}: latest request`).toContain(
          JSON.stringify(flat(requests.at(-1)!).slice(0, 200)).slice(1, -1),
        );
        // The user goes on: a new request and some work, so that the next compaction has something new.
        const next = `Round ${round}: now also update the changelog for the sync fix (entry ${round * 7}).`;
        requests.push(next);
        await session.append([
          { role: 'user', parts: [{ type: 'text', text: next }] },
          {
            role: 'assistant',
            parts: [
              { type: 'text', text: `Updating the changelog. ${'Details of the change. '.repeat(400)}` },
            ],
          },
        ]);
      }
      await store.close();
    }, 300_000);
  },
);
