import { describe, expect, it } from 'vitest';
import {
  PRUNED_OUTPUT_PLACEHOLDER,
  renderBlocks,
  renderTranscript,
  shortenMiddle,
  toolLine,
} from '../../src/compact/transcript.js';
import type { Message } from '../../src/model/message.js';
import type { ToolPart } from '../../src/model/parts.js';
import { assistant, entries, failedTool, marker, tool, user } from './helpers.js';

describe('shortenMiddle', () => {
  it('keeps head and tail and says how much was left out', () => {
    const text = `${'a'.repeat(500)}MIDDLE${'z'.repeat(500)}`;
    const short = shortenMiddle(text, 100);
    expect(short.startsWith('a'.repeat(50))).toBe(true);
    expect(short.endsWith('z'.repeat(50))).toBe(true);
    expect(short).not.toContain('MIDDLE');
    expect(short).toContain('[906 chars omitted]');
    expect(shortenMiddle('short', 100)).toBe('short');
  });
});

describe('transcript of entries to summarize', () => {
  it('roles and tool calls as readable lines; exit codes shown', () => {
    const run: ToolPart = tool(
      'bash',
      { command: 'npm test' },
      { output: 'FAIL src/a.test.ts', exitCode: 1 },
    );
    const text = renderTranscript(entries([user('Fix the tests'), assistant('Running them', run)]));
    expect(text).toBe(
      'User: Fix the tests\n\nAssistant: Running them\n[tool bash] {"command":"npm test"} → (exit 1) {"output":"FAIL src/a.test.ts","exitCode":1}',
    );
  });

  it('shortens a 1.5M-character tool output head + tail (TESTING.md items 3, 10)', () => {
    const huge = `HEAD-${'x'.repeat(1_500_000)}-TAIL`;
    const line = toolLine(tool('bash', { command: 'cat big.log' }, huge), { toolOutputChars: 800 });
    expect(line.length).toBeLessThan(1_000);
    expect(line).toContain('HEAD-');
    expect(line).toContain('-TAIL');
    expect(line).toMatch(/\[\d+ chars omitted\]/);
  });

  it('replaces media by placeholders, never base64', () => {
    const data = 'iVBORw0KGgo'.repeat(10_000);
    const msgs: Message[] = [
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'look' },
          { type: 'file', mediaType: 'image/png', data, filename: 'screen.png' },
          { type: 'file', mediaType: 'application/pdf', url: 'https://x.test/docs/spec.pdf?v=2' },
        ],
      },
      assistant('', {
        ...tool('screenshot', {}, 'taken'),
        attachments: [{ type: 'file', mediaType: 'image/jpeg', data, filename: 'shot.jpg' }],
      } as ToolPart),
    ];
    const text = renderTranscript(entries(msgs));
    expect(text).toContain('[image: screen.png]');
    expect(text).toContain('[file: spec.pdf (application/pdf)]');
    expect(text).toContain('[image: shot.jpg]');
    expect(text).not.toContain('iVBORw0KGgo');
  });

  it('omits reasoning and markers; pruned outputs become the placeholder', () => {
    const pruned = { ...tool('read', { path: 'a.ts' }, 'SECRET CONTENT'), compactedAt: 1 } as ToolPart;
    const msgs: Message[] = [
      user('q'),
      { role: 'assistant', parts: [{ type: 'reasoning', text: 'THINKING HARD' }, pruned] },
      marker('focus'),
    ];
    const blocks = renderBlocks(entries(msgs));
    expect(blocks).toHaveLength(2); // the marker-only message gives no block
    expect(blocks.join()).not.toContain('THINKING HARD');
    expect(blocks.join()).not.toContain('SECRET CONTENT');
    expect(blocks[1]).toContain(PRUNED_OUTPUT_PLACEHOLDER);
  });

  it('errors and interrupted calls are visible', () => {
    const pending: ToolPart = {
      type: 'tool',
      callId: 'p',
      name: 'bash',
      input: { command: 'sleep 99' },
      state: 'pending',
    };
    const text = renderTranscript(
      entries([assistant('', failedTool('edit', { path: 'x' }, 'no match'), pending)]),
    );
    expect(text).toContain('→ (error) no match');
    expect(text).toContain('(no result: the call was interrupted)');
  });
});
