import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/import/index.js';
import type { ImportedSession } from '../../src/import/types.js';
import type { ToolPart } from '../../src/model/parts.js';
import { inputErrorOf } from './data.js';
import { metadata, modelResponse } from './openhands-shapes.js';

/**
 * OpenHands V0 event streams, built from the shapes `event_to_dict` writes (top keys id,
 * timestamp, source, message, cause, action/observation, tool_call_metadata; `args` for actions,
 * `content` and `extras` for observations) and the LiteLLM response `tool_call_metadata` holds.
 */

const t = (s: number) => `2025-03-01T10:00:${String(s).padStart(2, '0')}.000000`;

const response = modelResponse('chatcmpl-1', 'Let me look at the repository.', [
  ['toolu_01', 'execute_bash', { command: 'ls' }],
]);

const trajectory = [
  {
    id: 0,
    timestamp: t(0),
    source: 'agent',
    message: 'You are OpenHands agent...',
    action: 'system',
    args: { content: 'You are OpenHands agent, a helpful AI assistant.', tools: [] },
  },
  {
    id: 1,
    timestamp: t(1),
    source: 'user',
    message: 'Fix the failing test',
    action: 'message',
    args: { content: 'Fix the failing test', image_urls: null, wait_for_response: false },
  },
  {
    id: 2,
    timestamp: t(2),
    source: 'environment',
    message: '',
    observation: 'agent_state_changed',
    content: '',
    extras: { agent_state: 'running' },
  },
  {
    id: 3,
    timestamp: t(3),
    source: 'agent',
    message: 'Running command: ls',
    action: 'run',
    tool_call_metadata: metadata('toolu_01', 'execute_bash', response),
    args: { command: 'ls', is_input: false, thought: '', blocking: false },
  },
  {
    id: 4,
    timestamp: t(4),
    source: 'agent',
    message: 'Command `ls` executed with exit code 0.',
    cause: 3,
    observation: 'run',
    tool_call_metadata: metadata('toolu_01', 'execute_bash', response),
    content: 'setup.py\nsrc\ntests',
    extras: { command: 'ls', metadata: { exit_code: 0 } },
    success: true,
  },
  {
    id: 5,
    timestamp: t(5),
    source: 'agent',
    message: 'All done.',
    action: 'finish',
    args: { final_thought: 'The test passes now.', task_completed: 'true', outputs: {}, thought: '' },
  },
];

const one = (p: ImportedSession | ImportedSession[]) => (Array.isArray(p) ? p[0]! : p);

