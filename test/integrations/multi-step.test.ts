/**
 * Multi-step AI SDK calls (`generateText` / `streamText` with tools and `stopWhen`) through a 40k
 * window, 30 turns whose tool outputs cross it many times. The mock model reports the real size of
 * each prompt it receives (chars / 2.5); condense estimates chars / 4 and must learn the rest.
 * Turns of up to 9 tool calls outgrow the window inside one call: only per-step hooks can compact
 * there, so the plain loop is held to estimate accuracy and no premature compaction.
 */
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { renderContext, splitAiSdkSystem } from '../../src/context/index.js';
import { toV3Prompt } from '../../src/integrations/ai-sdk/prompt-out.js';
import { stepHooks } from '../../src/integrations/ai-sdk/step-hooks.js';
import { openSession, type Session } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { scriptedAgent, trueTokens } from './harness.js';

const SYSTEM = 'You are a careful coding agent. Read the files you need, then answer.';
const TURNS = 30;

type Mode = 'hooks' | 'hooks-stream' | 'plain-result' | 'plain-response';

interface Run {
  session: Session;
  usable: number;
  limit: number;
  /** True size of the would-be request when each compaction started. */
  atCompaction: number[];
  /** Agent requests: true size, condense's estimate when it was sent, whether condense checked it. */
  sent: { tokens: number; estimate: number; checked: boolean }[];
}

async function drive(mode: Mode): Promise<Run> {
  let session: Session | undefined;
  let toolTokens = 0;
  let callsInTurn = 0;
  const sent: Run['sent'] = [];
  const hooked = mode === 'hooks' || mode === 'hooks-stream';
  const agent = scriptedAgent({
    seed: 8,
    toolSteps: [1, 9],
    onRequest: (r) => {
      toolTokens = r.tokens - trueTokens({ prompt: r.prompt });
      // Without hooks condense sees only the first request of each call; the rest it never checked.
      const checked = hooked || callsInTurn++ === 0;
      sent.push({ tokens: r.tokens, estimate: session!.estimate().tokens, checked });
    },
  });
  session = await openSession(memoryStore(), `multi-${mode}`, {
    model: 'mock-2.5cpt',
    limits: { contextWindow: 40_000, maxOutput: 4_000 },
    system: SYSTEM,
    tools: agent.tools,
  });
  const opened = session;
  const atCompaction: number[] = [];
  opened.on('compaction:start', () => {
    const rendered = renderContext(opened.activeEntries(), { format: 'ai-sdk', system: SYSTEM });
    const { system, messages } = splitAiSdkSystem(rendered as ModelMessage[]);
    atCompaction.push(trueTokens({ prompt: toV3Prompt(system, messages) }) + toolTokens);
  });
  const hooks = stepHooks(opened);
  const { model, tools } = agent;
  for (let turn = 0; turn < TURNS; turn++) {
    agent.startTurn(turn);
    callsInTurn = 0;
    await opened.append({ role: 'user', content: `Task ${turn}: read what you need and report.` });
    const { system, messages } = await opened.prepare();
    const settings = { model, tools, system, messages, stopWhen: stepCountIs(10) };
    if (mode === 'hooks') await generateText({ ...settings, ...hooks });
    else if (mode === 'hooks-stream') await streamText({ ...settings, ...hooks }).consumeStream();
    else {
      const result = await generateText(settings);
      if (mode === 'plain-result') await opened.recordStep(result);
      else await opened.recordStep({ response: result.response, usage: result.usage });
    }
  }
  const { usable, limit } = opened.config.budget;
  return { session: opened, usable: usable!, limit: limit!, atCompaction, sent };
}

function measure(mode: Mode, run: Run) {
  const checked = run.sent.filter((s) => s.checked);
  // Once one step has been recorded: the first request is the one the ratio is learned from.
  const errors = checked.slice(1).map((s) => Math.abs(s.estimate - s.tokens) / s.tokens);
  const largest = Math.max(...checked.map((s) => s.tokens));
  const lowest = Math.min(...run.atCompaction) / run.limit;
  const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
  console.log(
    `[multi-step ${mode}] ${run.sent.length} requests (${checked.length} checked), ${run.atCompaction.length} compactions; ` +
      `largest checked request ${largest} / usable ${run.usable}; lowest prompt at a compaction ${(100 * lowest).toFixed(0)}% of the ${run.limit} trigger; ` +
      `estimate error mean ${(100 * mean).toFixed(1)}% max ${(100 * Math.max(...errors)).toFixed(1)}%`,
  );
  return { errors, largest, lowest };
}

describe('multi-step AI SDK calls through a 40k window', () => {
  for (const mode of ['hooks', 'hooks-stream'] as const) {
    it(`${mode}: no request over the usable budget, no premature compaction, estimates within 10%`, async () => {
      const run = await drive(mode);
      const { errors, largest, lowest } = measure(mode, run);
      expect(run.atCompaction.length).toBeGreaterThanOrEqual(5);
      expect(largest).toBeLessThanOrEqual(run.usable);
      expect(lowest).toBeGreaterThanOrEqual(0.6);
      expect(Math.max(...errors)).toBeLessThan(0.1);
    });
  }

  for (const mode of ['plain-result', 'plain-response'] as const) {
    it(`${mode}: the README loop with multi-step calls: estimates within 10%, no premature compaction`, async () => {
      const run = await drive(mode);
      const { errors, lowest } = measure(mode, run);
      expect(run.atCompaction.length).toBeGreaterThanOrEqual(5);
      expect(lowest).toBeGreaterThanOrEqual(0.6);
      expect(Math.max(...errors)).toBeLessThan(0.1);
      // What the steps taught stays a ratio, not invented overhead.
      const calibration = run.session.record.state.calibration['mock-2.5cpt']!;
      expect(calibration.ratio).toBeGreaterThan(1.3);
      expect(Math.abs(calibration.residual)).toBeLessThan(1_000);
    });
  }
});
