import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { runTurns, scriptedAgent } from './harness.js';
import { wrapped } from './support.js';

/**
 * The "done when": an app keeps calling generateText with its whole history; with the
 * middleware, the model (which counts 2.5 chars per token, where condense's estimator assumes 4)
 * never receives more than the usable budget, compactions happen only near the threshold, and the
 * estimate condense works from is within 10% of the prompt really sent.
 */
describe('condenseMiddleware over a 40k window (30 turns, tools, stopWhen: stepCountIs(10))', () => {
  it('keeps every request within the usable budget, compacts near the threshold, estimates within 10%', async () => {
    let session: Session | undefined;
    let estimate: number | null = null;
    const pairs: { estimate: number; truth: number }[] = [];
    const beforeCompaction: number[] = [];
    const agent = scriptedAgent({
      seed: 30,
      onRequest: (r) => {
        if (estimate !== null) pairs.push({ estimate, truth: r.tokens });
      },
    });
    const { model } = wrapped(agent.model, memoryStore(), {
      limits: { contextWindow: 40_000, maxOutput: 4_000 },
      onSession: (s) => {
        session = s;
        // The true size of the request sent just before the compaction.
        s.on('compaction:end', () => beforeCompaction.push(agent.requests.at(-1)!.tokens));
      },
      onPrepared: (prepared) => {
        estimate = prepared.tokens.tokens;
      },
    });

    await runTurns({ agent, model, turns: 30 });

    const { usable, limit } = session!.config.budget;
    const sizes = agent.requests.map((r) => r.tokens);
    const outputs = agent.requests.length - 30;
    // Estimates count once one step has been recorded: the first request is the learning sample.
    const errors = pairs.slice(1).map((p) => Math.abs(p.estimate - p.truth) / p.truth);
    const ratios = beforeCompaction.map((t) => t / limit!);
    console.info(
      `[middleware 40k] requests ${sizes.length} (tool steps ${outputs}), max request ${Math.max(...sizes)}/${usable} usable,` +
        ` compactions ${ratios.length}, min pre-compaction ${(Math.min(...ratios) * 100).toFixed(1)}% of ${limit},` +
        ` estimate error mean ${((errors.reduce((a, b) => a + b, 0) / errors.length) * 100).toFixed(2)}%` +
        ` max ${(Math.max(...errors) * 100).toFixed(2)}%`,
    );

    expect(session!.id).toBe('chat');
    expect(outputs).toBeGreaterThan(50);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(usable!);
    expect(ratios.length).toBeGreaterThanOrEqual(5);
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.6);
    expect(errors.length).toBe(agent.requests.length - 1);
    expect(Math.max(...errors)).toBeLessThanOrEqual(0.1);
  });
});
