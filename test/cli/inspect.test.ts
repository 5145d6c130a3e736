import { beforeAll, describe, expect, it } from 'vitest';
import { PRESET_CHOICES } from '../../src/cli/presets.js';
import { validate } from '../../src/context/index.js';
import { PRESET_INPUTS, PRESET_NAMES } from '../../src/session/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';
import {
  type CliResult,
  cli,
  cliAsync,
  freshDb,
  json,
  ok,
  smallChat,
  tempDir,
  writeFile,
} from './support.js';

const dir = tempDir();
const FORMATS = ['openai', 'anthropic', 'gemini', 'ai-sdk'] as const;
type Format = (typeof FORMATS)[number];

describe('condense --help', () => {
  it('offers every preset by both of its names', () => {
    expect([...PRESET_CHOICES]).toEqual([...PRESET_INPUTS]);
    for (const name of PRESET_NAMES) expect(PRESET_CHOICES).toContain(name);
  });

  it('lists every command', () => {
    const help = ok(cli(['--help'])).stdout;
    for (const command of [
      'import',
      'sessions',
      'stats',
      'export',
      'context',
      'prune',
      'compact',
      'validate',
      'demo',
      'history',
      'tree',
      'fork',
      'search',
      'events',
    ])
      expect(help).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });
});

