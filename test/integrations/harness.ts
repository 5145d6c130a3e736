import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { generateText, type LanguageModel, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { rng } from '../../src/demo/synthetic.js';

/**
 * A scripted coding agent on the AI SDK's own mock model, for tests that need a model which
 * counts like a real one: every prompt it receives is measured at 2.5 characters per token (a
 * Claude-like tokenizer; condense's default estimator assumes 4, so a session must learn the
 * ratio), and that measure is what it reports as `usage.inputTokens`.
 */

/** chars / 2.5: what the mock model takes as the true token count of a text. */
export const CHARS_PER_TOKEN = 2.5;

export interface MeasuredRequest {
  /** The true prompt size, also reported as usage.inputTokens.total. */
  tokens: number;
  prompt: LanguageModelV3Prompt;
  /** 0-based index of the turn (startTurn) the request belongs to. */
  turn: number;
}

/** Characters of what a prompt carries: texts, tool calls and results as JSON, tool definitions. */
export function promptChars(options: Pick<LanguageModelV3CallOptions, 'prompt' | 'tools'>): number {
  let chars = options.tools ? JSON.stringify(options.tools).length : 0;
  for (const message of options.prompt) {
    if (message.role === 'system') {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          chars += part.text.length;
          break;
        case 'tool-call':
          chars += part.toolName.length + JSON.stringify(part.input).length;
          break;
        case 'tool-result': {
          const out = part.output;
          const value = 'value' in out ? out.value : (out.reason ?? '');
          chars +=
            part.toolName.length + (typeof value === 'string' ? value.length : JSON.stringify(value).length);
          break;
        }
      }
    }
  }
  return chars;
}

export function trueTokens(options: Pick<LanguageModelV3CallOptions, 'prompt' | 'tools'>): number {
  return Math.ceil(promptChars(options) / CHARS_PER_TOKEN);
}

/** Source-like text of about `tokens` true tokens, different for every path. */
export function fileText(path: string, tokens: number): string {
  const lines = [`// ${path}`];
  let chars = lines[0]!.length;
  for (let i = 0; chars < tokens * CHARS_PER_TOKEN; i++) {
    const line = `export function step${i}(input: number): number { return input * ${i % 97} + ${path.length}; }`;
    lines.push(line);
    chars += line.length + 1;
  }
  return lines.join('\n');
}

export interface AgentOptions {
  seed?: number;
  /** Tool steps per turn before the text answer, inclusive range. Default [1, 4]. */
  toolSteps?: [number, number];
  /** True tokens of each read_file output, inclusive range. Default [1,500, 6,000]. */
  outputTokens?: [number, number];
  /** Runs for every request the model receives, before it answers. */
  onRequest?: (request: MeasuredRequest) => void;
}

export interface ScriptedAgent {
  model: MockLanguageModelV3;
  /** The tools the script calls (read_file), with their executors. */
  tools: { read_file: ReturnType<typeof readFileTool> };
  /** Every request the model received, measured. */
  requests: MeasuredRequest[];
  /** Starts turn `turn`: the model calls read_file a scripted number of times, then answers. */
  startTurn(turn: number): void;
}

function readFileTool(sizes: Map<string, number>) {
  return tool({
    description: 'Read a file of the project and return its full contents.',
    inputSchema: z.object({ path: z.string().describe('Path relative to the project root') }),
    execute: async ({ path }) => fileText(path, sizes.get(path) ?? 500),
  });
}

