/**
 * Minimal reader of Claude Code session lines for calibration tests (the full importer lives in
 * src/import). It turns a session into the sequence an agent would see: messages appended to
 * the log (with their raw estimate) and model calls (with the provider's reported usage).
 *
 * Claude Code writes one line per streamed content block, repeating the message id and usage on
 * each, so lines are merged by message id; the call happened when the first line of an id
 * appeared, with everything before it as the prompt. A `compact_boundary` line starts a new view.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { JsonValue } from '../../src/model/json.js';
import type { Message } from '../../src/model/message.js';
import type { Usage } from '../../src/model/session.js';
import type { Estimator } from '../../src/tokens/estimator.js';
import { normalizeUsage } from '../../src/tokens/usage.js';

export const DATA_DIR = new URL('../../../shared/data/agent-sessions/claude-code/', import.meta.url);

export type ReplayEvent =
  | { kind: 'message'; raw: number }
  | { kind: 'call'; usage: Usage; model: string }
  | { kind: 'compact' };

interface Block {
  type: string;
  text?: string;
  thinking?: string;
  name?: string;
  input?: unknown;
  content?: string | { type: string; text?: string }[];
}

interface Line {
  type?: string;
  subtype?: string;
  message?: { id?: string; model?: string; content?: string | Block[]; usage?: unknown };
}

export function claudeCodeSessions(): string[] {
  if (!existsSync(DATA_DIR)) return [];
  return readdirSync(DATA_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => new URL(f, DATA_DIR).pathname);
}

function resultText(b: Block): string {
  if (typeof b.content === 'string') return b.content;
  return (b.content ?? []).map((c) => c.text ?? '').join('\n');
}

/** The blocks of one API message as condense parts (tool results as text: same cost). */
function toMessage(role: 'user' | 'assistant', blocks: Block[]): Message {
  if (role === 'user') {
    return {
      role,
      parts: blocks.map((b) => ({
        type: 'text' as const,
        text: b.type === 'tool_result' ? resultText(b) : (b.text ?? ''),
      })),
    };
  }
  return {
    role,
    parts: blocks.map((b, i) => {
      if (b.type === 'thinking') return { type: 'reasoning' as const, text: b.thinking ?? '' };
      if (b.type === 'tool_use') {
        return {
          type: 'tool' as const,
          state: 'pending' as const,
          callId: `c${i}`,
          name: b.name ?? 'tool',
          input: (b.input ?? {}) as JsonValue,
        };
      }
      return { type: 'text' as const, text: b.text ?? '' };
    }),
  };
}

export function replayClaudeCode(file: string, estimator: Estimator): ReplayEvent[] {
  const events: ReplayEvent[] = [];
  let pending: { id: string; blocks: Block[] } | undefined;
  const called = new Set<string>();
  const flush = () => {
    if (pending)
      events.push({ kind: 'message', raw: estimator.message(toMessage('assistant', pending.blocks)) });
    pending = undefined;
  };
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (!text.trim()) continue;
    const line = JSON.parse(text) as Line;
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      flush();
      events.push({ kind: 'compact' });
      continue;
    }
    const m = line.message;
    if (!m || (line.type !== 'user' && line.type !== 'assistant')) continue;
    const blocks: Block[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []);
    if (line.type === 'assistant' && m.id) {
      if (pending?.id === m.id) {
        pending.blocks.push(...blocks);
        continue;
      }
      flush();
      // An id seen before was interrupted by a user line: more of the same reply, not a new call.
      if (!called.has(m.id))
        events.push({ kind: 'call', usage: normalizeUsage(line), model: m.model ?? 'unknown' });
      called.add(m.id);
      pending = { id: m.id, blocks: [...blocks] };
      continue;
    }
    flush();
    events.push({ kind: 'message', raw: estimator.message(toMessage('user', blocks)) });
  }
  flush();
  return events;
}
