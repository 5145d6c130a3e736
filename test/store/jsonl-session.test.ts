/** A seed-003 session on the JSONL store, across process restarts (a new store on the same folder). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession, presetOptions } from '../../src/session/index.js';
import { jsonlStore } from '../../src/store/jsonl.js';
import { sizedSay, sizedUser } from '../presets/support.js';

const options = { ...presetOptions('seed-003'), model: 'gpt-4o' };
const temp = mkdtempSync(join(tmpdir(), 'condense-jsonl-session-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Raw tokens of every line of the current file, as stored with each entry. */
function currentFileTokens(dir: string): number {
  return readFileSync(join(dir, 's', 'current.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .reduce((sum, line) => sum + JSON.parse(line).condense.tokens, 0);
}

describe('seed 003 on the JSONL store', () => {
  it('on start-up without a stored last prompt, the first estimate covers the whole current file', async () => {
    const dir = join(temp, 'restart');
    const store = jsonlStore({ dir });
    const session = await openSession(store, 's', options);
    await session.append(sizedUser('Plan the migration of the billing service', 60_000));
    await session.prepare();
    await session.recordStep({
      message: sizedSay('Here is the plan', 42_401),
      usage: { prompt_tokens: 60_000, completion_tokens: 900 },
    });
    // 60,000 + 42,401 > 0.8 × 128,000: compacts, and the provider's count is gone with the old context.
    expect((await session.prepare()).compaction?.status).toBe('compacted');
    await session.append(sizedUser('Go on with step 2', 3_000));
    await session.append(sizedSay('Working on it', 2_000));
    await store.close();

    const reopened = jsonlStore({ dir });
    const restarted = await openSession(reopened, 's', options);
    expect(restarted.record.state.lastUsage).toBeNull();
    const tokens = currentFileTokens(dir);
    expect(tokens).toBeGreaterThan(5_000);
    // The calibration learned before the restart has ratio 1, so the estimate is the file's tokens.
    expect(restarted.estimate()).toMatchObject({ method: 'calibrated', tokens });
    expect((await restarted.prepare()).decision).toMatchObject({ tokens, compact: false });
    await reopened.close();
  });

  it('with a stored last prompt, the restart still estimates the whole file: the last prompt lived in memory', async () => {
    const dir = join(temp, 'stored');
    const store = jsonlStore({ dir });
    const session = await openSession(store, 's', options);
    await session.append(sizedUser('Hello', 1_000));
    await session.prepare();
    await session.recordStep({
      message: sizedSay('Hi', 200),
      usage: { prompt_tokens: 1_100, completion_tokens: 50 },
    });
    expect(session.estimate()).toMatchObject({ method: 'usage+delta', base: 1_100 });
    await store.close();
    const reopened = jsonlStore({ dir });
    const restarted = await openSession(reopened, 's', options);
    // Stored, but not this process's: "First call: … estimate the entire session locally".
    expect(restarted.record.state.lastUsage).not.toBeNull();
    expect(restarted.estimate()).toMatchObject({
      method: 'calibrated',
      base: 0,
      tokens: currentFileTokens(dir),
    });
    await reopened.close();
  });
});
