import { mergeOptions } from '../config/merge.js';
import type { ContextFormat } from '../context/index.js';
import { cacheRuleFor, withTtl } from '../cost/caching.js';
import { addUsage, cacheHitShare, costOf, NO_USAGE, tokenPrices, type UsageTotals } from '../cost/price.js';
import type { ImportedSession } from '../import/index.js';
import type { Message } from '../model/message.js';
import type { Usage } from '../model/session.js';
import { openSession, type SessionOptions } from '../session/index.js';
import { memoryStore } from '../store/index.js';
import { estimatorByName } from '../tokens/exact.js';
import { lookupModel, type ModelPrices } from '../tokens/models.js';
import { normalizeUsage } from '../tokens/usage.js';
import { PromptCache, type Segment } from './prompt-cache.js';
import { Segmenter } from './segments.js';

export const POLICIES = ['default', 'none', 'every-turn'] as const;
export type PolicyName = (typeof POLICIES)[number];

/**
 * The session options of each policy compared: `under` are defaults a configuration's own
 * settings replace, `over` are forced. `default` is condense's defaults (cost-aware pruning of the
 * outputs of earlier turns and past the protect window; compaction at the trigger, or early once
 * the cache has expired); `none` never prunes and compacts only at the trigger; `every-turn` hides
 * on every turn every output the default may hide (all of those before the protected turns, or
 * past a configured protect window), paying no heed to the cache.
 */
const POLICY_OPTIONS: Record<PolicyName, { under: SessionOptions; over: SessionOptions }> = {
  default: { under: {}, over: {} },
  none: { under: {}, over: { prune: false, cache: { costAware: false } } },
  'every-turn': {
    under: { prune: { protectTokens: 0 } },
    over: { prune: { minimumTokens: 0 }, cache: { costAware: false } },
  },
};

export interface SimulateOptions {
  /** The context window the replay runs in. */
  window: number;
  policy: PolicyName;
  /** Default: the transcript's model (the one that answered its last request). */
  model?: string;
  /** USD per million tokens; default the catalog's for the model. */
  prices?: ModelPrices;
  /** Settings the policy applies over (a configuration file's, a preset's): thresholds, layout. */
  options?: SessionOptions;
  /** Called with each request as it is billed (a compaction's summary call included). */
  onRequest?: (request: ReplayedRequest) => void;
}

/** One billed request of a replay. */
export interface ReplayedRequest {
  at: number;
  kind: 'request' | 'summary';
  usage: Usage;
  pruned: number;
  compacted: boolean;
}

export interface SimulationResult extends UsageTotals {
  model: string;
  policy: PolicyName;
  window: number;
  format: ContextFormat;
  /** Dollars; null without prices. */
  cost: number | null;
  cacheHitShare: number;
  /** Cache reads over prompt tokens, leaving out the first request and those right after a compaction. */
  cacheHitShareBetweenCompactions: number;
  largestRequest: number;
  requestsOverWindow: number;
  compactions: number;
  prunes: number;
  /** Summary calls, counted in the totals: a compaction's request and its summary output. */
  summaryCalls: number;
  /** Tokens of the agent's own system prompt and tools, which the transcript does not hold. */
  overheadTokens: number;
}

const FORMAT_OF: Record<string, ContextFormat> = {
  anthropic: 'anthropic',
  openai: 'openai',
  google: 'gemini',
};

/**
 * Replays a transcript's requests through a policy: every message is appended as the agent did,
 * and before each model reply the session's own prepare() (the shipped pruning and compaction)
 * builds the request. Each request is counted with the o200k tokenizer and sent through a replay
 * of the provider's prompt cache at the transcript's own times; output tokens are the reported
 * ones. A compaction is billed as the summary call an LLM summarizer makes: the previous request
 * read again and the summary written.
 */
