/**
 * `loadConfig()`: JSON and YAML files, found in the working directory or named, checked key by
 * key (an unknown key or a bad value names file, line and key), applied over their preset.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractiveSummarizer } from '../../src/compact/index.js';
import { loadConfig, mergeOptions } from '../../src/config/index.js';
import { InputError } from '../../src/model/index.js';
import { inProcessQueue, presetOptions } from '../../src/session/index.js';
import { folder, load, loadError } from './support.js';

const YAML = `# condense settings
preset: pegasus
model: gpt-4o
limits:
  contextWindow: 64000
budget:
  outputCap: 8000
prune:
  protectTokens: 30000
  protectedTools: [skill, read_memory]
compaction:
  plan:
    keepTokens: 12000
  summaryAs: user
  continueMessage: "Go on."
checks:
  countOutput: false
estimator: exact
session:
  compactThreshold: 0.7
store:
  path: sessions.db
`;

const JSON_TEXT = JSON.stringify(
  {
    preset: 'pegasus',
    model: 'gpt-4o',
    limits: { contextWindow: 64000 },
    budget: { outputCap: 8000 },
    prune: { protectTokens: 30000, protectedTools: ['skill', 'read_memory'] },
    compaction: { plan: { keepTokens: 12000 }, summaryAs: 'user', continueMessage: 'Go on.' },
    checks: { countOutput: false },
    estimator: 'exact',
    session: { compactThreshold: 0.7 },
    store: { path: 'sessions.db' },
  },
  null,
  2,
);

describe('loadConfig: JSON and YAML', () => {
  it('the same settings in either format load to the same options', () => {
    const yaml = load(YAML, 'condense.config.yaml');
    const json = load(JSON_TEXT, 'condense.config.json');
    expect(yaml.options).toEqual(json.options);
    expect(yaml.preset).toBe('seed-003');
  });

  it('the file over its preset: named settings replace, the preset keeps the rest', () => {
    const { options } = load(YAML);
    const preset = presetOptions('seed-003');
    expect(options.budget).toEqual({ ...preset.budget, outputCap: 8000, threshold: 0.7 });
    expect(options.compaction?.plan).toEqual({ ...preset.compaction?.plan, keepTokens: 12000 });
    // The preset's summary layout and format are replaced / kept, setting by setting.
    expect(options.compaction?.summaryAs).toBe('user');
    expect(options.compaction?.formatSummary).toBe(preset.compaction?.formatSummary);
    expect(options.prune).toEqual({ protectTokens: 30000, protectedTools: ['skill', 'read_memory'] });
    expect(options).toMatchObject({ model: 'gpt-4o', estimator: 'exact', limits: { contextWindow: 64000 } });
  });

  it('your own options over the file (mergeOptions), which keeps what you do not name', () => {
    const { options } = load(YAML);
    const mine = mergeOptions(options, { budget: { threshold: 0.5 }, limits: { maxOutput: 4000 } });
    expect(mine.budget).toEqual({ ...options.budget, threshold: 0.5 });
    expect(mine.limits).toEqual({ contextWindow: 64000, maxOutput: 4000 });
  });

  it('store.path is relative to the file, whatever the working directory', () => {
    const dir = folder({ 'c.yaml': 'store:\n  path: data/x.db\n' });
    expect(loadConfig('c.yaml', { cwd: dir }).store.path).toBe(join(dir, 'data/x.db'));
  });

  it('the README’s example file loads as it says', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Configuration file'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const { preset, options } = load(example);
    expect(preset).toBe('seed-001');
    expect(options).toMatchObject({ model: 'claude-sonnet-4-5', budget: { auto: true, outputCap: 16000 } });
  });

  it('background.soft from the file combines with the queue the program gives; outside (0, 1) it is refused', () => {
    const { options } = load('background:\n  soft: 0.5\n');
    expect(options.background).toEqual({ soft: 0.5 });
    const queue = inProcessQueue({ summarizer: extractiveSummarizer() });
    expect(mergeOptions(options, { background: { queue } }).background).toEqual({ soft: 0.5, queue });
    expect(load('background: false\n').options.background).toBe(false);
    expect(loadError('background:\n  soft: 1\n')).toMatchObject({ field: 'background.soft', line: 2 });
    expect(loadError('background:\n  soft: 0.5\n  queue: pg\n').message).toMatch(/unknown key/);
  });

  it('an empty YAML file (or comments only) is an empty configuration', () => {
    expect(load('# nothing yet\n')).toMatchObject({ options: {}, store: {} });
  });
});

describe('loadConfig: which file', () => {
  it('the working directory’s condense.config.json / .yaml when no path is given', () => {
    for (const name of ['condense.config.json', 'condense.config.yaml', 'condense.config.yml']) {
      const dir = folder({ [name]: name.endsWith('.json') ? '{ "model": "gpt-4o" }' : 'model: gpt-4o\n' });
      expect(loadConfig(undefined, { cwd: dir })).toMatchObject({
        file: join(dir, name),
        options: { model: 'gpt-4o' },
      });
    }
  });

  it('none there: no file and no settings', () => {
    expect(loadConfig(undefined, { cwd: folder() })).toEqual({ options: {}, store: {} });
  });

  it('two there: refused, naming both', () => {
    const dir = folder({ 'condense.config.json': '{}', 'condense.config.yaml': '' });
    expect(() => loadConfig(undefined, { cwd: dir })).toThrow(
      /condense\.config\.json and .*condense\.config\.yaml both exist/,
    );
  });

  it('a named file that does not exist: refused, naming it', () => {
    expect(() => loadConfig('missing.yaml', { cwd: folder() })).toThrow(/missing\.yaml: cannot read/);
  });
});

describe('loadConfig: errors name file, line and key', () => {
  it('an unknown top-level key (YAML)', () => {
    const error = loadError('preset: opencode\nmodle: gpt-4o\n', 'condense.config.yaml');
    expect(error).toMatchObject({ line: 2, field: 'modle' });
    expect(error.message).toMatch(
      /condense\.config\.yaml:line 2, field modle: unknown key \(did you mean 'model'\?\)/,
    );
  });

  it('an unknown nested key (JSON), with the keys known there', () => {
    const text =
      '{\n  "preset": "opencode",\n  "compaction": {\n    "auto": true,\n    "thresold": 5\n  }\n}\n';
    const error = loadError(text, 'condense.config.json');
    expect(error).toMatchObject({ line: 5, field: 'compaction.thresold' });
    expect(error.message).toContain("did you mean 'threshold'?");
    expect(error.message).toContain('the keys known here are auto, prune, threshold, plan');
  });

  it('an unknown key inside prune settings (the `false | settings` choice is seen through)', () => {
    expect(loadError('prune:\n  mode: hide\n  protect: 5\n')).toMatchObject({
      line: 3,
      field: 'prune.protect',
    });
  });

  it('a value of the wrong kind, and a choice outside its list', () => {
    expect(loadError('compaction:\n  summaryAs: sidebar\n').message).toMatch(
      /line 2, field compaction\.summaryAs: must be one of "user", .*"question\+assistant", got "sidebar"/,
    );
    expect(loadError('checks:\n  afterStep: yes\n').message).toMatch(
      /field checks\.afterStep: must be a boolean, got "yes"/,
    );
    expect(loadError('prune:\n  protectedTools: [skill, 3]\n')).toMatchObject({
      field: 'prune.protectedTools[1]',
      line: 2,
    });
  });

  it('an unknown preset lists both names of every preset', () => {
    const error = loadError('preset: claude-code\n');
    expect(error).toMatchObject({ field: 'preset', line: 1 });
    expect(error.message).toContain('"seed-001"');
    expect(error.message).toContain('"opencode"');
  });

  it('every problem of the file at once, in line order', () => {
    const error = loadError('store:\n  db: x\nmodel: 7\nsession:\n  compactThreshold: 2\n');
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/line 2, field store\.db: unknown key/);
    expect(lines[1]).toMatch(/line 3, field model: must be a string, got 7/);
    expect(lines[2]).toMatch(/line 5, field session\.compactThreshold: /);
  });

  it('malformed JSON and YAML name their line', () => {
    expect(loadError('{\n  "model": "gpt-4o",\n}\n', 'c.json')).toMatchObject({ line: 3 });
    expect(loadError('model: gpt-4o\nmodel: gpt-4.1\n')).toMatchObject({ line: 2 });
    // A key given twice is refused in JSON too, where JSON.parse would keep the last one silently.
    const twice = loadError('{\n\t"model": "gpt-4o",\n\t"model": "gpt-4.1"\n}\n', 'c.json');
    expect(twice).toMatchObject({ line: 3 });
    expect(twice.message).toContain('malformed JSON: a key given a second time here');
  });

  it('a document that is not a mapping', () => {
    expect(loadError('- preset: opencode\n').message).toContain('must be a mapping of keys');
    expect(() => load('[]', 'c.json')).toThrow(InputError);
  });
});
