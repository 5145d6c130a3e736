import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ImportedSession, parseTranscript } from '../../src/import/index.js';
import type { ToolPart } from '../../src/model/parts.js';
import { parseMessage } from '../../src/model/validate.js';
import { DATA_DIR, dataFiles, dataPath, HAS_DATA, NO_DATA_REASON, readText } from './data.js';

/** The fields of the raw files the tests count independently of the importers. */
interface Block {
  type: string;
  is_error?: boolean;
  signature?: string;
}
interface ClaudeLine {
  type: string;
  isSidechain?: boolean;
  message: { id: string; usage: unknown; content: string | Block[] };
}
interface CodexLine {
  type: string;
  payload: {
    type: string;
    id?: string;
    base_instructions?: { text: string };
    info?: { last_token_usage: unknown } | null;
  };
}
interface GeminiFile {
  sessionId: string;
  messages: { type: string; toolCalls?: unknown[] | null; tokens?: unknown }[];
}
interface ChatItem {
  role: string;
  content: unknown;
  tool_calls?: unknown[];
}

function toolParts(session: ImportedSession): ToolPart[] {
  return session.messages.flatMap((m) => m.message.parts.filter((p): p is ToolPart => p.type === 'tool'));
}

/** The invariants every imported session keeps, whatever its source. */
function checkSession(session: ImportedSession): void {
  const last = session.messages.length - 1;
  session.messages.forEach((m, i) => {
    expect(() => parseMessage(m.message)).not.toThrow();
    for (const p of m.message.parts) {
      if (p.type !== 'tool') continue;
      // Only a call in the very last message may still be in flight.
      if (i !== last) expect(['completed', 'error']).toContain(p.state);
      else expect(['completed', 'error', 'pending']).toContain(p.state);
    }
  });
}

function single(text: string, file: string): ImportedSession {
  const parsed = parseTranscript(text, { file });
  expect(Array.isArray(parsed)).toBe(false);
  return parsed as ImportedSession;
}

function jsonl<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

