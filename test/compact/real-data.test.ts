import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { summarizeExtractive } from '../../src/compact/extractive.js';
import { buildSummaryRequest } from '../../src/compact/input.js';
import { isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import { activeWindow, isMarkerOnly } from '../../src/compact/turns.js';
import { parseTranscript } from '../../src/import/index.js';
import { isMessageEntry, type MessageEntry } from '../../src/model/entry.js';
import { explicitFiles, sessionCwd, spellings } from '../e2e/support.js';
import { estimator, TestLog } from './helpers.js';

const DATA = fileURLToPath(new URL('../../../shared/data/agent-sessions/', import.meta.url));
const files = existsSync(DATA)
  ? ['claude-code', 'codex', 'gemini-cli'].flatMap((d) =>
      existsSync(join(DATA, d)) ? readdirSync(join(DATA, d)).map((f) => join(DATA, d, f)) : [],
    )
  : [];

/** Tokens of what the model sees: the latest summary plus every message entry of the window. */
function viewTokens(log: TestLog): number {
  return activeWindow(log.all).reduce((a, e) => a + (isMessageEntry(e) && isMarkerOnly(e) ? 0 : e.tokens), 0);
}

describe.skipIf(files.length === 0)(`real agent sessions compacted repeatedly (${DATA})`, () => {
  it.each(files.map((f) => [f.split('/').slice(-2).join('/'), f]))('%s', (_name, file) => {
    const parsed = parseTranscript(readFileSync(file, 'utf8'), { file });
    const session = Array.isArray(parsed) ? parsed[0]! : parsed;
    const messages = session.messages.map((m) => m.message);
    const log = new TestLog();
    const summarized: string[] = [];
    let compactions = 0;
    let lastSummary = '';
    let lastDetails: { filesRead: string[]; filesModified: string[] } = { filesRead: [], filesModified: [] };
    const summarizedFiles = new Set<string>();
    const total = messages.reduce((a, m) => a + estimator.message(m), 0);
    // A window small against the session, to force several compactions.
    const window = Math.max(1_500, Math.min(12_000, Math.floor(total / 4)));
    const keepTokens = Math.floor(window / 3);
    for (const message of messages) {
      log.append([message]);
      if (viewTokens(log) <= window) continue;
      const plan = planCompaction(log.all, { keepTokens });
      if (isNothingToCompact(plan)) continue;
      const started = performance.now();
      const result = summarizeExtractive(buildSummaryRequest(plan), 4_000, estimator);
      expect(performance.now() - started).toBeLessThan(1_000);
      for (const e of plan.toSummarize) expect(summarized).not.toContain(e.id);
      summarized.push(...plan.toSummarize.map((e) => e.id));
      // Files the tools named in explicit file fields: files for certain (folders are no files).
      for (const e of plan.toSummarize)
        for (const p of e.message.parts)
          if (p.type === 'tool') for (const f of explicitFiles(p)) summarizedFiles.add(f);
      log.pivot(plan, result.text, result.details, 'extractive');
      lastSummary = result.text;
      lastDetails = result.details;
      if (process.env.SHOW_SUMMARY && file.includes(process.env.SHOW_SUMMARY)) console.log(result.text);
      compactions++;
    }
    expect(compactions).toBeGreaterThan(0);
    if (process.env.SHOW)
      console.log(file, { messages: messages.length, total, compactions, files: summarizedFiles.size });
    // Summarized ∪ kept = every message entry, no gap, no duplicate.
    const all = log.all.filter(isMessageEntry).filter((e: MessageEntry) => !isMarkerOnly(e));
    const visible = activeWindow(log.all)
      .filter(isMessageEntry)
      .filter((e) => !isMarkerOnly(e));
    const covered = [...summarized, ...visible.map((e) => e.id)];
    expect(covered.sort()).toEqual(all.map((e) => e.id).sort());
    // The latest pivot carries every file the summarized history read or modified, in one
    // spelling (relative to the working directory where it lies inside it); the summary names
    // each of them, unless it says that files were left out for lack of room.
    const cwd = sessionCwd(messages);
    const carried = new Set([...lastDetails.filesRead, ...lastDetails.filesModified]);
    const cut =
      /Left out for lack of room: [^)]*\d+ files|Left out for lack of room: the session's history/.test(
        lastSummary,
      );
    for (const path of summarizedFiles) {
      expect(
        spellings(path, cwd).some((s) => carried.has(s)),
        path,
      ).toBe(true);
      if (!cut)
        expect(
          spellings(path, cwd).some((s) => lastSummary.includes(s)),
          path,
        ).toBe(true);
    }
  });
});
