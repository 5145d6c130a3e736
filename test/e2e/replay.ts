/**
 * Replays a real session through a Session as an agent would: user messages are appended, and
 * each assistant step is preceded by prepare() (which compacts and prunes as configured) and
 * followed by recordStep() with the usage a simulated provider reports for the prepared request.
 */
import type { ModelMessage } from 'ai';
import { withoutBreakpoints } from '../../src/context/cache-breakpoints.js';
import type { AnthropicPayload } from '../../src/context/index.js';
import { splitAiSdkSystem } from '../../src/context/index.js';
import type { ImportedSession } from '../../src/import/index.js';
import { openSession, type Session } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { heuristicEstimator } from '../../src/tokens/estimator.js';
import { countWithTokenizer } from '../../src/tokens/exact.js';
import { FORMATS, type RealSession, renderAll, violationsOf } from './support.js';

const estimator = heuristicEstimator();

/**
 * Tokens the simulated provider reports as the prompt: the o200k_base tokens of every string in
 * the Anthropic request it receives except opaque signatures (a real tokenizer over what the provider reads, so it
 * disagrees with the chars/4 estimate of the parts the way a real provider does, more on code and
 * JSON than on prose), a few tokens of framing per message, and tool schemas the agent never
 * declared. Real usage from the files cannot serve once condense has compacted: it counts the
 * uncompacted prompt the original agent sent.
 */
export const UNDECLARED_TOKENS = 600;
const FRAMING_PER_MESSAGE = 4;
/** Thinking signatures and redacted thinking are opaque to the model: providers do not count them. */
const OPAQUE_FIELDS = new Set(['signature', 'data']);
export function providerPromptTokens(payload: AnthropicPayload): number {
  let tokens = UNDECLARED_TOKENS + FRAMING_PER_MESSAGE * payload.messages.length;
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      if (!OPAQUE_FIELDS.has(key)) tokens += countWithTokenizer('o200k_base', value);
    } else if (Array.isArray(value)) for (const v of value) visit(v, key);
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  visit(payload, '');
  return tokens;
}

export interface ReplayLimits {
  contextWindow: number;
  maxOutput: number;
  /** Room for the conversation once the system prompt and output are reserved. */
  space: number;
  keepTokens: number;
  summaryTokens: number;
  /** Raw (chars/4) tokens of the whole conversation. */
  conversation: number;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(x)));

/**
 * A window small against the session: the conversation gets a fifth of the session's size (2,000
 * to 16,000 tokens), so every session longer than twice that must compact several times. The
 * Claude Code and Codex sessions get windows of 18.6k–24k tokens. Floor: every summary repeats the
 * latest request verbatim (seed 004), so a window under about three times the longest user
 * message cannot shrink by compacting; condense then refuses with NoProgressError by design
 * (SWE-agent's issue statements are 1,000+ tokens).
 */
export function replayLimits(imported: ImportedSession): ReplayLimits {
  const sizes = imported.messages.map((m) => ({
    role: m.message.role,
    tokens: estimator.message(m.message),
  }));
  const conversation = sizes.reduce((a, m) => a + m.tokens, 0);
  const longestRequest = Math.max(0, ...sizes.filter((m) => m.role === 'user').map((m) => m.tokens));
  const space = Math.max(clamp(conversation / 5, 2_000, 16_000), 3 * longestRequest);
  const maxOutput = clamp(space / 8, 256, 2_000);
  const system = estimator.text(imported.system ?? '');
  return {
    contextWindow: system + UNDECLARED_TOKENS + space + maxOutput,
    maxOutput,
    space,
    keepTokens: Math.floor(space / 4),
    summaryTokens: Math.floor(space / 4),
    conversation,
  };
}

export interface StepFigure {
  estimate: number;
  truth: number;
  method: 'usage+delta' | 'calibrated';
  /** Plain chars/4 of the window and declared overhead: what a check without calibration counts. */
  raw: number;
  /** This prepare() compacted, so the estimate had no usage to start from. */
  compactedHere: boolean;
}

export interface ReplayResult {
  session: Session;
  limits: ReplayLimits;
  steps: number;
  compactions: number;
  prunes: number;
  /** Violations of any format after any prepare(), labelled with the step. */
  violations: string[];
  /** Errors thrown by prepare() or recordStep() (an agent would have had to stop). */
  errors: string[];
  figures: StepFigure[];
}

export async function replay(real: RealSession): Promise<ReplayResult> {
  const { imported } = real;
  const limits = replayLimits(imported);
  const system = imported.system;
  const session = await openSession(memoryStore(), real.name, {
    system,
    limits: { contextWindow: limits.contextWindow, maxOutput: limits.maxOutput },
    budget: { threshold: 0 }, // the limit is the usable budget: window − output
    compaction: { plan: { keepTokens: limits.keepTokens }, summaryTokens: limits.summaryTokens },
    prune: {
      protectTokens: Math.floor(limits.space / 2),
      minimumTokens: Math.floor(limits.space / 8),
      protectTurns: 0,
    },
  });
  const result: ReplayResult = {
    session,
    limits,
    steps: 0,
    compactions: 0,
    prunes: 0,
    violations: [],
    errors: [],
    figures: [],
  };
  session.on('compaction:end', () => result.compactions++);
  session.on('prune', () => result.prunes++);
  for (const { message } of imported.messages) {
    if (message.role !== 'assistant') {
      await session.append(message);
      continue;
    }
    const step = result.steps++;
    // Rotate the format prepare() renders so that each format also comes out of prepare itself.
    const format = FORMATS[step % FORMATS.length]!;
    const before = result.compactions;
    const prepared = await session.prepare({ format }).catch((error: Error) => {
      result.errors.push(`step ${step}: prepare: ${error.name}: ${error.message}`);
      return null;
    });
    const payloads = renderAll(session.activeEntries(), { system });
    const label = (v: string) => `step ${step}: ${v}`;
    result.violations.push(...violationsOf(payloads).map(label));
    if (prepared) {
      result.violations.push(...violationsOf({ [format]: prepared.messages }).map(label));
      // For the AI SDK, prepare() hands the system prompt out separately (generateText's `system`).
      const expected =
        format === 'ai-sdk'
          ? splitAiSdkSystem(payloads[format] as ModelMessage[]).messages
          : payloads[format];
      // Anthropic requests from prepare() carry cache breakpoints renderContext does not place.
      const sent =
        format === 'anthropic'
          ? withoutBreakpoints(prepared.messages as AnthropicPayload)
          : prepared.messages;
      if (JSON.stringify(sent) !== JSON.stringify(expected))
        result.violations.push(label(`prepare() ${format} differs from renderContext(activeEntries())`));
    }
    const truth = providerPromptTokens(payloads.anthropic as AnthropicPayload);
    if (prepared) {
      result.figures.push({
        estimate: prepared.tokens.tokens,
        truth,
        method: prepared.tokens.method,
        raw: session.record.state.activeTokens + session.config.overheadRaw,
        compactedHere: result.compactions > before,
      });
    }
    const usage = { input_tokens: truth, output_tokens: estimator.message(message) };
    await session.recordStep({ message, usage }).catch((error: Error) => {
      result.errors.push(`step ${step}: recordStep: ${error.name}: ${error.message}`);
    });
  }
  return result;
}