describe.skipIf(!HAS_DATA)(`real transcripts in ${DATA_DIR}`, () => {
  if (!HAS_DATA) it.skip(NO_DATA_REASON, () => {});

  const claudeFiles = dataFiles('agent-sessions/claude-code', ['.jsonl']);
  it.each(claudeFiles.map((f) => [basename(f), f]))('Claude Code %s', (_name, file) => {
    const text = readText(file);
    const session = single(text, file);
    expect(session.format).toBe('claude-code');
    checkSession(session);
    const lines = jsonl<ClaudeLine>(text).filter((l) => l.isSidechain !== true);
    const assistant = lines.filter((l) => l.type === 'assistant');
    const blocks = (type: string, role: string) =>
      lines
        .flatMap((l) => (l.type === role && Array.isArray(l.message.content) ? l.message.content : []))
        .filter((b) => b.type === type);
    const tools = toolParts(session);
    expect(tools.length).toBe(blocks('tool_use', 'assistant').length);
    const results = blocks('tool_result', 'user');
    expect(tools.filter((t) => t.state === 'error').length).toBe(
      results.filter((r) => r.is_error === true).length,
    );
    expect(tools.filter((t) => t.state === 'completed').length).toBe(
      results.filter((r) => r.is_error !== true).length,
    );
    // Streamed lines of one response are one message, carrying the last line's usage.
    const responses = new Map<string, unknown>(assistant.map((l) => [l.message.id, l.message.usage]));
    const imported = session.messages.filter((m) => m.message.role === 'assistant');
    expect(imported.length).toBe(responses.size);
    expect(imported.map((m) => m.usage)).toEqual([...responses.values()]);
    // Thinking signatures survive byte for byte.
    const signatures = blocks('thinking', 'assistant').map((b) => b.signature);
    const kept = imported.flatMap((m) =>
      m.message.parts.flatMap((p) =>
        p.type === 'reasoning'
          ? [(p.providerMetadata?.anthropic as { signature?: string } | undefined)?.signature]
          : [],
      ),
    );
    expect(kept).toEqual(signatures);
  });

  it('makes the compact_boundary and its summary one compaction between the right messages', () => {
    const file = dataPath('agent-sessions/claude-code/session-624a4a58.jsonl');
    const session = single(readText(file), file);
    expect(session.messages.some((m) => m.message.metadata?.summary === true)).toBe(false);
    expect(session.compactions).toHaveLength(1);
    const c = session.compactions![0]!;
    expect(c).toMatchObject({ auto: true, tokensBefore: 155979 });
    expect(c.summary).toMatch(/^This session is being continued from a previous conversation/);
    // The boundary sits between the last reply before it and the first reply after it.
    const before = session.messages[c.at - 1]!;
    const after = session.messages[c.at]!;
    expect(before.createdAt!).toBeLessThan(Date.parse('2026-01-07T20:58:27.907Z'));
    expect(after.createdAt!).toBeGreaterThan(Date.parse('2026-01-07T20:58:27.907Z'));
    expect(c.createdAt).toBe(Date.parse('2026-01-07T20:58:27.907Z'));
  });

  const codexFiles = dataFiles('agent-sessions/codex', ['.jsonl']);
  it.each(codexFiles.map((f) => [basename(f), f]))('Codex %s', (_name, file) => {
    const text = readText(file);
    const session = single(text, file);
    expect(session.format).toBe('codex');
    checkSession(session);
    const lines = jsonl<CodexLine>(text);
    const items = lines.filter((l) => l.type === 'response_item').map((l) => l.payload);
    const calls = items.filter((p) =>
      ['function_call', 'custom_tool_call', 'web_search_call', 'local_shell_call'].includes(p.type),
    );
    expect(toolParts(session).length).toBe(calls.length);
    const meta = lines.find((l) => l.type === 'session_meta')!.payload;
    expect(session.sessionId).toBe(meta.id);
    expect(session.system).toBe(meta.base_instructions?.text);
    const counts = lines.filter((l) => l.payload.type === 'token_count' && l.payload.info);
    const withUsage = session.messages.filter((m) => m.usage !== undefined);
    expect(withUsage.length).toBe(counts.length);
    for (const m of withUsage) expect(m.message.role).toBe('assistant');
    expect(withUsage.map((m) => m.usage)).toEqual(counts.map((l) => l.payload.info?.last_token_usage));
  });

  const geminiFiles = dataFiles('agent-sessions/gemini-cli', ['.json']);
  it.each(geminiFiles.map((f) => [basename(f), f]))('Gemini CLI %s', (_name, file) => {
    const text = readText(file);
    const session = single(text, file);
    expect(session.format).toBe('gemini-cli');
    checkSession(session);
    const raw = JSON.parse(text) as GeminiFile;
    const calls = raw.messages.flatMap((m) => m.toolCalls ?? []);
    expect(toolParts(session).length).toBe(calls.length);
    expect(session.messages.length).toBe(
      raw.messages.filter((m) => ['user', 'gemini'].includes(m.type)).length,
    );
    expect(session.messages.filter((m) => m.usage !== undefined).length).toBe(
      raw.messages.filter((m) => m.tokens).length,
    );
    expect(session.sessionId).toBe(raw.sessionId);
  });

  it('tau-bench: 200 runs, every call answered in order even where ids repeat', () => {
    const file = dataPath('tau-bench/gpt-4o-airline.json');
    const text = readText(file);
    const parsed = parseTranscript(text, { file });
    expect(Array.isArray(parsed)).toBe(true);
    const sessions = parsed as ImportedSession[];
    const runs = JSON.parse(text) as { traj: ChatItem[] }[];
    expect(sessions).toHaveLength(200);
    sessions.forEach((session, i) => {
      checkSession(session);
      const traj = runs[i]!.traj;
      expect(session.system).toBe(traj[0]!.content);
      const tools = toolParts(session);
      expect(tools.length).toBe(traj.flatMap((m) => m.tool_calls ?? []).length);
      // Outputs in order equal the tool messages in order: pairing followed the order of the run.
      const outputs = tools.flatMap((t) => (t.state === 'completed' ? [t.output] : []));
      expect(outputs).toEqual(traj.filter((m) => m.role === 'tool').map((m) => m.content));
    });
    expect(sessions.filter((s) => s.warnings.some((w) => w.includes('repeats'))).length).toBeGreaterThan(0);
  });

  const trajFiles = dataFiles('swe-agent/trajectories', ['.traj']);
  it.each(trajFiles.map((f) => [f.slice(f.indexOf('demonstrations')), f]))('SWE-agent %s', (_name, file) => {
    const text = readText(file);
    const session = single(text, file);
    expect(session.format).toBe('swe-agent');
    checkSession(session);
    const history = (JSON.parse(text) as { history: ChatItem[] }).history;
    const calls = history.flatMap((m) => m.tool_calls ?? []);
    const tools = toolParts(session);
    expect(tools.length).toBe(calls.length);
    if (calls.length === 0) {
      // Plain-text runs: one text message per history item after the leading system prompt.
      expect(session.messages.length).toBe(history.length - 1);
    } else {
      const observations = history.filter((m) => m.role === 'tool').length;
      expect(tools.filter((t) => t.state === 'completed').length).toBe(observations);
    }
  });

  it('found the expected files', () => {
    expect(claudeFiles.length).toBe(4);
    expect(codexFiles.length).toBe(2);
    expect(geminiFiles.length).toBe(2);
    expect(trajFiles.length).toBeGreaterThanOrEqual(19);
    expect(trajFiles.filter((f) => readText(f).includes('"tool_call_ids"')).length).toBe(4);
  });
});