describe('OpenHands trajectory (a JSON array of events)', () => {
  const s = one(parseTranscript(JSON.stringify(trajectory, null, 2), { file: 'trajectory.json' }));

  it('is detected, with the system action as the instructions', () => {
    expect(s.format).toBe('openhands');
    expect(s.system).toBe('You are OpenHands agent, a helpful AI assistant.');
  });

  it('rebuilds the conversation: user, the model response with its call and result, the finish', () => {
    expect(s.messages.map((m) => m.message.role)).toEqual(['user', 'assistant', 'assistant']);
    const step = s.messages[1]!;
    expect(step.message.parts[0]).toEqual({ type: 'text', text: 'Let me look at the repository.' });
    expect(step.message.parts[1]).toMatchObject({
      type: 'tool',
      callId: 'toolu_01',
      name: 'execute_bash',
      input: { command: 'ls' },
      state: 'completed',
      output: 'setup.py\nsrc\ntests',
    } satisfies Partial<ToolPart>);
    expect(step.usage).toEqual(response.usage);
    expect(step.model).toBe('claude-3-7-sonnet-20250219');
    expect(step.createdAt).toBe(Date.parse(t(3)));
    expect(s.messages[2]!.message.parts).toEqual([{ type: 'text', text: 'The test passes now.' }]);
    expect(s.warnings).toEqual(['1 agent_state_changed observation skipped (not conversation)']);
  });

  it('an action of a response that made several calls adds that response once', () => {
    const two = modelResponse('chatcmpl-2', '', [
      ['c1', 'str_replace_editor', { command: 'view', path: '/a' }],
      ['c2', 'str_replace_editor', { command: 'view', path: '/b' }],
    ]);
    const events = [
      trajectory[1],
      {
        id: 2,
        source: 'agent',
        message: '',
        action: 'read',
        tool_call_metadata: metadata('c1', 'str_replace_editor', two),
        args: { path: '/a' },
      },
      {
        id: 3,
        source: 'agent',
        message: '',
        action: 'read',
        tool_call_metadata: metadata('c2', 'str_replace_editor', two),
        args: { path: '/b' },
      },
      {
        id: 4,
        source: 'agent',
        message: '',
        observation: 'read',
        cause: 2,
        tool_call_metadata: metadata('c1', 'str_replace_editor', two),
        content: 'A',
        extras: {},
      },
      {
        id: 5,
        source: 'agent',
        message: '',
        observation: 'error',
        cause: 3,
        tool_call_metadata: metadata('c2', 'str_replace_editor', two),
        content: 'no such file',
        extras: {},
      },
    ];
    const r = one(parseTranscript(JSON.stringify(events)));
    expect(r.messages).toHaveLength(2);
    expect(r.messages[1]!.message.parts).toMatchObject([
      { callId: 'c1', state: 'completed', output: 'A' },
      { callId: 'c2', state: 'error', error: 'no such file' },
    ]);
  });

  it('an error names the file, the line and the field', () => {
    const broken = structuredClone(trajectory) as Record<string, unknown>[];
    delete (broken[3]!.tool_call_metadata as { model_response: { id?: string } }).model_response.id;
    const text = JSON.stringify(broken, null, 2);
    const e = inputErrorOf(() => parseTranscript(text, { file: 'trajectory.json' }));
    expect(e.field).toBe('[3].tool_call_metadata.model_response.id');
    expect(e.file).toBe('trajectory.json');
    const modelResponseLine = text.split('\n').findIndex((l) => l.includes('"model_response"')) + 1;
    expect(e.line).toBe(modelResponseLine);
  });
});

describe('OpenHands evaluation output (output.jsonl, one run per line)', () => {
  const record = (id: string, history: unknown[]) => ({
    instance_id: id,
    instruction: 'Fix the failing test',
    metadata: {
      agent_class: 'CodeActAgent',
      llm_config: { model: 'litellm_proxy/claude-3-7-sonnet' },
      max_iterations: 100,
    },
    history,
    test_result: { git_patch: 'diff --git a/x b/x' },
    error: null,
  });
  const lines = [
    record('django__django-11099', trajectory),
    record('astropy__astropy-12907', trajectory.slice(0, 2)),
  ];
  const text = lines.map((l) => JSON.stringify(l)).join('\n');

  it('gives one session per run, named by its instance_id', () => {
    const sessions = parseTranscript(text, { file: 'output.jsonl' });
    expect(Array.isArray(sessions)).toBe(true);
    const list = sessions as ImportedSession[];
    expect(list.map((s) => [s.format, s.sessionId, s.messages.length])).toEqual([
      ['openhands', 'django__django-11099', 3],
      ['openhands', 'astropy__astropy-12907', 1],
    ]);
    // Detected from content alone too.
    expect((parseTranscript(text) as ImportedSession[])[0]!.format).toBe('openhands');
  });

  it('an error names the line of the run and the field inside it', () => {
    const bad = [lines[0], { ...lines[1], history: [{ id: 1, source: 'user', args: {} }] }];
    const e = inputErrorOf(() =>
      parseTranscript(bad.map((l) => JSON.stringify(l)).join('\n'), { file: 'output.jsonl' }),
    );
    expect(e).toMatchObject({ file: 'output.jsonl', line: 2, field: 'history[0]' });
  });
});
