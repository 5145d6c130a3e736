import { join } from 'node:path';
import type { Command } from 'commander';
import { int, print } from './io.js';
import { summarizerModel } from './summarizer-spec.js';

interface EvalFlags {
  data?: string;
  json?: boolean;
  summarizer?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  conversations?: string;
}

/** The shared data folder: --data, else CONDENSE_EVAL_DATA, else ../shared/data from here. */
function dataDir(flags: EvalFlags): string {
  return flags.data ?? process.env.CONDENSE_EVAL_DATA ?? join(process.cwd(), '..', 'shared', 'data');
}

export function registerEval(program: Command): void {
  program
    .command('eval')
    .description(
      'measure what summaries keep: LoCoMo in three layouts, real agent sessions, planted facts, token estimates (exit 1 when a threshold fails or data is missing)',
    )
    .option('--data <dir>', 'folder holding locomo/ and agent-sessions/ (default ../shared/data)')
    .option('--summarizer <spec>', 'also evaluate an LLM summarizer: PROVIDER:MODEL, e.g. ollama:llama3.1')
    .option('--base-url <url>', 'OpenAI-compatible server for --summarizer')
    .option('--api-key-env <name>', 'environment variable holding the key for --base-url')
    .option('--conversations <n>', 'only the first n LoCoMo conversations')
    .option('--json', 'machine-readable output')
    .action(async (flags: EvalFlags) => {
      const llm = await summarizerModel(flags);
      // The harness loads only when asked for: it is no part of the library.
      const { runEval } = await import('../eval/run.js');
      const { formatReport } = await import('./eval-print.js');
      const report = await runEval({
        data: dataDir(flags),
        ...(llm && typeof llm.model !== 'string' ? { llm: { model: llm.model, label: llm.label } } : {}),
        ...(flags.conversations ? { conversations: int(flags.conversations, '--conversations') } : {}),
      });
      print(flags, report, () => formatReport(report));
      if (report.checks.some((c) => !c.pass)) process.exitCode = 1;
    });
}