function usage(input: number, output: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

export function scriptedAgent(opts: AgentOptions = {}): ScriptedAgent {
  // Seeded, so every run scripts the same agent.
  const rand = rng(opts.seed ?? 1);
  const between = ([lo, hi]: [number, number]) => lo + Math.floor(rand() * (hi - lo + 1));
  const sizes = new Map<string, number>();
  const requests: MeasuredRequest[] = [];
  let turn = -1;
  let stepsLeft = 0;
  let step = 0;

  const answer = (options: LanguageModelV3CallOptions): LanguageModelV3GenerateResult => {
    // A copy: through the middleware the prompt is extended in place by the next call.
    const request = { tokens: trueTokens(options), prompt: [...options.prompt], turn };
    requests.push(request);
    opts.onRequest?.(request);
    step++;
    let content: LanguageModelV3Content[];
    if (stepsLeft > 0) {
      stepsLeft--;
      const path = `src/turn${turn}/module${step}.ts`;
      sizes.set(path, between(opts.outputTokens ?? [1_500, 6_000]));
      content = [
        { type: 'text', text: `Reading ${path} to see how step ${step} is done.` },
        {
          type: 'tool-call',
          toolCallId: `call-${turn}-${step}`,
          toolName: 'read_file',
          input: JSON.stringify({ path }),
        },
      ];
    } else {
      content = [
        { type: 'text', text: `Turn ${turn} done: read ${step - 1} files; everything is in order.` },
      ];
    }
    const outChars = content.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 60), 0);
    return {
      content,
      finishReason: { unified: content.length > 1 ? 'tool-calls' : 'stop', raw: undefined },
      usage: usage(request.tokens, Math.ceil(outChars / CHARS_PER_TOKEN)),
      warnings: [],
    };
  };

  const model = new MockLanguageModelV3({
    modelId: 'mock-2.5cpt',
    doGenerate: async (options) => answer(options),
    doStream: async (options) => ({ stream: convertArrayToReadableStream(streamParts(answer(options))) }),
  });
  return {
    model,
    tools: { read_file: readFileTool(sizes) },
    requests,
    startTurn(t) {
      turn = t;
      step = 0;
      stepsLeft = between(opts.toolSteps ?? [1, 4]);
    },
  };
}

/** A generate result as the parts a provider would stream. */
export function streamParts(result: LanguageModelV3GenerateResult): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  result.content.forEach((p, i) => {
    if (p.type === 'text') {
      const id = `t${i}`;
      const half = Math.ceil(p.text.length / 2);
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: p.text.slice(0, half) },
        { type: 'text-delta', id, delta: p.text.slice(half) },
        { type: 'text-end', id },
      );
    } else parts.push(p as LanguageModelV3StreamPart);
  });
  parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
  return parts;
}

type AgentTools = ScriptedAgent['tools'];
type GenerateTextOptions = Parameters<typeof generateText<AgentTools>>[0];

export interface RunOptions {
  agent: ScriptedAgent;
  /** The model the app calls: the agent's model, usually wrapped with a middleware. */
  model: LanguageModel;
  turns: number;
  /** The app's messages so far (a run continued, e.g. after a restart); not modified. */
  messages?: ModelMessage[];
  /** Index of the first turn (continuing a run). Default 0. */
  firstTurn?: number;
  system?: string;
  stream?: boolean;
  /** Step hooks for generateText (not used with `stream`), e.g. to record each step yourself. */
  generateOptions?: Pick<GenerateTextOptions, 'prepareStep' | 'onStepFinish'>;
  /** Runs after each turn with the app's messages so far. */
  afterTurn?: (turn: number, messages: ModelMessage[]) => void | Promise<void>;
}

/**
 * The app: N turns of `generateText({ model, tools, stopWhen: stepCountIs(10), messages })` (or
 * streamText), keeping its own ever-growing messages as the AI SDK docs show.
 */
export async function runTurns(opts: RunOptions): Promise<ModelMessage[]> {
  const messages: ModelMessage[] = [...(opts.messages ?? [])];
  const system = opts.system ?? 'You are a careful coding agent. Read files before changing them.';
  const first = opts.firstTurn ?? 0;
  for (let turn = first; turn < first + opts.turns; turn++) {
    opts.agent.startTurn(turn);
    messages.push({ role: 'user', content: `Task ${turn}: review the modules of part ${turn} and report.` });
    const call = { model: opts.model, system, tools: opts.agent.tools, stopWhen: stepCountIs(10), messages };
    if (opts.stream) {
      const result = streamText(call);
      await result.consumeStream();
      messages.push(...(await result.response).messages);
    } else {
      const result = await generateText({ ...call, ...opts.generateOptions });
      messages.push(...result.response.messages);
    }
    await opts.afterTurn?.(turn, messages);
  }
  return messages;
}
