import { beforeAll, describe, expect, it } from 'vitest';
import { importFile, loadYaml, parseTranscript } from '../../src/import/index.js';
import type { ImportedSession } from '../../src/import/types.js';
import type { Part, ToolPart } from '../../src/model/parts.js';
import { dataPath, HAS_DATA, inputErrorOf, NO_DATA_REASON } from './data.js';

const one = (p: ImportedSession | ImportedSession[]) => {
  if (Array.isArray(p)) throw new Error('expected one session');
  return p;
};

describe('Claude Code sub-agent files (<session>/subagents/agent-<id>.jsonl)', () => {
  // Every line of a sub-agent's file is a sidechain carrying its agentId, as Claude Code writes it.
  const line = (type: 'user' | 'assistant', uuid: string, content: unknown) => ({
    parentUuid: null,
    isSidechain: true,
    userType: 'external',
    cwd: '/repo',
    sessionId: '9eda1058-parent',
    agentId: 'a748733',
    version: '2.0.61',
    type,
    uuid,
    timestamp: '2026-01-01T00:00:00.000Z',
    message: {
      role: type,
      content,
      ...(type === 'assistant' ? { id: `msg_${uuid}`, model: 'claude-haiku-4-5' } : {}),
    },
  });
  const file = [
    line('user', 'u1', 'Find where the config is loaded.'),
    line('assistant', 'a1', [
      { type: 'tool_use', id: 'toolu_g', name: 'Grep', input: { pattern: 'loadConfig' } },
    ]),
    line('user', 'u2', [{ type: 'tool_result', tool_use_id: 'toolu_g', content: 'src/config/load.ts' }]),
    line('assistant', 'a2', [{ type: 'text', text: 'It is loaded in src/config/load.ts.' }]),
  ];
  const text = file.map((l) => JSON.stringify(l)).join('\n');

  it('is the sub-agent conversation, named by its agentId (it used to import nothing)', () => {
    const s = one(parseTranscript(text, { file: 'agent-a748733.jsonl' }));
    expect(s.format).toBe('claude-code');
    expect(s.sessionId).toBe('a748733');
    expect(s.messages.map((m) => m.message.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(s.messages[1]!.message.parts[0]).toMatchObject({ callId: 'toolu_g', state: 'completed' });
    expect(s.warnings).toEqual([]);
  });

  it('in a main session file, sidechain lines are still skipped and counted', () => {
    const main = [{ ...file[0], isSidechain: false, agentId: undefined }, file[1]];
    const s = one(parseTranscript(main.map((l) => JSON.stringify(l)).join('\n'), { file: 's.jsonl' }));
    expect(s.messages).toHaveLength(1);
    expect(s.warnings).toContain('1 sub-agent (sidechain) lines skipped');
  });
});

describe('SWE-agent YAML demonstrations', () => {
  beforeAll(loadYaml);

  // The shape SWE-agent writes with `traj_to_demo`: a comment header, `history`, `replay_config`.
  const demo = `# This is a demo file generated from trajectory file:
# /path/to/1c2844.traj
history:
  - role: system
    content: You are a helpful assistant that can interact with a computer.
    agent: main
    message_type: system_prompt
  - role: user
    content: |-
      Fix the missing colon in missing_colon.py
    agent: main
    message_type: observation
  - role: assistant
    content: Let me look at the file.
    agent: main
    tool_calls:
      - function:
          arguments: '{"command":"view","path":"/repo/missing_colon.py"}'
          name: str_replace_editor
        id: call_ggIm89M8
        type: function
    message_type: action
  - role: tool
    content: |-
      def division(a: float, b: float) -> float
          return a/b
    agent: main
    message_type: observation
    tool_call_ids:
      - call_ggIm89M8
replay_config:
  agent:
    name: main
`;

  it('imports like a .traj: system, user, the call answered by its observation', () => {
    const s = one(parseTranscript(demo, { file: 'demo.yaml' }));
    expect(s.format).toBe('swe-agent');
    expect(s.system).toBe('You are a helpful assistant that can interact with a computer.');
    expect(s.messages.map((m) => m.message.role)).toEqual(['user', 'assistant']);
    expect(s.messages[1]!.message.parts[1]).toMatchObject({
      callId: 'call_ggIm89M8',
      name: 'str_replace_editor',
      input: { command: 'view', path: '/repo/missing_colon.py' },
      state: 'completed',
      output: 'def division(a: float, b: float) -> float\n    return a/b',
    });
  });

  it('an error names the YAML line of the field', () => {
    const e = inputErrorOf(() =>
      parseTranscript(demo.replace('    tool_call_ids:\n      - call_ggIm89M8\n', ''), { file: 'demo.yml' }),
    );
    expect(e).toMatchObject({ file: 'demo.yml', field: 'history[3].tool_call_ids' });
    // The item missing it starts at `- role: tool` (line 24).
    expect(demo.split('\n')[e.line! - 1]).toContain('role: tool');
  });

  it('malformed YAML names its line', () => {
    const e = inputErrorOf(() =>
      parseTranscript('history:\n  - role: user\n   content: [oops\n', { file: 'bad.yaml' }),
    );
    expect(e.file).toBe('bad.yaml');
    expect(e.message).toMatch(/malformed YAML/);
    expect(e.line).toBeGreaterThanOrEqual(2);
  });

  it.skipIf(!HAS_DATA)(
    `imports SWE-agent's own demo file (${HAS_DATA ? 'real data' : NO_DATA_REASON})`,
    async () => {
      const file = dataPath('swe-agent/trajectories/demonstrations/str_replace_anthropic_demo.yaml');
      const s = one(await importFile(file));
      expect(s.format).toBe('swe-agent');
      const parts = s.messages.flatMap((m): Part[] => m.message.parts);
      const tools = parts.filter((p): p is ToolPart => p.type === 'tool');
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.every((p) => p.state === 'completed')).toBe(true);
    },
  );
});
