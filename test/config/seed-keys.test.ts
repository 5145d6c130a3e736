/**
 * Each seed system's own configuration keys, written as that system writes them, change what a
 * session does: when it compacts and whether it prunes.
 */
import { describe, expect, it } from 'vitest';
import { beforeTurnDecision } from '../../src/budget/index.js';
import { openSession, type Session, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { act, say, sizedUser, toolRun, user } from '../presets/support.js';
import { load, loadError } from './support.js';

const open = (options: SessionOptions) => openSession(memoryStore(), 's', options);

/** Records one step whose reported usage totals `total` tokens; returns whether it compacts. */
async function stepAt(session: Session, total: number): Promise<boolean> {
  await session.append(user('Refactor the parser'));
  const step = await session.recordStep({
    message: say('Refactoring.'),
    usage: { prompt_tokens: total - 1_000, completion_tokens: 1_000 },
  });
  return step.decision?.compact === true;
}

describe('opencode §7: "compaction.auto (default: true): enable/disable auto-compaction on overflow"', () => {
  const base =
    'preset: opencode\nmodel: opencode-model\nlimits:\n  contextWindow: 100000\n  maxOutput: 10000\n';

  it('absent: a step over the usable 90,000 compacts', async () => {
    expect(await stepAt(await open(load(base).options), 90_001)).toBe(true);
  });

  it('false: the same step does not, and the budget says auto compaction is off', async () => {
    const session = await open(load(`${base}compaction:\n  auto: false\n`).options);
    expect(await stepAt(session, 90_001)).toBe(false);
    expect(session.config.budget.off).toBe('disabled');
  });
});

describe('opencode §7: "compaction.prune (default: true): enable/disable tool-output pruning"', () => {
  /** Twelve old reads of 10,000 tokens each, then two new turns: plenty to prune. */
  async function pruned(options: SessionOptions) {
    const session = await open(options);
    for (let i = 0; i < 12; i++) {
      await session.append([user(`Read part ${i}`), act(toolRun('read_file', { path: `p${i}.ts` }, 10_000))]);
    }
    await session.append([user('Now fix it'), say('Fixing.'), user('And test it')]);
    return session.prune({ dryRun: true });
  }

  it('absent: the preset prunes old outputs', async () => {
    expect((await pruned(load('preset: opencode\n').options))?.parts).toBeGreaterThan(0);
  });

  it('false: pruning is off', async () => {
    expect(await pruned(load('preset: opencode\ncompaction:\n  prune: false\n').options)).toBeNull();
  });

  it('true turns pruning on (condense defaults) under a preset without it', async () => {
    expect(await pruned(load('preset: nexus\n').options)).toBeNull();
    expect(
      (await pruned(load('preset: nexus\ncompaction:\n  prune: true\n').options))?.parts,
    ).toBeGreaterThan(0);
  });
});

describe('pegasus: "session: compactThreshold: 0.8 # fraction of context window (default: 0.8)"', () => {
  const limitOf = async (yaml: string) => (await open(load(yaml).options)).config.budget;

  it('default 0.8: gpt-4o (128,000) compacts above 102,400', async () => {
    expect(await limitOf('preset: pegasus\nmodel: gpt-4o\n')).toMatchObject({
      limit: 102_400,
      limitKind: 'threshold',
    });
  });

  it('"Lower value (e.g. 0.6) → compact earlier": 0.6 moves the trigger to 76,800', async () => {
    const session = await open(
      load('preset: pegasus\nmodel: gpt-4o\nsession:\n  compactThreshold: 0.6\n').options,
    );
    expect(session.config.budget.limit).toBe(76_800);
    await session.append(sizedUser('Summarize the logs', 76_801));
    expect(beforeTurnDecision(session.estimate(), session.config.budget).compact).toBe(true);
  });

  it.each([
    ['0 (would compact before every call)', '0'],
    ['above 1', '1.5'],
    ['a percentage', '80'],
    ['negative', '-0.2'],
    ['a string', '"0.8"'],
  ])('%s is refused, naming the key and its line', (_label, value) => {
    const error = loadError(`preset: pegasus\nsession:\n  compactThreshold: ${value}\n`);
    expect(error).toMatchObject({ field: 'session.compactThreshold', line: 3 });
    expect(error.message).toContain('fraction of the context window in (0, 1]');
    expect(error.message).toContain(`got ${value}`);
  });

  it('1 (the whole window) is accepted', async () => {
    expect((await limitOf('model: gpt-4o\nsession:\n  compactThreshold: 1\n')).limits.threshold).toBe(
      128_000,
    );
  });
});

describe('mistral-vibe: { "compaction": { "threshold": 200000 } }; "Set threshold to 0 to disable"', () => {
  const json = (threshold: number) =>
    load(
      `{\n  "preset": "mistral-vibe",\n  "compaction": { "threshold": ${threshold} }\n}\n`,
      'condense.config.json',
    );

  it('150,000: ContextTokens ≥ 150,000 compacts, 149,999 does not', async () => {
    expect(await stepAt(await open(json(150_000).options), 150_000)).toBe(true);
    expect(await stepAt(await open(json(150_000).options), 149_999)).toBe(false);
  });

  it('absent: the seed default of 200,000', async () => {
    const session = await open(load('preset: mistral-vibe\n').options);
    expect(session.config.budget).toMatchObject({ limit: 200_000, comparison: '>=' });
  });

  it('0 disables auto-compaction, even at ten million tokens', async () => {
    const session = await open(json(0).options);
    expect(await stepAt(session, 10_000_000)).toBe(false);
    expect(session.config.budget.off).toBe('disabled');
  });

  it('0 under condense defaults also turns auto compaction off (the seed key keeps its meaning)', async () => {
    const session = await open(load('compaction:\n  threshold: 0\n').options);
    expect(session.config.budget.off).toBe('disabled');
  });

  it.each([
    ['-1', '-1'],
    ['a fraction', '0.5'],
  ])('%s is refused, naming the key and its line', (_label, value) => {
    const error = loadError(`{\n  "compaction": {\n    "threshold": ${value}\n  }\n}\n`, 'c.json');
    expect(error).toMatchObject({ field: 'compaction.threshold', line: 3 });
    expect(error.message).toContain('whole number of tokens ≥ 0 (0 turns automatic compaction off)');
  });
});

describe('a seed key and the condense option it stands for', () => {
  it.each([
    [
      'session.compactThreshold and budget.threshold',
      'budget:\n  threshold: 0.7\nsession:\n  compactThreshold: 0.6\n',
      'session.compactThreshold',
      4,
    ],
    [
      'compaction.auto and budget.auto',
      'budget:\n  auto: true\ncompaction:\n  auto: false\n',
      'compaction.auto',
      4,
    ],
    [
      'compaction.threshold and budget.absolute',
      'budget:\n  absolute: 5\ncompaction:\n  threshold: 9\n',
      'compaction.threshold',
      4,
    ],
    ['threshold 0 with auto true', 'compaction:\n  auto: true\n  threshold: 0\n', 'compaction.threshold', 3],
    [
      'prune false with prune settings',
      'prune:\n  protectTokens: 1000\ncompaction:\n  prune: false\n',
      'compaction.prune',
      4,
    ],
  ])('%s: refused as ambiguous, not silently resolved', (_label, yaml, field, line) => {
    expect(loadError(yaml)).toMatchObject({ field, line });
  });
});
