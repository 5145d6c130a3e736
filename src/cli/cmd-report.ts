import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { type CommonOptions, print, requireSession, withStore } from './io.js';
import type { ModelOptions } from './open.js';
import { PRESET_HELP } from './presets.js';

interface ReportCliOptions extends ModelOptions {
  out?: string;
}

/** A file name from a session id: anything but letters, digits, dot, dash and underscore becomes '_'. */
export function defaultReportFile(id: string): string {
  return `condense-report-${id.replace(/[^\w.-]/g, '_').slice(0, 100)}.html`;
}

export function registerReport(program: Command, common: (c: Command) => Command): void {
  common(program.command('report <session>'))
    .description(
      'write an HTML report: prompt size per request, each compaction (what it kept, summarized, quotes), what fills the window',
    )
    .option(
      '--out <file>',
      'the HTML file to write, - for standard output (default: condense-report-<session>.html)',
    )
    .option('--model <id>', 'model whose limits apply')
    .option('--context-window <n>', 'context window instead of the model registry')
    .option('--preset <name>', `budget and layout of a preset: ${PRESET_HELP}`)
    .action(async (id: string, opts: ReportCliOptions) => {
      const [{ report }, { commandOptions, modelFlags }] = await Promise.all([
        import('../report/index.js'),
        import('./open.js'),
      ]);
      const options = await commandOptions(opts, modelFlags(opts));
      const html = await withStore(opts, async (store) => {
        await requireSession(store, id, opts);
        return report(store, id, options);
      });
      const out = opts.out ?? defaultReportFile(id);
      if (out === '-') {
        process.stdout.write(html);
        return;
      }
      writeWhole(out, html);
      const bytes = Buffer.byteLength(html);
      print(
        opts as CommonOptions,
        { file: out, bytes },
        () => `wrote ${out} (${(bytes / 1e6).toFixed(2)} MB)`,
      );
    });
}

/** Written beside the target, then renamed over it: a failed write leaves no half a report. */
function writeWhole(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
