import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { type Provider, validate } from '../context/index.js';
import { InputError } from '../model/errors.js';
import { type CommonOptions, print } from './io.js';

const PROVIDERS = ['openai', 'anthropic', 'gemini', 'ai-sdk'];

export function registerValidate(program: Command): void {
  program
    .command('validate <file>')
    .description("check a request payload against a provider's structural rules")
    .requiredOption('--provider <name>', PROVIDERS.join(' | '))
    .option('--json', 'machine-readable output')
    .action((file: string, opts: CommonOptions & { provider: Provider }) => {
      if (!PROVIDERS.includes(opts.provider))
        throw new Error(`--provider must be one of ${PROVIDERS.join(', ')}`);
      let payload: unknown;
      try {
        payload = JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        throw new InputError(`not valid JSON (${(error as Error).message})`, { file });
      }
      const violations = validate(payload, opts.provider);
      print(opts, { valid: violations.length === 0, violations }, () =>
        violations.length === 0
          ? `valid for ${opts.provider}`
          : violations.map((v) => `message ${v.index}: [${v.rule}] ${v.message}`).join('\n'),
      );
      if (violations.length > 0) process.exitCode = 1;
    });
}