export async function simulate(imported: ImportedSession, opts: SimulateOptions): Promise<SimulationResult> {
  const model = opts.model ?? lastModel(imported) ?? 'unknown';
  const info = lookupModel(model);
  // The cache lives as long as the settings say (1-hour breakpoints, 24-hour retention).
  const rule = withTtl(cacheRuleFor(info.provider, model), opts.options?.cache?.ttlMinutes);
  const format = FORMAT_OF[rule.provider] ?? 'openai';
  const estimator = estimatorByName('exact');
  const segmenter = new Segmenter((t) => estimator.text(t));
  let clock = imported.messages.find((m) => m.createdAt !== undefined)?.createdAt ?? 0;
  const session = await openSession(memoryStore(), 'replay', {
    ...policyOptions(opts.policy, opts.options ?? {}),
    model,
    limits: { contextWindow: opts.window },
    estimator,
    ...(imported.system ? { system: imported.system } : {}),
    now: () => clock,
  });
  const cache = new PromptCache(rule);
  let totals = NO_USAGE;
  let between = NO_USAGE;
  let overhead: number | null = null;
  let previous: Segment[] | null = null;
  const r = { largest: 0, over: 0, compactions: 0, prunes: 0, summaries: 0 };
  for (const step of imported.messages) {
    clock = step.createdAt ?? clock;
    if (step.message.role !== 'assistant') {
      await session.append(step.message);
      continue;
    }
    const prepared = await session.prepare({ format });
    const reported = step.usage === undefined ? undefined : normalizeUsage(step.usage);
    const bare = segmenter.of(format, prepared, 0);
    // The first reported prompt beyond what the transcript holds is the agent's system prompt and tools.
    overhead ??= Math.max(0, (reported?.inputTotal ?? 0) - sum(bare));
    const segments = overhead > 0 ? segmenter.of(format, prepared, overhead) : bare;
    const compacted = prepared.compaction?.status === 'compacted';
    if (compacted && previous) {
      const summary = Math.max(0, prepared.compaction!.status === 'compacted' ? summaryTokens(session) : 0);
      const call: Usage = { ...cache.request(previous, clock), output: summary };
      totals = addUsage(totals, call);
      opts.onRequest?.({ at: clock, kind: 'summary', usage: call, pruned: 0, compacted: false });
      r.summaries++;
    }
    if (compacted) r.compactions++;
    if (prepared.pruned && prepared.pruned.parts > 0) r.prunes++;
    const output = reported?.output ?? estimator.text(generated(step.message));
    const usage: Usage = { ...cache.request(segments, clock), output };
    totals = addUsage(totals, usage);
    const pruned = prepared.pruned?.tokensSaved ?? 0;
    opts.onRequest?.({ at: clock, kind: 'request', usage, pruned, compacted });
    if (previous && !compacted) between = addUsage(between, usage);
    r.largest = Math.max(r.largest, usage.inputTotal);
    if (usage.inputTotal > opts.window) r.over++;
    previous = segments;
    await session.recordStep({ message: step.message, usage: anthropicShape(usage) });
  }
  const prices = opts.prices ?? info.prices;
  return {
    model,
    policy: opts.policy,
    window: opts.window,
    format,
    ...totals,
    cost: prices ? costOf(totals, tokenPrices(prices, rule)) : null,
    cacheHitShare: cacheHitShare(totals),
    cacheHitShareBetweenCompactions: cacheHitShare(between),
    largestRequest: r.largest,
    requestsOverWindow: r.over,
    compactions: r.compactions,
    prunes: r.prunes,
    summaryCalls: r.summaries,
    overheadTokens: overhead ?? 0,
  };
}

function policyOptions(policy: PolicyName, options: SessionOptions): SessionOptions {
  const { under, over } = POLICY_OPTIONS[policy];
  // `prune: false` in a configuration stays off under every policy.
  const base = options.prune === false ? options : mergeOptions(under, options);
  return mergeOptions(base, over);
}

/** What the model wrote in a reply: text, reasoning and tool inputs (tool outputs came from the tools). */
function generated(message: Message): string {
  return message.parts
    .map((p) =>
      p.type === 'text' || p.type === 'reasoning' ? p.text : p.type === 'tool' ? JSON.stringify(p.input) : '',
    )
    .join('\n');
}

const sum = (segments: readonly Segment[]) => segments.reduce((a, s) => a + s.tokens, 0);

/** The recorded usage in a shape the session reads, cache fields included. */
function anthropicShape(u: Usage) {
  return {
    input_tokens: u.inputTotal - u.cacheRead - u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    cache_creation_input_tokens: u.cacheWrite,
    output_tokens: u.output,
  };
}

function summaryTokens(session: Awaited<ReturnType<typeof openSession>>): number {
  const pivot = session.log.active.findLast((e) => e.kind === 'compaction');
  return pivot?.kind === 'compaction' ? pivot.tokens : 0;
}

function lastModel(s: ImportedSession): string | undefined {
  const named = s.messages.filter((m) => m.model !== undefined);
  return (named.findLast((m) => m.usage !== undefined) ?? named.at(-1))?.model;
}
