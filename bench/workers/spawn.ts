/**
 * Starts the worker processes, lets them all go at once (each prints `ready` after its slow
 * start-up, then waits for a line on stdin), and collects their reports.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerConfig, WorkerReport } from './protocol.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = [
  '--import',
  createRequire(join(ROOT, 'x.js')).resolve('tsx'),
  join(ROOT, 'bench/workers/worker.ts'),
];

interface Running {
  child: ChildProcess;
  ready: Promise<void>;
  done: Promise<WorkerReport>;
}

function start(spec: string, config: WorkerConfig): Running {
  const child = spawn(process.execPath, [...WORKER, spec, JSON.stringify(config)], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  let signalReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    signalReady = resolve;
  });
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
    if (stdout.startsWith('ready\n')) signalReady();
  });
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  const done = new Promise<WorkerReport>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (status === 0 && last.startsWith('{')) resolve(JSON.parse(last) as WorkerReport);
      else reject(new Error(`worker ${config.worker} ended (${status ?? signal}): ${stderr.slice(-2_000)}`));
    });
  });
  // A worker that dies before `ready` must not leave the others waiting.
  done.catch(() => signalReady());
  return { child, ready, done };
}

/** Runs one worker per config against the store named by `spec`; kills them all past `timeoutMs`. */
export async function runWorkers(
  spec: string,
  configs: readonly WorkerConfig[],
  timeoutMs: number,
): Promise<WorkerReport[]> {
  const running = configs.map((config) => start(spec, config));
  const timer = setTimeout(() => {
    for (const { child } of running) child.kill('SIGKILL');
  }, timeoutMs);
  try {
    await Promise.all(running.map((r) => r.ready));
    for (const { child } of running) child.stdin!.end('go\n');
    return await Promise.all(running.map((r) => r.done));
  } finally {
    clearTimeout(timer);
    for (const { child } of running)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
