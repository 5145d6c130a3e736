import { describe, expect, it } from 'vitest';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, say, toolCall, turn, user } from './helpers.js';

describe('the base of the hybrid estimate', () => {
  it('pruning after a reported usage lowers the estimate (a signed delta)', async () => {
    const session = await openSession(memoryStore(), 's', {
      limits: { contextWindow: 1_000_000 },
      prune: { protectTokens: 1_000, minimumTokens: 1_000, protectTurns: 1, when: 'open' },
    });
    await session.append(turn('read everything', 8, 20_000));
    await session.append(user('now summarize'));
    const sent = (await session.prepare()).tokens.tokens;
    await session.recordStep({ message: say('ok'), usage: { prompt_tokens: sent, completion_tokens: 5 } });
    const before = session.estimate().tokens;
    const pruned = await session.prune();
    expect(pruned?.parts).toBeGreaterThan(0);
    expect(session.estimate().tokens).toBeLessThan(before - 20_000);
  });

  it('a step whose request predates a compaction neither becomes the base nor queues a marker', async () => {
    const session = await openSession(memoryStore(), 's', {
      model: 'm',
      limits: { contextWindow: 30_000, maxOutput: 2_000 },
      prune: false,
    });
    await session.append(turn('first', 4, 20_000));
    await session.append(user('second'));
    await session.prepare({ format: 'openai' }).catch(() => null);
    await session.compact(); // e.g. another worker, while the model was answering
    const step = await session.recordStep({
      message: act(toolCall('read_file', { path: 'x' }, 'y')),
      usage: { prompt_tokens: 29_000, completion_tokens: 10 },
    });
    expect(step.markerId).toBeNull();
    expect(session.record.state.lastUsage).toBeNull();
    expect(session.estimate().tokens).toBeLessThan(24_000);
  });

  it('the recount after compaction counts the system prompt and tools given to prepare()', async () => {
    const counted: { system?: string; tools?: unknown }[] = [];
    const session = await openSession(memoryStore(), 's', {
      model: 'm',
      limits: { contextWindow: 40_000, maxOutput: 2_000 },
      prune: false,
      compaction: {
        countTokens: async (context) => {
          counted.push(context);
          return 5_000;
        },
      },
    });
    await session.append(turn('first', 4, 20_000));
    await session.append(user('second'));
    await session.prepare({ format: 'openai', system: 'Be brief.', tools: { grep: { pattern: 'string' } } });
    await session.compact();
    expect(counted[0]).toMatchObject({ system: 'Be brief.', tools: { grep: { pattern: 'string' } } });
  });
});
