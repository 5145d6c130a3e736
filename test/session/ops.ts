/**
 * Random operation sequences on a Session, for the session-level property test (TESTING item 1).
 * Operations are plain data so fast-check shrinks a failing sequence to a short, readable one.
 */
import fc from 'fast-check';
import { CompactionError } from '../../src/compact/index.js';
import type { ContextFormat } from '../../src/context/index.js';
import type { AssistantMessage, ToolPart, UserMessage } from '../../src/model/index.js';
import { EmptyContextError, type Session, type SessionOptions } from '../../src/session/index.js';

export interface ToolSpec {
  state: 'completed' | 'error' | 'pending' | 'running';
  /** Characters of output (or error text). */
  chars: number;
  name: 'read_file' | 'bash' | 'skill';
}

export type Op =
  | { kind: 'user' }
  | { kind: 'step'; tools: ToolSpec[]; text: boolean }
  /** `scale`: the reported prompt as a multiple of the session's own estimate (tokenizer drift). */
  | { kind: 'recordStep'; tools: ToolSpec[]; scale: number; completion: number }
  | { kind: 'prepare'; format: ContextFormat }
  | { kind: 'compact'; instructions: string | undefined }
  | { kind: 'prune' }
  | { kind: 'overflowError' };

const toolSpecArb: fc.Arbitrary<ToolSpec> = fc.record({
  state: fc.constantFrom('completed', 'completed', 'error', 'pending', 'running'),
  chars: fc.constantFrom(0, 40, 400, 2_000, 6_000),
  name: fc.constantFrom('read_file', 'read_file', 'bash', 'skill'),
});
/** Parallel calls: zero to three tool parts in one assistant step. */
const toolsArb = fc.array(toolSpecArb, { maxLength: 3 });

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Op>({ kind: 'user' }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('step' as const), tools: toolsArb, text: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('recordStep' as const),
      tools: toolsArb,
      scale: fc.constantFrom(1, 1, 1.3, 2, 0.5, 4),
      completion: fc.integer({ min: 0, max: 1_000 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('prepare' as const),
      format: fc.constantFrom<ContextFormat>('ai-sdk', 'openai', 'anthropic', 'gemini'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      instructions: fc.constantFrom(undefined, 'Keep every file path.', 'Focus on the failing tests.'),
    }),
  },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'prune' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'overflowError' }) },
);

/** Session configurations with a small window, so that pruning and compaction really happen. */
export const CONFIGS: Record<string, SessionOptions> = {
  'default tail, user summary': {
    model: 'prop-model',
    limits: { contextWindow: 10_000, maxOutput: 1_000 },
    system: 'You are a careful coding agent.',
    prune: { protectTokens: 600, minimumTokens: 200, protectTurns: 1 },
    compaction: { plan: { keepTokens: 1_500 }, summaryTokens: 500 },
  },
  'seed-001 layout, continue message': {
    model: 'prop-model',
    limits: { contextWindow: 10_000, maxOutput: 1_000 },
    prune: {
      protectTokens: 600,
      minimumTokens: 200,
      protectTurns: 2,
      turnCounting: 'any-user',
      crossing: 'prune',
    },
    compaction: {
      plan: { keepNone: true },
      summaryAs: 'question+assistant',
      continueMessage: true,
      summaryTokens: 500,
    },
  },
  'seed-002 layout, system summary': {
    model: 'prop-model',
    limits: { contextWindow: 10_000, maxOutput: 1_000 },
    system: 'You are Nexus.',
    prune: false,
    compaction: {
      plan: { keepTurns: Number.MAX_SAFE_INTEGER, keepTokens: 1_500, minKeepLatestTurn: false },
      summaryAs: 'system',
      summaryTokens: 500,
    },
  },
  'seed-000 layout, erase mode': {
    model: 'prop-model',
    limits: { contextWindow: 10_000, maxOutput: 1_000 },
    prune: {
      protectTokens: 600,
      minimumTokens: 200,
      protectTurns: 0,
      onMarked: 'skip',
      onSummary: 'skip',
      mode: 'erase',
    },
    compaction: { plan: { keepNone: true }, summaryAs: 'assistant', summaryTokens: 500 },
  },
};

export const OVERFLOW_ERROR = Object.assign(
  new Error(
    "This model's maximum context length is 10000 tokens. However, your messages resulted in 11000 tokens.",
  ),
  { statusCode: 400 },
);

/** Runs operations, numbering requests and call ids so every text and id is unique. */
export class Runner {
  private requests = 0;
  private calls = 0;
  /** Text of the newest user message the user wrote (not synthetic, not a marker). */
  latestRequest: string | undefined;
  /** Manual compactions that failed (each checked to have left the store byte-identical). */
  failedCompactions = 0;

  constructor(
    /** Mutable: a fork op moves the run onto the new session. */
    public session: Session,
    private readonly snapshot: () => Promise<string>,
  ) {}

  private step(tools: ToolSpec[], text: boolean): AssistantMessage {
    const parts: AssistantMessage['parts'] = [];
    if (text || tools.length === 0)
      parts.push({ type: 'text', text: `Working on request ${this.requests}.` });
    for (const spec of tools) parts.push(this.tool(spec));
    return { role: 'assistant', parts };
  }

  private tool(spec: ToolSpec): ToolPart {
    this.calls += 1;
    const base = {
      type: 'tool' as const,
      callId: `call_${this.calls}`,
      name: spec.name,
      input: { path: `src/mod${this.calls}.ts` },
    };
    const body = `out ${this.calls} `.padEnd(spec.chars, 'x');
    if (spec.state === 'completed') return { ...base, state: 'completed', output: body };
    if (spec.state === 'error') return { ...base, state: 'error', error: `failed ${this.calls}: ${body}` };
    return { ...base, state: spec.state };
  }

  async run(op: Op): Promise<void> {
    const s = this.session;
    switch (op.kind) {
      case 'user': {
        this.requests += 1;
        const text = `Request ${this.requests}: update src/feature${this.requests}.ts and keep the tests green`;
        const message: UserMessage = { role: 'user', parts: [{ type: 'text', text }] };
        await s.append(message);
        this.latestRequest = text;
        return;
      }
      case 'step':
        await s.append(this.step(op.tools, op.text));
        return;
      case 'recordStep':
        await s.recordStep({
          message: this.step(op.tools, false),
          usage: {
            prompt_tokens: Math.ceil(s.estimate().tokens * op.scale),
            completion_tokens: op.completion,
          },
        });
        return;
      case 'prepare':
        await tolerated(() => s.prepare({ format: op.format }));
        return;
      case 'compact': {
        const before = await this.snapshot();
        const failed = await tolerated(() => s.compact({ instructions: op.instructions }));
        if (failed) {
          this.failedCompactions += 1;
          const after = await this.snapshot();
          if (after !== before) throw new Error('a failed compaction changed the stored session');
        }
        return;
      }
      case 'prune':
        await s.prune();
        return;
      case 'overflowError':
        await tolerated(() => s.recordError(OVERFLOW_ERROR));
        return;
    }
  }
}

/** Runs `f`; a typed CompactionError (floor, no progress, rejected summary) is an allowed outcome. */
async function tolerated(f: () => Promise<unknown>): Promise<boolean> {
  try {
    await f();
    return false;
  } catch (error) {
    // A random sequence may prepare before anything was appended: nothing to send, nothing changed.
    if (error instanceof CompactionError || error instanceof EmptyContextError) return true;
    throw error;
  }
}
