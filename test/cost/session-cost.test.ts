/**
 * The stored cost of an imported Claude Code session is its own reported usage priced: the totals
 * are read straight from the transcript's lines (one usage per streamed response id, the last
 * line's, as Claude Code rewrites it while streaming), independently of the importer.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planImport, writeImport } from '../../src/cli/import-write.js';
import { sessionCost } from '../../src/cost/session-cost.js';
import { parseClaudeCode } from '../../src/import/index.js';
import { report } from '../../src/report/index.js';
import { memoryStore } from '../../src/store/index.js';
import { claudeCodeSessions } from '../tokens/claude-code-replay.js';

const files = claudeCodeSessions();
/** A fixed table (USD per million tokens), so the test does not move with the catalog. */
const PRICES = { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 };

function reportedTotals(file: string) {
  const byId = new Map<string, { input_tokens: number; output_tokens: number } & Record<string, number>>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line);
    const m = row.message;
    if (row.type !== 'assistant' || !m?.usage || m.model === '<synthetic>') continue;
    byId.set(m.id ?? row.uuid, m.usage);
  }
  const t = { requests: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  for (const u of byId.values()) {
    const read = u.cache_read_input_tokens ?? 0;
    const write = u.cache_creation_input_tokens ?? 0;
    if (u.input_tokens + read + write === 0) continue;
    t.requests++;
    t.input += u.input_tokens + read + write;
    t.cacheRead += read;
    t.cacheWrite += write;
    t.output += u.output_tokens;
  }
  return t;
}

describe.skipIf(files.length === 0)('the stored cost of an imported Claude Code session', () => {
  it.each(files)('matches its reported usage priced by the table: %s', async (file) => {
    const store = memoryStore();
    await writeImport(
      store,
      planImport([parseClaudeCode(readFileSync(file, 'utf8'), { file })], ['s'], file),
    );
    const cost = sessionCost(await store.loadFrom('s', 0), 'claude-sonnet-4-5-20250929', PRICES);
    const t = reportedTotals(file);
    expect(t.requests).toBeGreaterThan(0);
    expect(cost).toMatchObject(t);
    const uncached = t.input - t.cacheRead - t.cacheWrite;
    const dollars = (uncached * 2 + t.cacheRead * 0.2 + t.cacheWrite * 2.5 + t.output * 10) / 1e6;
    expect(cost.cost).toBeCloseTo(dollars, 9);
  });

  it('prices by the catalog when no table is given, and says when the model has no price', async () => {
    const file = files[0]!;
    const store = memoryStore();
    await writeImport(
      store,
      planImport([parseClaudeCode(readFileSync(file, 'utf8'), { file })], ['s'], file),
    );
    const entries = await store.loadFrom('s', 0);
    const catalog = sessionCost(entries, 'claude-sonnet-4-5-20250929');
    expect(catalog.prices).toMatchObject({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(catalog.cost).toBeCloseTo(sessionCost(entries, 'x', catalog.prices!).cost!, 9);
    expect(sessionCost(entries, 'no-such-model-xyz').cost).toBeNull();
    // The HTML report shows the same figure.
    const html = await report(store, 's');
    expect(html).toContain(
      `<b>$${catalog.cost!.toFixed(2)}</b><span>cost of ${catalog.requests} reported requests`,
    );
  });
});
