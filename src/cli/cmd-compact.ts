import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Command } from 'commander';
import { llmSummarizer, type Summarizer } from '../compact/index.js';
import { openSession, type SessionOptions } from '../session/index.js';
import { type PresetName, presetOptions } from '../session/presets.js';
import { type CommonOptions, int, print, withStore } from './io.js';

interface CompactOptions extends CommonOptions {
  summarizer?: string;
  baseUrl?: string;
  model?: string;
  contextWindow?: string;
  keepTokens?: string;
  summaryTokens?: string;
  instructions?: string;
  preset?: PresetName;
  dryRun?: boolean;
}

const KNOWN_BASE_URLS: Record<string, string> = {
  openai: 'https://api.openai.com/v1',
  ollama: 'http://localhost:11434/v1',
  lmstudio: 'http://localhost:1234/v1',
  vllm: 'http://localhost:8000/v1',
};

/** `PROVIDER:MODEL` → an AI SDK model on any OpenAI-compatible server; the key comes from the environment. */
export function summarizerFrom(
  spec: string | undefined,
  baseUrl: string | undefined,
): Summarizer | undefined {
  if (!spec || spec === 'extractive') return undefined;
  const at = spec.indexOf(':');
  if (at <= 0)
    throw new Error(
      `--summarizer takes 'extractive' or PROVIDER:MODEL (e.g. openai:gpt-4o-mini), got '${spec}'`,
    );
  const provider = spec.slice(0, at);
  const modelId = spec.slice(at + 1);
  const baseURL = baseUrl ?? KNOWN_BASE_URLS[provider];
  if (!baseURL) throw new Error(`no known address for provider '${provider}': pass --base-url`);
  const envKey = `${provider.toUpperCase()}_API_KEY`;
  const apiKey = process.env[envKey] ?? process.env.CONDENSE_API_KEY ?? process.env.OPENAI_API_KEY;
  const model = createOpenAICompatible({ name: provider, baseURL, apiKey })(modelId);
  return llmSummarizer({ model });
}

function sessionOptions(opts: CompactOptions): SessionOptions {
  const base = opts.preset ? presetOptions(opts.preset) : {};
  const summarizer = summarizerFrom(opts.summarizer, opts.baseUrl);
  return {
    ...base,
    model: opts.model ?? base.model,
    limits: opts.contextWindow ? { contextWindow: int(opts.contextWindow, '--context-window') } : base.limits,
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

async function existing(
  store: Parameters<Parameters<typeof withStore>[1]>[0],
  id: string,
  options: SessionOptions,
) {
  if (!(await store.getSession(id))) throw new Error(`no session '${id}'`);
  return openSession(store, id, options);
}

export function registerCompact(program: Command, common: (c: Command) => Command): void {
  common(program.command('compact <session>'))
    .description('summarize old history into a pivot now')
    .option(
      '--summarizer <spec>',
      "'extractive' (default, offline) or PROVIDER:MODEL, e.g. openai:gpt-4o-mini",
    )
    .option(
      '--base-url <url>',
      'OpenAI-compatible server for the summarizer (Ollama, vLLM, LM Studio, OpenAI)',
    )
    .option('--model <id>', 'the agent model, for its context window')
    .option('--context-window <n>', 'context window instead of the model registry')
    .option('--keep-tokens <n>', 'tokens of recent history kept verbatim')
    .option('--summary-tokens <n>', 'token budget of the extractive summary')
    .option('--instructions <text>', 'what the summary must focus on')
    .option('--preset <name>', 'seed-000 | seed-001 | seed-002 | seed-003 | seed-004')
    .action(async (id: string, opts: CompactOptions) => {
      const outcome = await withStore(opts, async (store) => {
        const session = await existing(store, id, sessionOptions(opts));
        return session.compact({ instructions: opts.instructions });
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
        millis: outcome.millis,
      };
      print(opts, result, () =>
        [
          `compacted: ${result.tokensBefore} → ${result.tokensAfter} tokens (pivot ${result.pivotId})`,
          '',
          result.summary,
        ].join('\n'),
      );
    });

  common(program.command('prune <session>'))
    .description('hide old tool outputs from the model (they stay stored)')
    .option('--dry-run', 'show what would be cleared, write nothing')
    .option('--preset <name>', 'seed-000 | seed-001 | …')
    .action(async (id: string, opts: CompactOptions) => {
      const outcome = await withStore(opts, async (store) => {
        const session = await existing(store, id, opts.preset ? presetOptions(opts.preset) : {});
        return session.prune({ dryRun: opts.dryRun });
      });
      const result = outcome
        ? {
            dryRun: outcome.dryRun,
            parts: outcome.parts,
            tokensSaved: outcome.tokensSaved,
            reason: outcome.plan.reason,
            marks: outcome.plan.marks,
          }
        : { dryRun: !!opts.dryRun, parts: 0, tokensSaved: 0, reason: 'pruning disabled', marks: [] };
      print(opts, result, () =>
        [
          `${result.dryRun ? 'would clear' : 'cleared'} ${result.parts} tool outputs, ${result.tokensSaved} tokens (${result.reason})`,
          ...result.marks.map((m) => `  ${m.entryId} part ${m.partIndex}: ${m.tokens} tokens`),
        ].join('\n'),
      );
    });
}
