import { describe, expect, it } from 'vitest';
import { cliAsync, freshDb, json, ok, sessions, tempDir, writeFile } from './support.js';

/** Issue 10, item 6 through the CLI: the formats that did not import, detected from their content. */

const dir = tempDir();

const demoYaml = `history:
  - role: system
    content: You are a helpful assistant.
  - role: user
    content: Fix the bug.
  - role: assistant
    content: Looking.
    tool_calls:
      - function: {name: bash, arguments: '{"command":"ls"}'}
        id: call_1
        type: function
  - role: tool
    content: setup.py
    tool_call_ids: [call_1]
`;

const event = (id: number, source: string, action: string, content: string) => ({
  id,
  source,
  message: content,
  action,
  args: { content },
});

const outputJsonl = ['django__django-11099', 'astropy__astropy-12907']
  .map((id) =>
    JSON.stringify({
      instance_id: id,
      metadata: { llm_config: { model: 'gpt-4o' } },
      history: [event(1, 'user', 'message', `Fix ${id}`), event(2, 'agent', 'message', 'Done.')],
    }),
  )
  .join('\n');

const anthropicResponse = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-20250514',
  content: [{ type: 'text', text: 'Hello.' }],
  usage: { input_tokens: 12, output_tokens: 3 },
};

interface Row {
  session: string;
  messages: number;
}

describe('condense import of the formats added by issue 10', () => {
  it('SWE-agent YAML demo, OpenHands output.jsonl (one session per run), an Anthropic response', async () => {
    const db = freshDb(dir);
    const yaml = writeFile(dir, 'demo.yaml', demoYaml);
    const jsonl = writeFile(dir, 'output.jsonl', outputJsonl);
    const response = writeFile(dir, 'reply.json', anthropicResponse);
    const a = json<Row[]>(ok(await cliAsync(['import', yaml, '--db', db, '--json'])));
    const b = json<Row[]>(ok(await cliAsync(['import', jsonl, '--db', db, '--json'])));
    const c = json<Row[]>(ok(await cliAsync(['import', response, '--db', db, '--json'])));
    expect(a).toEqual([{ session: 'demo', messages: 2 }]);
    expect(b).toEqual([
      { session: 'output-django__django-11099', messages: 2 },
      { session: 'output-astropy__astropy-12907', messages: 2 },
    ]);
    expect(c).toEqual([{ session: 'reply', messages: 1 }]);
    expect(
      sessions(db)
        .map((s) => s.id)
        .sort(),
    ).toEqual(['demo', 'output-astropy__astropy-12907', 'output-django__django-11099', 'reply']);
  });
});
