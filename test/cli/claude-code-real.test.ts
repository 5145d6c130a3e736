/**
 * `condense import` of every real Claude Code session, checked through the CLI against figures
 * read straight from the JSONL (not through the importer): `stats` names the model Claude Code
 * used, its window, the prompt size Anthropic last reported and the compactions Claude Code ran;
 * `context` starts at the latest compact_boundary with Claude Code's own summary and holds
 * exactly the tool calls made after it; export → import → export loses nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import {
  cliAsync,
  DATA_DIR,
  freshDb,
  HAS_DATA,
  json,
  NO_DATA,
  ok,
  tempDir,
  withoutSessionId,
  writeFile,
} from './support.js';

const dir = tempDir();
const CLAUDE = join(DATA_DIR, 'agent-sessions', 'claude-code');
const files = HAS_DATA
  ? readdirSync(CLAUDE)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
  : [];

interface Line {
  type?: string;
  subtype?: string;
  isSidechain?: boolean;
  isCompactSummary?: boolean;
  message?: { id?: string; model?: string; content?: unknown; usage?: Record<string, number> };
}

/** What the file itself says: the final prompt, the model, the requests, the boundaries. */
function truth(file: string) {
  const lines = readFileSync(join(CLAUDE, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.isSidechain !== true);
  const prompt = (u: Record<string, number>) =>
    (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
  const replies = lines.filter(
    (l) => l.type === 'assistant' && l.message?.usage && prompt(l.message.usage) > 0,
  );
  const last = replies.at(-1)!.message!;
  const boundaries = lines.flatMap((l, i) => (l.subtype === 'compact_boundary' ? [i] : []));
  const from = boundaries.at(-1) ?? -1;
  return {
    model: last.model!,
    lastPrompt: prompt(last.usage!),
    // One API response is several lines with the same id and usage: one request each.
    requests: new Set(replies.map((l) => l.message!.id)).size,
    compactions: boundaries.length,
    summary: lines.slice(from + 1).find((l) => l.isCompactSummary)?.message?.content,
    toolIdsInView: new Set(toolUseIds(lines.slice(from + 1).filter((l) => l.type === 'assistant'))),
  };
}

/** Ids of every tool_use block anywhere inside `value`. */
function toolUseIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(toolUseIds);
  if (typeof value !== 'object' || value === null) return [];
  const o = value as Record<string, unknown>;
  const own =
    (o.type === 'tool_use' || o.type === 'server_tool_use') && typeof o.id === 'string' ? [o.id] : [];
  return [...own, ...Object.values(o).flatMap(toolUseIds)];
}

interface Stats {
  model: string;
  contextWindow: number;
  compactions: number;
  lastReported: { promptTokens: number; model: string } | null;
  calibration: { samples: number } | null;
  basis: string;
  estimate: { tokens: number; base: number };
  breakdown: { rows: { key: string; tokens: number }[] };
}

interface AnthropicRequest {
  messages: { role: string; content: { type: string; text?: string }[] }[];
}

describe.skipIf(!HAS_DATA).concurrent('condense import of each real Claude Code session', () => {
  if (!HAS_DATA) console.warn(NO_DATA);

  it.each(files)(
    '%s: stats, context and a round trip show what Claude Code had',
    async (file) => {
      const t = truth(file);
      const db = freshDb(dir);
      const imported = json<{ compactions?: number }[]>(
        ok(await cliAsync(['import', join(CLAUDE, file), '--session', 'cc', '--db', db, '--json'])),
      );
      expect(imported[0]!.compactions ?? 0).toBe(t.compactions);
      // Each CLI start costs about a second of a shared core: the human stats are read on one session.
      const [statsJson, context, exported, human] = (
        await Promise.all([
          cliAsync(['stats', 'cc', '--db', db, '--json']),
          cliAsync(['context', 'cc', '--format', 'anthropic', '--db', db]),
          cliAsync(['export', 'cc', '--db', db]),
          ...(t.compactions > 0 ? [cliAsync(['stats', 'cc', '--db', db])] : []),
        ])
      ).map(ok);
      // After the others, not beside them: a fifth process at once is too many for a loaded machine.
      const opus = human
        ? ok(await cliAsync(['stats', 'cc', '--db', db, '--json', '--model', 'claude-opus-4-6']))
        : null;
      if (opus) {
        // The model of Claude Code's newer sessions, from the catalog: its real window, no warning.
        expect(json<Stats>(opus)).toMatchObject({ model: 'claude-opus-4-6', contextWindow: 1_000_000 });
        expect(opus.stderr).toBe('');
      }

      const s = json<Stats>(statsJson!);
      expect(s).toMatchObject({
        model: t.model,
        contextWindow: 200_000,
        compactions: t.compactions,
        lastReported: { promptTokens: t.lastPrompt, model: t.model },
        calibration: { samples: t.requests },
        basis: 'usage+delta',
      });
      expect(s.estimate.base).toBe(t.lastPrompt);
      // What fills the window adds up to the next-prompt figure; what Claude Code sent but the
      // transcript does not hold (its system prompt and tools) is a row of its own.
      const rows = s.breakdown.rows;
      expect(rows.reduce((sum, r) => sum + r.tokens, 0)).toBe(s.estimate.tokens);
      expect(rows.find((r) => r.key === 'unstored')?.tokens).toBeGreaterThan(10_000);
      if (human) {
        const n = (v: number) => v.toLocaleString('en-US');
        expect(human.stdout).toContain(`model ${t.model}  window 200,000 (from the model catalog)\n`);
        expect(human.stdout).toContain(`compactions ${t.compactions}\n`);
        expect(human.stdout).toContain(`the provider counted ${n(t.lastPrompt)} tokens in the last request`);
        expect(human.stdout).toContain(`next prompt ≈ ${n(s.estimate.tokens)} tokens of 200,000`);
        expect(human.stdout).toMatch(/^ {2}▚ Not in the stored log\s+[\d,]+/m);
      }

      const request = json<AnthropicRequest>(context!);
      expect(validate(request, 'anthropic')).toEqual([]);
      if (t.summary !== undefined) {
        // Claude Code's own summary, sent as it sent it: the first message, a plain user text.
        expect(request.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: t.summary }] });
      }
      // Exactly the calls Claude Code still had in its context: none from before the boundary.
      expect(new Set(toolUseIds(request.messages))).toEqual(t.toolIdsInView);

      const copy = writeFile(dir, `${file}.condense.jsonl`, exported!.stdout);
      ok(await cliAsync(['import', copy, '--session', 'copy', '--db', db]));
      const [reExported, copyStats] = (
        await Promise.all([
          cliAsync(['export', 'copy', '--db', db]),
          cliAsync(['stats', 'copy', '--db', db, '--json']),
        ])
      ).map(ok);
      expect(withoutSessionId(reExported!.stdout)).toEqual(withoutSessionId(exported!.stdout));
      expect({ ...json<Stats>(copyStats!), session: 'cc' }).toEqual(s);
    },
    180_000,
  );
});
