/**
 * stepHooks with the user's own prepareStep and onStepFinish, through the AI SDK's generateText /
 * streamText on its mock model: both hooks run at every step, and every step is recorded.
 */
import { generateText, type StepResult, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { stepHooks } from '../../src/integrations/ai-sdk/step-hooks.js';
import type { Part } from '../../src/model/index.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { scriptedAgent } from './harness.js';

const TOOL_STEPS = 3;

async function run(stream: boolean) {
  const agent = scriptedAgent({ toolSteps: [TOOL_STEPS, TOOL_STEPS], outputTokens: [200, 400] });
  const session = await openSession(memoryStore(), 's', { model: 'claude-sonnet-4-5' });
  const prepared: { stepNumber: number; messages: number; viewMessages: number }[] = [];
  const finished: StepResult<typeof agent.tools>[] = [];
  const hooks = stepHooks(session, {
    tools: agent.tools,
    // The user's own hook sees condense's view and may add settings of its own.
    prepareStep: async ({ stepNumber, messages }) => {
      prepared.push({ stepNumber, messages: messages.length, viewMessages: session.activeEntries().length });
      return { activeTools: ['read_file'], toolChoice: stepNumber < TOOL_STEPS ? 'required' : 'auto' };
    },
    onStepFinish: (step) => {
      finished.push(step);
    },
  });
  agent.startTurn(0);
  await session.append({ role: 'user', content: 'Read what you need and report.' });
  const { system, messages } = await session.prepare();
  const settings = { model: agent.model, tools: agent.tools, system, messages, stopWhen: stepCountIs(10) };
  if (stream) await streamText({ ...settings, ...hooks }).consumeStream();
  else await generateText({ ...settings, ...hooks });
  return { agent, session, prepared, finished };
}

describe.each([false, true])('stepHooks composed with the user’s own hooks (stream: %s)', (stream) => {
  it('runs both hooks at every step, and records every step', async () => {
    const { agent, session, prepared, finished } = await run(stream);
    const steps = TOOL_STEPS + 1;
    expect(agent.requests).toHaveLength(steps);
    expect(prepared.map((p) => p.stepNumber)).toEqual([0, 1, 2, 3]);
    expect(finished).toHaveLength(steps);
    expect(finished.at(-1)!.finishReason).toBe('stop');
    // The user's hook was handed the session's view: one message per stored entry (the user's
    // request, then each step's assistant message with its tool call and result).
    for (const p of prepared) expect(p.messages).toBeGreaterThan(0);
    // Every step recorded: its tool call with the result, and its usage learned.
    const history = await session.history();
    const tools = history
      .flatMap((e): Part[] => (e.kind === 'message' ? e.message.parts : []))
      .filter((p) => p.type === 'tool');
    expect(tools).toHaveLength(TOOL_STEPS);
    expect(tools.every((t) => t.type === 'tool' && t.state === 'completed')).toBe(true);
    expect(session.record.state.lastUsage?.usage.inputTotal).toBe(agent.requests.at(-1)!.tokens);
    // What the user's prepareStep returned reached the model.
    const calls = stream ? agent.model.doStreamCalls : agent.model.doGenerateCalls;
    expect(calls.map((c) => c.toolChoice?.type)).toEqual(['required', 'required', 'required', 'auto']);
  });
});
