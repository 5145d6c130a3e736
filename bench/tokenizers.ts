/**
 * Compares the two installed BPE tokenizers on a realistic ~1 MB mix of what agent sessions hold
 * (source code, JSON tool output, prose), cut into part-sized pieces the way the estimator sees
 * them. Run: `npx tsx bench/tokenizers.ts`. The winner is used by src/tokens/exact.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const root = new URL('../', import.meta.url);
const data = new URL('../../shared/data/', import.meta.url);
const SHARE = 350_000; // chars of each kind

function read(rel: string, base: URL = root): string | undefined {
  const url = new URL(rel, base);
  return existsSync(url) ? readFileSync(url, 'utf8') : undefined;
}

function codeText(): string {
  return (read('node_modules/ai/dist/index.mjs') ?? '').slice(0, SHARE);
}

/** Tool results of tau-bench (real JSON tool output); the lockfile when the data folder is absent. */
function jsonText(): string {
  const tau = read('tau-bench/gpt-4o-airline.json', data);
  if (tau) {
    const runs = JSON.parse(tau) as { traj: { role: string; content?: unknown }[] }[];
    const outputs = runs.flatMap((r) =>
      r.traj.filter((m) => m.role === 'tool').map((m) => String(m.content)),
    );
    return outputs.join('\n').slice(0, SHARE);
  }
  return (read('package-lock.json') ?? '').slice(0, SHARE);
}

/** LoCoMo dialogue (real conversation); package READMEs when the data folder is absent. */
function proseText(): string {
  const locomo = read('locomo/locomo10.json', data);
  if (locomo) {
    const convs = JSON.parse(locomo) as { conversation: Record<string, unknown> }[];
    const lines: string[] = [];
    for (const c of convs) {
      for (const v of Object.values(c.conversation)) {
        if (Array.isArray(v))
          for (const t of v as { speaker: string; text: string }[]) lines.push(`${t.speaker}: ${t.text}`);
      }
    }
    return lines.join('\n').slice(0, SHARE);
  }
  const docs = ['ai/CHANGELOG.md', 'fast-check/README.md', 'commander/Readme.md', 'semver/README.md'];
  return docs
    .map((d) => read(`node_modules/${d}`) ?? '')
    .join('\n')
    .slice(0, SHARE);
}

/** Deterministic pieces of 200–20,000 chars: the sizes of real text parts and tool outputs. */
function pieces(text: string, seed: number): string[] {
  const out: string[] = [];
  let s = seed;
  for (let i = 0; i < text.length; ) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const len = 200 + (s % 19_800);
    out.push(text.slice(i, i + len));
    i += len;
  }
  return out;
}

type Counter = (text: string) => number;

/**
 * Median of several passes. `reset` empties a library's memo cache before each pass so that no
 * pass is timed on text it has already seen (an agent counts each part once, when appended).
 */
function measure(
  count: Counter,
  parts: string[],
  reset: () => void,
  runs = 5,
): { charsPerSec: number; tokens: number } {
  const chars = parts.reduce((n, p) => n + p.length, 0);
  let tokens = 0;
  for (const p of parts) tokens += count(p); // warm-up (JIT)
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    reset();
    const t0 = performance.now();
    for (const p of parts) count(p);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  return { charsPerSec: chars / (median / 1000), tokens };
}

async function load<T>(what: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await what();
  return { value, ms: performance.now() - t0 };
}

async function main(): Promise<void> {
  const kinds = { code: codeText(), json: jsonText(), prose: proseText() };
  const all = Object.values(kinds).flatMap((t, i) => pieces(t, i + 1));
  const totalChars = all.reduce((n, p) => n + p.length, 0);
  console.log(`corpus: ${totalChars.toLocaleString()} chars in ${all.length} pieces`);
  for (const [k, t] of Object.entries(kinds)) console.log(`  ${k}: ${t.length.toLocaleString()} chars`);

  const gpt = await load(() => import('gpt-tokenizer/encoding/o200k_base'));
  const gptCl = await load(() => import('gpt-tokenizer/encoding/cl100k_base'));
  const { Tiktoken } = await import('js-tiktoken/lite');
  const tikO = await load(async () => new Tiktoken((await import('js-tiktoken/ranks/o200k_base')).default));
  const tikC = await load(async () => new Tiktoken((await import('js-tiktoken/ranks/cl100k_base')).default));

  const plain = { disallowedSpecial: new Set<string>() };
  const none = () => {};
  const contenders: [string, number, Counter, () => void][] = [
    ['gpt-tokenizer o200k_base', gpt.ms, (t) => gpt.value.countTokens(t, plain), gpt.value.clearMergeCache],
    [
      'gpt-tokenizer cl100k_base',
      gptCl.ms,
      (t) => gptCl.value.countTokens(t, plain),
      gptCl.value.clearMergeCache,
    ],
    ['js-tiktoken  o200k_base', tikO.ms, (t) => tikO.value.encode(t, [], []).length, none],
    ['js-tiktoken  cl100k_base', tikC.ms, (t) => tikC.value.encode(t, [], []).length, none],
  ];
  console.log('\nlibrary / encoding            load ms   chars/sec     tokens   chars/token');
  for (const [name, ms, count, reset] of contenders) {
    const r = measure(count, all, reset);
    console.log(
      `${name.padEnd(28)} ${ms.toFixed(0).padStart(7)} ${Math.round(r.charsPerSec).toLocaleString().padStart(11)} ${r.tokens.toLocaleString().padStart(10)} ${(totalChars / r.tokens).toFixed(2).padStart(12)}`,
    );
  }
  // The heuristic is O(1) per part (string length), so only its token total is worth printing.
  const heur = all.reduce((n, p) => n + Math.ceil(p.length / 4), 0);
  console.log(
    `${'chars/4 heuristic'.padEnd(28)} ${'0'.padStart(7)} ${'n/a'.padStart(11)} ${heur.toLocaleString().padStart(10)} ${(totalChars / heur).toFixed(2).padStart(12)}`,
  );
}

await main();
