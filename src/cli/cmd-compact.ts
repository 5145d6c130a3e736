import type { Command } from 'commander';
import type { CompactOptions } from './compact-run.js';
import { print } from './io.js';
import { PRESET_HELP } from './presets.js';

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
    .option(
      '--api-key-env <name>',
      "environment variable holding the key for --base-url (default: the provider's own key, then CONDENSE_API_KEY)",
    )
    .option('--max-retries <n>', 'retries of a failed summarizer call (AI SDK default 2)')
    .option('--model <id>', 'the agent model, for its context window')
    .option('--context-window <n>', 'context window instead of the model catalog')
    .option(
      '--target-tokens <n>',
      'what the summary and the verbatim tail may hold together (condense chooses the split)',
    )
    .option('--keep-tokens <n>', 'cap on the tokens of recent history kept verbatim')
    .option('--summary-tokens <n>', "cap on the summary's tokens")
    .option('--instructions <text>', 'what the summary must focus on')
    .option('--preset <name>', PRESET_HELP)
    .action(async (id: string, opts: CompactOptions) => {
      // The session and summarizer stack loads only when a compaction actually runs.
      const { runCompact } = await import('./compact-run.js');
      const result = await runCompact(id, opts);
      if ('status' in result) {
        print(opts, result, () => `nothing compacted: ${result.reason}`);
        return;
      }
      print(opts, result, () =>
        [
          `compacted: ${result.tokensBefore} → ${result.tokensAfter} tokens (pivot ${result.pivotId}, ${result.summarizer}, ${result.millis} ms)`,
          '',
          result.summary,
        ].join('\n'),
      );
    });
}
