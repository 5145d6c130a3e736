/**
 * The CLI reads `condense.config.json` / `.yaml` from the working directory or `--config FILE`:
 * flags over the file over its preset over the defaults, and a bad file stops every command
 * before anything is written.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bigToolChat,
  type CliResult,
  cli,
  cliAsync,
  freshDb,
  json,
  ok,
  sessions,
  smallChat,
  tempDir,
  writeFile,
} from './support.js';

const dir = tempDir();
const db = freshDb(dir);

interface Stats {
  contextWindow: number;
  limit: number | null;
  model: string;
}
type OpenAIMessage = { role: string; content: unknown };

beforeAll(() => {
  const big = writeFile(dir, 'big.json', bigToolChat(6, 1500));
  ok(cli(['import', writeFile(dir, 'chat.json', smallChat()), '--session', 'chat', '--db', db]));
  for (const id of ['opencode', 'default']) ok(cli(['import', big, '--session', id, '--db', db]));
});

describe('condense stats with a configuration file', () => {
  it('--config: the file’s database, window and Pegasus threshold apply; --context-window beats the file', async () => {
    // store.path is relative to the file, which sits beside the database.
    const config = writeFile(
      dir,
      'pegasus.yaml',
      `preset: pegasus\nlimits:\n  contextWindow: 50000\nsession:\n  compactThreshold: 0.5\nstore:\n  path: ${basename(db)}\n`,
    );
    const [fromFile, withFlag] = await Promise.all([
      cliAsync(['stats', 'chat', '--config', config, '--json']),
      cliAsync(['stats', 'chat', '--config', config, '--json', '--context-window', '80000']),
    ]);
    expect(json<Stats>(ok(fromFile))).toMatchObject({ contextWindow: 50_000, limit: 25_000 });
    expect(json<Stats>(ok(withFlag))).toMatchObject({ contextWindow: 80_000, limit: 40_000 });
  });

  it('without --config: condense.config.json in the working directory (Mistral Vibe’s compaction.threshold)', () => {
    const here = join(dir, 'project');
    mkdirSync(here);
    writeFile(here, 'condense.config.json', {
      preset: 'mistral-vibe',
      model: 'gpt-4.1',
      compaction: { threshold: 150_000 },
      store: { path: db },
    });
    const stats = json<Stats>(ok(cli(['stats', 'chat', '--json'], 30_000, here)));
    expect(stats).toMatchObject({ model: 'gpt-4.1', limit: 150_000 });
  });

  it('--preset takes a preset by either name', async () => {
    const runs = await Promise.all(
      ['opencode', 'seed-001'].map((p) => cliAsync(['stats', 'chat', '--db', db, '--json', '--preset', p])),
    );
    const [byName, bySeed] = runs.map((r) => json<Stats>(ok(r)));
    expect(byName).toEqual(bySeed);
    // opencode's usable budget (window − 32,000 output cap), not the default 0.8 threshold.
    expect(byName!.limit).toBe(byName!.contextWindow - 32_000);
  });
});

describe('condense compact and prune with a configuration file', () => {
  const config = writeFile(dir, 'opencode.json', { preset: 'opencode', store: { path: db } });
  let opencodeView: OpenAIMessage[];
  let defaultView: OpenAIMessage[];

  beforeAll(async () => {
    // The file's preset (opencode) for one session; --preset default beats it for the other.
    await Promise.all([
      cliAsync(['compact', 'opencode', '--config', config, '--json']).then(ok),
      cliAsync(['compact', 'default', '--config', config, '--preset', 'default', '--json']).then(ok),
    ]);
    const views = await Promise.all([
      cliAsync(['context', 'opencode', '--config', config, '--format', 'openai']),
      cliAsync(['context', 'default', '--config', config, '--preset', 'default', '--format', 'openai']),
    ]);
    [opencodeView, defaultView] = views.map((r) => json<OpenAIMessage[]>(ok(r))) as [
      OpenAIMessage[],
      OpenAIMessage[],
    ];
  });

  it('the file’s preset: everything summarized, asked for as "What did we do so far?"', () => {
    const afterSystem = opencodeView.filter((m) => m.role !== 'system');
    expect(afterSystem.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(afterSystem[0]!.content).toBe('What did we do so far?');
  });

  it('--preset over the file: the default keeps the recent turns verbatim after a delimited summary', () => {
    const at = defaultView.findIndex((m) => JSON.stringify(m).includes('<conversation-summary>'));
    expect(at).toBeGreaterThanOrEqual(0);
    // After the summary, the newest messages as they were (the tail's share of the target).
    expect(defaultView.length).toBeGreaterThan(at + 1);
    expect(JSON.stringify(defaultView.slice(at + 1))).not.toContain('<conversation-summary>');
  });

  it('prune: opencode’s compaction.prune: false turns pruning off', () => {
    const off = writeFile(dir, 'no-prune.yaml', `preset: opencode\ncompaction:\n  prune: false\n`);
    const report = json<{ parts: number; reason: string }>(
      ok(cli(['prune', 'default', '--db', db, '--config', off, '--dry-run', '--json'])),
    );
    expect(report).toMatchObject({ parts: 0, reason: 'pruning is off in this preset or configuration' });
  });
});

describe('a bad configuration file', () => {
  it('stops every command with exit 2, naming file, line and key; nothing is written', async () => {
    const bad = writeFile(dir, 'bad.yaml', 'preset: opencode\ncompaction:\n  thresold: 100\n');
    const before = sessions(db);
    const commands = [
      ['sessions'],
      ['stats', 'chat'],
      ['compact', 'chat'],
      ['prune', 'chat'],
      ['import', join(dir, 'chat.json'), '--session', 'again'],
    ];
    const runs: CliResult[] = await Promise.all(
      commands.map((c) => cliAsync([...c, '--db', db, '--config', bad])),
    );
    for (const r of runs) {
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(
        `${bad}:line 3, field compaction.thresold: unknown key (did you mean 'threshold'?)`,
      );
    }
    expect(sessions(db)).toEqual(before);
  });

  it('--help names the option', () => {
    expect(ok(cli(['stats', '--help'])).stdout).toMatch(/--config <file>\s+configuration file/);
  });
});
