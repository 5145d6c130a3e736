import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { type Provider, validate } from '../context/index.js';
import { parseJsonText } from '../import/index.js';
import { InputError } from '../model/errors.js';
import { type CommonOptions, oneOf, print } from './io.js';

const PROVIDERS: readonly Provider[] = ['openai', 'anthropic', 'gemini', 'ai-sdk'];

/**
 * What `validate` checks for a file: OpenAI and AI SDK take the messages array, so a whole
 * request body (`{ model, messages, … }`) is checked through its `messages`.
 */
export function payloadOf(value: unknown, provider: Provider): unknown {
  const wrapped =
    (provider === 'openai' || provider === 'ai-sdk') &&
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Array.isArray((value as { messages?: unknown }).messages);
  return wrapped ? (value as { messages: unknown }).messages : value;
}

export function registerValidate(program: Command): void {
  program
    .command('validate <file>')
    .description("check a request payload against a provider's structural rules (exit 1 when it breaks any)")
    .requiredOption('--provider <name>', PROVIDERS.join(' | '))
    .option('--json', 'machine-readable output')
    .action((file: string, opts: CommonOptions & { provider: string }) => {
      const provider = oneOf(opts.provider, PROVIDERS, '--provider');
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        throw new InputError(`cannot read file (${(error as Error).message})`, { file });
      }
      const violations = validate(payloadOf(parseJsonText(text, file), provider), provider);
      print(opts, { valid: violations.length === 0, provider, violations }, () =>
        violations.length === 0
          ? `valid for ${provider}`
          : [
              `${violations.length} violation${violations.length === 1 ? '' : 's'} of ${provider}'s rules:`,
              ...violations.map(
                (v) => `  ${v.index < 0 ? 'payload' : `message ${v.index}`}: [${v.rule}] ${v.message}`,
              ),
            ].join('\n'),
      );
      if (violations.length > 0) process.exitCode = 1;
    });
}
