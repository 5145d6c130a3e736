import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectFormat, lineOfField, loadYaml, parseTranscript, readShape } from '../../src/import/index.js';
import { dataFiles, dataPath, HAS_DATA, inputErrorOf, readText } from './data.js';

const detect = (text: string, file?: string) => detectFormat(readShape(text, file), file);

describe('format detection', () => {
  beforeAll(loadYaml);

  it('recognizes each format from content alone', () => {
    expect(detect(JSON.stringify([{ role: 'user', content: 'a' }]))).toBe('openai');
    expect(detect(JSON.stringify({ messages: [{ role: 'user', content: 'a' }] }))).toBe('openai');
    expect(detect(JSON.stringify([{ task_id: 1, traj: [] }]))).toBe('tau-bench');
    expect(detect(JSON.stringify({ history: [], info: {} }))).toBe('swe-agent');
    expect(detect(JSON.stringify({ sessionId: 's', messages: [{ type: 'user', content: 'a' }] }))).toBe(
      'gemini-cli',
    );
    const claude = [{ type: 'file-history-snapshot' }, { type: 'user', message: { content: 'a' } }];
    expect(detect(claude.map((l) => JSON.stringify(l)).join('\n'))).toBe('claude-code');
    const codex = [
      { type: 'session_meta', payload: {} },
      { type: 'event_msg', payload: {} },
    ];
    expect(detect(codex.map((l) => JSON.stringify(l)).join('\n'))).toBe('codex');
    const condense = [{ type: 'session', id: 'x', createdAt: 1, metadata: {} }];
    expect(detect(condense.map((l) => JSON.stringify(l)).join('\n'))).toBe('condense');
    const openhands = [{ id: 1, source: 'user', action: 'message', args: { content: 'a' } }];
    expect(detect(JSON.stringify(openhands))).toBe('openhands');
    expect(detect(JSON.stringify({ instance_id: 'x', history: openhands }))).toBe('openhands');
    expect(detect(`${JSON.stringify({ instance_id: 'x', history: openhands })}\n`, 'output.jsonl')).toBe(
      'openhands',
    );
    expect(detect(JSON.stringify({ object: 'response', output: [] }))).toBe('openai-responses');
    expect(detect(JSON.stringify({ model: 'm', input: 'hi' }))).toBe('openai-responses');
    expect(
      detect(JSON.stringify([{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }])),
    ).toBe('openai-responses');
    expect(detect(JSON.stringify([{ role: 'user', content: [{ type: 'input_text', text: 'a' }] }]))).toBe(
      'openai-responses',
    );
    expect(detect(JSON.stringify({ type: 'message', role: 'assistant', content: [] }))).toBe('anthropic');
    expect(detect(JSON.stringify({ system: 'be brief', messages: [{ role: 'user', content: 'a' }] }))).toBe(
      'anthropic',
    );
    const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] };
    expect(detect(JSON.stringify({ messages: [{ role: 'user', content: 'a' }, toolUse] }))).toBe('anthropic');
    expect(detect('history:\n  - role: user\n    content: a\n', 'demo.yaml')).toBe('swe-agent');
  });

  it('a single-line JSONL record without extension is still JSONL', () => {
    expect(detect(JSON.stringify({ type: 'user', message: { content: 'a' } }))).toBe('claude-code');
  });

  it('rejects what it cannot recognize, naming the file', () => {
    const e = inputErrorOf(() => detect(JSON.stringify({ hello: 'world' }), 'x.json'));
    expect(e).toMatchObject({ file: 'x.json', line: 1 });
    expect(e.message).toContain('unrecognized transcript format');
  });

  it.skipIf(!HAS_DATA)('detects every real file (skipped when the shared data folder is absent)', () => {
    const expected: [string, string, string[]][] = [
      ['agent-sessions/claude-code', 'claude-code', ['.jsonl']],
      ['agent-sessions/codex', 'codex', ['.jsonl']],
      ['agent-sessions/gemini-cli', 'gemini-cli', ['.json']],
      ['swe-agent/trajectories', 'swe-agent', ['.traj']],
    ];
    for (const [folder, format, exts] of expected) {
      for (const file of dataFiles(folder, exts)) expect(detect(readText(file), file)).toBe(format);
    }
    const tau = dataPath('tau-bench/gpt-4o-airline.json');
    expect(detect(readText(tau), tau)).toBe('tau-bench');
  });
});

describe('malformed input names file and line', () => {
  it('malformed JSON: the line where parsing stopped', () => {
    const text = '{\n  "messages": [\n    {"role": "user", "content": "a"}\n    {"role": "user"}\n  ]\n}';
    const e = inputErrorOf(() => parseTranscript(text, { file: 'a.json' }));
    expect(e).toMatchObject({ file: 'a.json', line: 4 });
    expect(e.message).toMatch(/^a\.json:line 4: malformed JSON/);
  });

  it('truncated JSON: the last line', () => {
    const e = inputErrorOf(() => parseTranscript('[\n {"role": "user",\n', { file: 'b.json' }));
    expect(e).toMatchObject({ file: 'b.json', line: 2 });
  });

  it('a JSONL line that does not parse: that line', () => {
    const text = ['{"type":"session_meta","payload":{}}', '{"type":"event_msg","payload":{}}', '{oops}'].join(
      '\n',
    );
    expect(inputErrorOf(() => parseTranscript(text, { file: 'c.jsonl' }))).toMatchObject({
      file: 'c.jsonl',
      line: 3,
    });
  });

  it('a format given explicitly that does not match the shape', () => {
    const text = JSON.stringify([{ role: 'user', content: 'a' }]);
    const e = inputErrorOf(() => parseTranscript(text, { file: 'd.json', format: 'gemini-cli' }));
    expect(e).toMatchObject({ file: 'd.json', line: 1 });
  });
});

describe('lineOfField', () => {
  const text = '{\n  "a": [\n    1,\n    {"b": "x\\"]}{,", "c": [true,\n      null]}\n  ],\n  "d": 2\n}';

  it('walks objects and arrays, skipping strings with brackets and escapes', () => {
    expect(lineOfField(text, 'a')).toBe(2);
    expect(lineOfField(text, 'a[1].c[1]')).toBe(5);
    expect(lineOfField(text, 'd')).toBe(7);
    // A missing field points at its deepest existing ancestor.
    expect(lineOfField(text, 'a[1].missing')).toBe(4);
  });

  it('property: finds the line of every element of a pretty-printed array', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 10 }), (values) => {
        const doc = JSON.stringify({ list: values }, null, 2);
        const lines = doc.split('\n');
        values.forEach((value, i) => {
          const line = lineOfField(doc, `list[${i}]`)!;
          const first = JSON.stringify(value, null, 2).split('\n')[0]!;
          expect(lines[line - 1]!.trim().startsWith(first.trim())).toBe(true);
        });
      }),
    );
  });
});
