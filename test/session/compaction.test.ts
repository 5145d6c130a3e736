import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, say, toolCall, turn, user } from './helpers.js';

const window = {
  model: 'test-model',
  limits: { contextWindow: 30_000, maxOutput: 2_000 },
  prune: false as const,
};

describe('sessions past the window (TESTING item 3)', () => {
  it('a session at 130% of the window compacts and then fits', async () => {
    const session = await openSession(memoryStore(), 's', { ...window, checks: { beforeTurn: false } });
    // ~39,000 estimated tokens of history against a 30,000 window.
    for (let i = 0; i < 6; i++)
      await session.append(turn(`request ${i} about module${i}.ts`, 3, 8_600, `t${i}`));
    const before = session.estimate().tokens;
    expect(before).toBeGreaterThan(1.3 * 30_000 * 0.99);
    const outcome = await session.compact();
    expect(outcome.status).toBe('compacted');
    const after = session.estimate().tokens;
    expect(after).toBeLessThan(30_000 * 0.8);
    const { messages } = await session.prepare({ format: 'anthropic' });
    expect(validate(messages, 'anthropic')).toEqual([]);
  });

  it('a single 1.5M-character tool output compacts, and the output is never sent whole', async () => {
    const session = await openSession(memoryStore(), 's', window);
    await session.append(user('Dump the whole production log and find the crash in src/server/auth.ts'));
    await session.append(act(toolCall('bash', { command: 'cat /var/log/app.log' }, 'E'.repeat(1_500_000))));
    await session.append(say('The log shows a crash at auth.ts:42.'));
    await session.append(user('Now fix it'));
    const { messages, compaction } = await session.prepare({ format: 'openai' });
    expect(compaction?.status).toBe('compacted');
    const sent = JSON.stringify(messages);
    expect(sent.length).toBeLessThan(200_000);
    expect(sent).toContain('Now fix it');
    expect(validate(messages, 'openai')).toEqual([]);
  });
});

describe('after compaction', () => {
  it('uses the provider count endpoint when one is configured (seed 004 §7)', async () => {
    const counted: number[] = [];
    const session = await openSession(memoryStore(), 's', {
      ...window,
      compaction: {
        countTokens: async ({ messages }) => {
          counted.push(messages.length);
          return 1_234;
        },
      },
    });
    await session.append(turn('first', 4, 8_000));
    await session.append(turn('second', 1, 1_000, 'b'));
    await session.compact();
    expect(counted).toHaveLength(1);
    expect(session.estimate()).toMatchObject({ tokens: 1_234, method: 'usage+delta' });
  });

  it('without one, the stale usage is dropped and the estimate falls back to the calibrated count', async () => {
    const session = await openSession(memoryStore(), 's', window);
    await session.append(turn('first', 4, 8_000));
    await session.recordStep({ message: say('ok'), usage: { prompt_tokens: 25_000, completion_tokens: 10 } });
    await session.append(turn('second', 1, 1_000, 'b'));
    await session.compact();
    const estimate = session.estimate();
    expect(estimate.method).toBe('calibrated');
    expect(estimate.tokens).toBeLessThan(25_000);
  });

  it('runs hooks and events in order; beforeCompact can cancel', async () => {
    const seen: string[] = [];
    let allow = false;
    const session = await openSession(memoryStore(), 's', {
      ...window,
      hooks: {
        beforeCompact: () => {
          seen.push('before');
          return allow;
        },
        afterCompact: () => {
          seen.push('after');
        },
      },
    });
    session.on('compaction:start', () => seen.push('start'));
    session.on('compaction:end', (e) => seen.push(`end ${e.tokensBefore > e.tokensAfter}`));
    await session.append(turn('first', 4, 8_000));
    await session.append(turn('second', 1, 1_000, 'b'));
    expect((await session.compact()).status).toBe('skipped');
    expect(session.record.state.pivotId).toBeNull();
    allow = true;
    expect((await session.compact()).status).toBe('compacted');
    expect(seen).toEqual(['before', 'before', 'start', 'end true', 'after']);
  });

  it('adds no continue message by default; the user request stays verbatim (TESTING item 13)', async () => {
    const session = await openSession(memoryStore(), 's', window);
    await session.append(turn('first request', 4, 8_000));
    await session.append(
      user('Please rename getUser to fetchUser everywhere, but never touch src/legacy.ts'),
    );
    for (let i = 0; i < 6; i++) await session.append(turn('x', 1, 24_000, `s${i}`).slice(1, 2));
    const { messages, compaction } = await session.prepare({ format: 'openai' });
    expect(compaction?.status).toBe('compacted');
    const sent = JSON.stringify(messages);
    expect(sent).toContain('Please rename getUser to fetchUser everywhere, but never touch src/legacy.ts');
    expect(sent).not.toContain('Continue if you have next steps');
  });
});
