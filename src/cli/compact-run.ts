import { llmSummarizer, type SummaryPromptStyle } from '../compact/index.js';
import { openSession, type SessionOptions } from '../session/index.js';
import { type CommonOptions, chosenPreset, int, requireSession, withStore } from './io.js';
import { commandOptions, modelFlags, warnFallback } from './open.js';
import type { PresetChoice } from './presets.js';
import { progress, progressText } from './progress.js';
import { type SummarizerModel, summarizerModel } from './summarizer-spec.js';

export interface CompactOptions extends CommonOptions {
  summarizer?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  maxRetries?: string;
  model?: string;
  contextWindow?: string;
  targetTokens?: string;
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
 * The session options a compaction runs with: the flags over the configuration file over the
 * preset (its layout, and with a model its seed's prompt and recount). Every flag and the file are
 * checked before the database is opened.
 */
export async function compactOptions(
  opts: CompactOptions,
  llm: SummarizerModel | undefined,
): Promise<SessionOptions> {
  const presetName = await chosenPreset(opts);
  const maxRetries = opts.maxRetries === undefined ? undefined : int(opts.maxRetries, '--max-retries');
  const summarizer = llm
    ? llmSummarizer({
        model: llm.model,
        maxRetries,
        ...(presetName ? { prompt: PROMPT_OF[presetName] } : {}),
      })
    : undefined;
  const flags: SessionOptions = {
    ...modelFlags(opts),
    // Compacting is the point here; pruning or compacting on open (Qwery) would be unasked writes.
    prune: false,
    checks: { atOpen: false },
    compaction: {
      // A summarizer the user named fails clearly rather than being replaced by the offline one.
      ...(summarizer ? { summarizer, fallback: false } : {}),
      ...(opts.summaryTokens ? { summaryTokens: int(opts.summaryTokens, '--summary-tokens') } : {}),
      ...(opts.keepTokens ? { plan: { keepTokens: int(opts.keepTokens, '--keep-tokens') } } : {}),
    },
  };
  return commandOptions(opts, flags, { summarizerModel: llm?.model });
}

/** Compacts one stored session now; a failed summary writes nothing and says which summarizer failed. */
export async function runCompact(
  id: string,
  opts: CompactOptions,
): Promise<CompactReport | { status: 'skipped'; reason: string }> {
  const llm = await summarizerModel(opts);
  const options = await compactOptions(opts, llm);
  const outcome = await withStore(opts, async (store) => {
    await requireSession(store, id, opts);
    const session = warnFallback(await openSession(store, id, options));
    const status = progress();
    session.on('compaction:progress', ({ read, total }) =>
      status.update(progressText(`compacting ${id}: reading`, read, total)),
    );
    try {
      return await session.compact({
        instructions: opts.instructions,
        ...(opts.targetTokens ? { targetTokens: int(opts.targetTokens, '--target-tokens') } : {}),
      });
    } catch (error) {
      if (!llm) throw error;
      const why = llm.withheld ? ` (${llm.withheld})` : '';
      throw new Error(
        `summarizer ${llm.label} failed, nothing was written: ${(error as Error).message}${why}`,
      );
    } finally {
      status.done();
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
