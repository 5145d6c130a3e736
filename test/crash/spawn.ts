/**
 * Starting and killing the crash child. The child is bundled once per test file (esbuild, the
 * project's own code inlined, packages left to node_modules): a bundled child starts in ~0.3 s
 * where `node --import tsx` takes 1–1.5 s, so a file can afford dozens of kills.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The bundled child and a function removing it. */
export async function bundleChild(): Promise<{ file: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'condense-crash-child-'));
  // Packages resolve from the bundle's folder: give it the project's node_modules.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const file = join(dir, 'child.mjs');
  await build({
    entryPoints: [join(ROOT, 'test/crash/child.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ChildRun {
  pid: number;
  status: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
  stderr: string;
}

/** How a run ends: at a kill point the child reaches (CRASH_KILL), or by the parent's SIGKILL. */
export type Kill =
  | { kind: 'point'; at: string }
  | { kind: 'timer'; afterCycles: number; delayMs: number }
  | { kind: 'none' };

export function describeKill(kill: Kill): string {
  if (kill.kind === 'point') return `at point ${kill.at}`;
  if (kill.kind === 'timer') return `${kill.delayMs.toFixed(0)} ms after ${kill.afterCycles} finished cycles`;
  return 'not killed';
}

export function runChild(file: string, args: string[], kill: Kill): Promise<ChildRun> {
  const { CRASH_KILL: _inherited, ...env } = process.env;
  if (kill.kind === 'point') env.CRASH_KILL = kill.at;
  const child = spawn(process.execPath, [file, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
    if (kill.kind !== 'timer' || timer) return;
    if ((stdout.match(/^cycle /gm) ?? []).length >= kill.afterCycles)
      timer = setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ pid: child.pid!, status, signal, lines: stdout.split('\n').filter(Boolean), stderr });
    });
  });
}
