import { describe, expect, it } from 'vitest';
import { parseGeminiCli, parseSweAgent, parseTauBench, parseTranscript } from '../../src/import/index.js';
import { inputErrorOf } from './data.js';

describe('parseGeminiCli', () => {
  const session = {
    sessionId: 'g1',
    messages: [
      { type: 'user', content: 'hi', timestamp: '2025-12-01T21:45:34.362Z' },
      { type: 'info', content: 'CLI notice' },
      {
        type: 'gemini',
        content: '',
        model: 'gemini-3-pro',
        tokens: { input: 10, output: 2 },
        thoughts: [{ subject: 'Plan', description: 'list files' }],
        toolCalls: [
          {
            id: 'ls-1',
            name: 'list_directory',
            args: { dir: '.' },
            status: 'success',
            result: [
              { functionResponse: { id: 'ls-1', name: 'list_directory', response: { output: 'a b' } } },
            ],
          },
          {
            id: 'rd-1',
            name: 'read_file',
            args: {},
            status: 'error',
            result: [
              { functionResponse: { id: 'rd-1', name: 'read_file', response: { error: 'no such file' } } },
            ],
          },
        ],
      },
    ],
  };

  it('maps thoughts, tool calls with their inline results, tokens and model; skips CLI notices', () => {
    const s = parseGeminiCli(session);
    expect(s.sessionId).toBe('g1');
    expect(s.messages).toHaveLength(2);
    const a = s.messages[1]!;
    expect(a.usage).toEqual({ input: 10, output: 2 });
    expect(a.model).toBe('gemini-3-pro');
    expect(a.message.parts).toEqual([
      { type: 'reasoning', text: '**Plan** list files' },
      {
        type: 'tool',
        callId: 'ls-1',
        name: 'list_directory',
        input: { dir: '.' },
        state: 'completed',
        output: 'a b',
      },
      { type: 'tool', callId: 'rd-1', name: 'read_file', input: {}, state: 'error', error: 'no such file' },
    ]);
    expect(s.warnings).toEqual(['1 info record(s) skipped (CLI notices)']);
  });

  it('errors name the field, and the line in the file', () => {
    const bad = { sessionId: 'g', messages: [{ type: 'user', content: 'a' }, { content: 'b' }] };
    const text = JSON.stringify(bad, null, 2);
    const e = inputErrorOf(() => parseTranscript(text, { file: 'g.json', format: 'gemini-cli' }));
    expect(e).toMatchObject({ file: 'g.json', field: 'messages[1].type', line: 8 });
  });
});

describe('parseSweAgent', () => {
  it('imports function-calling history with tool parts, answered through tool_call_ids', () => {
    const s = parseSweAgent({
      history: [
        { role: 'system', content: 'SETTING' },
        { role: 'user', content: 'issue' },
        {
          role: 'assistant',
          content: 'look',
          tool_calls: [{ id: 'c', function: { name: 'ls', arguments: '{}' } }],
        },
        { role: 'tool', content: 'files', tool_call_ids: ['c'] },
      ],
    });
    expect(s.system).toBe('SETTING');
    expect(s.messages[1]!.message.parts[1]).toMatchObject({
      callId: 'c',
      state: 'completed',
      output: 'files',
    });
  });

  it('imports plain-text history as text messages', () => {
    const s = parseSweAgent({
      history: [
        { role: 'system', content: 'SETTING' },
        { role: 'assistant', content: 'DISCUSSION\n```\nls\n```', thought: 'x', action: 'ls' },
        { role: 'user', content: 'a.py' },
      ],
    });
    expect(s.messages.map((m) => m.message.parts)).toEqual([
      [{ type: 'text', text: 'DISCUSSION\n```\nls\n```' }],
      [{ type: 'text', text: 'a.py' }],
    ]);
  });

  it('a tool observation without ids names its field', () => {
    const e = inputErrorOf(() =>
      parseSweAgent({ history: [{ role: 'tool', content: 'x' }] }, { file: 'a.traj' }),
    );
    expect(e).toMatchObject({ file: 'a.traj', field: 'history[0].tool_call_ids' });
  });
});

describe('parseTauBench', () => {
  it('imports each run as a session named by task and trial', () => {
    const runs = [
      {
        task_id: 3,
        trial: 1,
        traj: [
          { role: 'system', content: 'policy' },
          { role: 'user', content: 'hi' },
        ],
      },
      { task_id: 4, trial: 0, traj: [{ role: 'user', content: 'yo' }] },
    ];
    const sessions = parseTauBench(runs);
    expect(sessions.map((s) => [s.format, s.sessionId, s.system, s.messages.length])).toEqual([
      ['tau-bench', 'task-3-trial-1', 'policy', 1],
      ['tau-bench', 'task-4-trial-0', undefined, 1],
    ]);
  });

  it('an error inside a run names the run, the field and the line', () => {
    const runs = [
      { task_id: 0, traj: [{ role: 'user', content: 'a' }] },
      { task_id: 1, traj: [{ role: 'pilot' }] },
    ];
    const text = JSON.stringify(runs, null, 2);
    const e = inputErrorOf(() => parseTranscript(text, { file: 't.json' }));
    expect(e).toMatchObject({ file: 't.json', field: '[1].traj[0].role', line: 15 });
  });
});