describe('stats, context, validate on an imported chat', () => {
  const db = freshDb(dir);
  let human: CliResult;
  let statsJson: CliResult;
  let badFormat: CliResult;
  const contexts = new Map<Format, CliResult>();

  beforeAll(async () => {
    ok(cli(['import', writeFile(dir, 'chat.json', smallChat()), '--session', 'chat', '--db', db]));
    const runs = await Promise.all([
      cliAsync(['stats', 'chat', '--db', db]),
      cliAsync(['stats', 'chat', '--db', db, '--json', '--model', 'gpt-4o']),
      cliAsync(['context', 'chat', '--format', 'cohere', '--db', db]),
      ...FORMATS.map((f) => cliAsync(['context', 'chat', '--format', f, '--db', db])),
    ]);
    [human, statsJson, badFormat] = runs as [CliResult, CliResult, CliResult];
    for (const [i, f] of FORMATS.entries()) contexts.set(f, runs[3 + i]!);
  });

  it('stats shows what fills the window, with a bar, in words a user reads', () => {
    const text = ok(human).stdout;
    // The unknown model falls back to 128,000, and says so.
    expect(text).toMatch(
      /^session chat {2}model unknown {2}window 128,000 \(assumed: the model is not in the catalog\)$/m,
    );
    expect(text).toMatch(/^next prompt ≈ [\d,]+ tokens of 128,000 \([\d.]+%\); compacts above 96,000$/m);
    expect(text).toMatch(/^\[[▓▒█░▚·|]{50}\]$/m);
    expect(text).toMatch(/^ {2}▓ System prompt\s+[\d,]+\s+[\d.]+%$/m);
    expect(text).toMatch(/^ {2}█ User messages\s+[\d,]+/m);
    expect(text).toMatch(/^ {2}░ Tool calls and results\s+[\d,]+\s+[\d.]+%\n {6}read_file\s+[\d,]+$/m);
    expect(text).toMatch(/^ {2}· Free space\s+[\d,]+/m);
    // A chat with no reported usage: the figure is a plain estimate and says so.
    expect(text).toMatch(/^how the figure is made: estimated: no request has reported its size yet$/m);
    expect(text).toMatch(/^decision: no compaction needed yet \([\d,]+ of 96,000\)$/m);
    // No internal vocabulary reaches the user.
    expect(text).not.toMatch(/residual|calibrat|usage\+delta|\bA0\d\d-\d+|issue \d/);
    // Said once, on stderr: every figure rests on a window nobody gave.
    expect(human.stderr.match(/warning: no model was given: assuming a 128,000-token window/g)).toHaveLength(
      1,
    );
    expect(statsJson.stderr).toBe('');
  });

  it('stats --json carries the same figures, with the named model’s limits', () => {
    const s = json<Record<string, unknown>>(ok(statsJson));
    expect(s).toMatchObject({
      session: 'chat',
      model: 'gpt-4o',
      entries: 3,
      contextWindow: 128_000,
      // gpt-4o: 128,000 − min(16,384 max output, 32,000 cap); the 0.8 threshold triggers first.
      usable: 111_616,
      limit: 102_400,
      decision: { compact: false, reason: 'under-limit', limit: 102_400 },
      windowFallback: false,
      lastReported: null,
      calibration: null,
      basis: 'uncalibrated',
    });
    const tokens = s.tokens as {
      byRole: Record<string, number>;
      byTool: Record<string, number>;
      total: number;
    };
    expect(Object.keys(tokens.byRole).sort()).toEqual(['assistant', 'system', 'user']);
    expect(tokens.byTool.read_file).toBeGreaterThan(0);
    // The log's entries add up to the total; the system prompt lives in the session's settings.
    const { system, ...logRoles } = tokens.byRole;
    expect(system).toBeGreaterThan(0);
    expect(Object.values(logRoles).reduce((a, b) => a + b, 0)).toBe(tokens.total);
    // The breakdown adds up to the next-prompt figure.
    const breakdown = s.breakdown as { total: number; rows: { tokens: number }[] };
    expect(breakdown.total).toBe((s.estimate as { tokens: number }).tokens);
    expect(breakdown.rows.reduce((a, r) => a + r.tokens, 0)).toBe(breakdown.total);
  });

  it('context prints each provider’s request shape, and it passes validate', () => {
    const payload = (f: Format) => json<unknown>(ok(contexts.get(f)!));
    const openai = payload('openai') as { role: string }[];
    expect(Array.isArray(openai)).toBe(true);
    expect(openai.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    const anthropic = payload('anthropic') as { system: unknown; messages: { role: string }[] };
    expect(anthropic.system).toContain('careful assistant');
    expect(anthropic.messages[0]!.role).toBe('user');
    const gemini = payload('gemini') as { systemInstruction: unknown; contents: { role: string }[] };
    expect(JSON.stringify(gemini.systemInstruction)).toContain('careful assistant');
    expect(gemini.contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model']);
    expect(Array.isArray(payload('ai-sdk'))).toBe(true);
    for (const f of FORMATS) expect(validate(payload(f), f), f).toEqual([]);
  });

  it('validate exits 0 on a valid payload and 1, listing the violations, on a broken one', async () => {
    // A whole Chat Completions request body is checked through its messages.
    const body = writeFile(dir, 'body.json', {
      model: 'gpt-4o',
      messages: JSON.parse(contexts.get('openai')!.stdout),
    });
    const broken = writeFile(dir, 'broken.json', [
      { role: 'user', content: 'hi' },
      { role: 'tool', tool_call_id: 'nowhere', content: 'orphan result' },
      { role: 'assistant', content: '' },
    ]);
    const notJson = writeFile(dir, 'not-json.json', '[\n{"role": "user"\n "content": "hi"}\n]\n');
    const [okBody, bad, badJson, badProvider, malformed] = await Promise.all([
      cliAsync(['validate', body, '--provider', 'openai']),
      cliAsync(['validate', broken, '--provider', 'openai']),
      cliAsync(['validate', broken, '--provider', 'openai', '--json']),
      cliAsync(['validate', body, '--provider', 'mistral']),
      cliAsync(['validate', notJson, '--provider', 'openai']),
    ]);
    expect([okBody!.status, okBody!.stdout]).toEqual([0, 'valid for openai\n']);
    expect(bad!.status).toBe(1);
    expect(bad!.stdout).toMatch(/^\d+ violations? of openai's rules:\n\s+message 1: \[[\w-]+\] .*nowhere/);
    expect(badJson!.status).toBe(1);
    const report = json<{ valid: boolean; violations: { index: number; rule: string }[] }>(badJson!);
    expect(report.valid).toBe(false);
    expect(report.violations.map((v) => v.index)).toEqual(expect.arrayContaining([1, 2]));
    expect(badProvider!.status).toBe(2);
    expect(badProvider!.stderr).toBe(
      "condense: --provider must be one of openai, anthropic, gemini, ai-sdk, got 'mistral'\n",
    );
    expect(malformed!.status).toBe(2);
    expect(malformed!.stderr).toMatch(/^condense: .*not-json\.json:line 3: malformed JSON: Expected ','/);
  });

  it('context rejects an unknown format', () => {
    expect(badFormat.status).toBe(2);
    expect(badFormat.stderr).toBe(
      "condense: --format must be one of ai-sdk, openai, anthropic, gemini, got 'cohere'\n",
    );
  });
});

describe.concurrent('every session command names a session that does not exist', () => {
  it.each([['stats'], ['export'], ['context', '--format', 'openai'], ['prune', '--dry-run'], ['compact']])(
    '%s',
    async (command, ...rest) => {
      const db = freshDb(dir);
      // A database without that session (a missing database is another error: cli-conventions.test.ts).
      await sqliteStore({ path: db }).close();
      const r = await cliAsync([command, 'ghost', ...rest, '--db', db]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`condense: no session 'ghost' in ${db} (list them with: condense sessions)\n`);
    },
  );
});
