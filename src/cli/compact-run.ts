import { llmSummarizer, type SummaryPromptStyle } from '../compact/index.js';
import { openSession, presetOptions, type SessionOptions } from '../session/index.js';
import { type CommonOptions, int, oneOf, requireSession, withStore } from './io.js';
import { PRESET_CHOICES, type PresetChoice } from './presets.js';
import { type SummarizerModel, summarizerModel } from './summarizer-spec.js';

export interface CompactOptions extends CommonOptions {
  summarizer?: string;
  baseUrl?: string;
  maxRetries?: string;
  model?: string;
  contextWindow?: string;
  keepTokens?: string;
  summaryTokens?: string;
  instructions?: string;
  preset?: string;
}

export interface CompactReport {
  pivotId: string;
  tokensBefore: number;
  tokensAfter: number;
  summary: string;
  summarizer: string;
  model: string | null;
  millis: number;
}

/** The seed prompt a preset's LLM summary uses (the same choice presetOptions makes). */
const PROMPT_OF: Record<PresetChoice, SummaryPromptStyle> = {
  default: 'seed-004',
  'seed-000': 'seed-001',
  'seed-001': 'seed-001',
  'seed-002': 'seed-004',
  'seed-003': 'seed-004',
  'seed-004': 'seed-004',
};

/**
 * The session options a compaction runs with: the preset (its layout, and with a model its seed's
 * prompt and recount), then the flags on top. Every flag is checked before the database is opened.
 */
export function compactOptions(opts: CompactOptions, llm: SummarizerModel | undefined): SessionOptions {
  const presetName = opts.preset ? oneOf(opts.preset, PRESET_CHOICES, '--preset') : undefined;
  const maxRetries = opts.maxRetries === undefined ? undefined : int(opts.maxRetries, '--max-retries');
  const base = presetName ? presetOptions(presetName, { summarizerModel: llm?.model }) : {};
  const summarizer = llm
    ? llmSummarizer({
        model: llm.model,
        maxRetries,
        ...(presetName ? { prompt: PROMPT_OF[presetName] } : {}),
      })
    : undefined;
  return {
    ...base,
    model: opts.model ?? base.model,
    limits: opts.contextWindow ? { contextWindow: int(opts.contextWindow, '--context-window') } : base.limits,
    // Compacting is the point here; pruning on open (seed 000) would be a second, unasked write.
    prune: false,
    compaction: {
      ...base.compaction,
      ...(summarizer ? { summarizer } : {}),
      ...(opts.summaryTokens ? { summaryTokens: int(opts.summaryTokens, '--summary-tokens') } : {}),
      plan: {
        ...base.compaction?.plan,
        ...(opts.keepTokens ? { keepTokens: int(opts.keepTokens, '--keep-tokens') } : {}),
      },
    },
  };
}

/** Compacts one stored session now; a failed summary writes nothing and says which summarizer failed. */
export async function runCompact(
  id: string,
  opts: CompactOptions,
): Promise<CompactReport | { status: 'skipped'; reason: string }> {
  const llm = await summarizerModel(opts.summarizer, opts.baseUrl);
  const options = compactOptions(opts, llm);
  const outcome = await withStore(opts, async (store) => {
    await requireSession(store, id, opts);
    const session = await openSession(store, id, options);
    try {
      return await session.compact({ instructions: opts.instructions });
    } catch (error) {
      if (!llm) throw error;
      throw new Error(`summarizer ${llm.label} failed, nothing was written: ${(error as Error).message}`);
    }
  });
  if (outcome.status !== 'compacted') return outcome;
  return {
    pivotId: outcome.pivot.id,
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
    summary: outcome.summary,
    summarizer: outcome.pivot.pivot.summarizer,
    model: outcome.pivot.pivot.model ?? null,
    millis: outcome.millis,
  };
}
