import type { Command } from 'commander';
import { llmSummarizer, type SummaryPromptStyle } from '../compact/index.js';
import {
  openSession,
  PRESET_NAMES,
  type PresetName,
  presetOptions,
  type SessionOptions,
} from '../session/index.js';
import { type CommonOptions, int, oneOf, print, requireSession, withStore } from './io.js';
import { type SummarizerModel, summarizerModel } from './summarizer-spec.js';

interface CompactOptions extends CommonOptions {
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

/** The seed prompt a preset's LLM summary uses (as presetOptions chooses it with a summarizer model). */
const PROMPT_OF: Record<PresetName, SummaryPromptStyle> = {
  default: 'seed-004',
  'seed-000': 'seed-001',
  'seed-001': 'seed-001',
  'seed-002': 'seed-004',
  'seed-003': 'seed-004',
  'seed-004': 'seed-004',
};

/**
 * The session options a compaction runs with: the preset (its layout and, with a model, its
 * seed's prompt), then the flags on top. Every flag is checked before the database is opened.
 */
export function compactOptions(opts: CompactOptions, llm: SummarizerModel | undefined): SessionOptions {
  const presetName = opts.preset ? oneOf<PresetName>(opts.preset, PRESET_NAMES, '--preset') : undefined;
  const maxRetries = opts.maxRetries === undefined ? undefined : int(opts.maxRetries, '--max-retries');
  const base = presetName ? presetOptions(presetName) : {};
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

export function registerCompact(program: Command, common: (c: Command) => Command): void {
  common(program.command('compact <session>'))
    .description('summarize old history into a pivot now (nothing is written if the summary fails)')
    .option(
      '--summarizer <spec>',
      "'extractive' (default, offline) or PROVIDER:MODEL, e.g. openai:gpt-4o-mini",
    )
    .option(
      '--base-url <url>',
      'OpenAI-compatible server for the summarizer (Ollama, vLLM, LM Studio, OpenAI)',
    )
    .option('--max-retries <n>', 'retries of a failed summarizer call (AI SDK default 2)')
    .option('--model <id>', 'the agent model, for its context window')
    .option('--context-window <n>', 'context window instead of the model registry')
    .option('--keep-tokens <n>', 'tokens of recent history kept verbatim')
    .option('--summary-tokens <n>', 'token budget of the extractive summary')
    .option('--instructions <text>', 'what the summary must focus on')
    .option('--preset <name>', PRESET_NAMES.join(' | '))
    .action(async (id: string, opts: CompactOptions) => {
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
      if (outcome.status !== 'compacted') {
        print(opts, outcome, () => `nothing compacted: ${outcome.reason}`);
        return;
      }
      const result = {
        pivotId: outcome.pivot.id,
        tokensBefore: outcome.tokensBefore,
        tokensAfter: outcome.tokensAfter,
        summary: outcome.summary,
        summarizer: outcome.pivot.pivot.summarizer,
        model: outcome.pivot.pivot.model ?? null,
        millis: outcome.millis,
      };
      print(opts, result, () =>
        [
          `compacted: ${result.tokensBefore} → ${result.tokensAfter} tokens (pivot ${result.pivotId}, ${result.summarizer}, ${result.millis} ms)`,
          '',
          result.summary,
        ].join('\n'),
      );
    });
}
