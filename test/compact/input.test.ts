import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPENDIX_HEADING } from '../../src/compact/appendix.js';
import { HANDOVER_HEADING } from '../../src/compact/handover/index.js';
import {
  buildSummaryRequest,
  fitsWindow,
  PREVIOUS_SUMMARY_HEADING,
  requestTokens,
  requestUserParts,
  SEED_001_FINAL_INSTRUCTION,
  SEED_001_MARKER_TEXT,
  SEED_001_SYSTEM_PROMPT,
  SEED_004_PROMPT,
  SEED_004_SECTIONS,
} from '../../src/compact/input.js';
import { isNothingToCompact, planCompaction } from '../../src/compact/plan.js';
import { assistant, estimator, TestLog, tool, user } from './helpers.js';

const seedsDir = new URL('../../../shared/seeds/', import.meta.url);
const seed = (prefix: string) => {
  const name = readdirSync(seedsDir).find((f) => f.startsWith(prefix))!;
  return readFileSync(new URL(name, seedsDir), 'utf8');
};

describe.skipIf(!existsSync(seedsDir))('seed prompts are verbatim (X-02, X-04, X-05, X-06)', () => {
  it('appear character for character in the seed files, each as a whole fenced block', () => {
    const s001 = seed('001');
    const s004 = seed('004');
    for (const text of [SEED_001_SYSTEM_PROMPT, SEED_001_FINAL_INSTRUCTION, SEED_001_MARKER_TEXT]) {
      expect(s001).toContain(`\`\`\`\n${text}\n\`\`\``);
    }
    expect(s004).toContain(`\`\`\`\n${SEED_004_PROMPT}\n\`\`\``);
    for (const title of SEED_004_SECTIONS)
      expect(SEED_004_PROMPT).toContain(title.replace(' (CRITICAL)', ''));
  });
});

function twoCompactions() {
  const log = new TestLog();
  log.append([user('one'), assistant('a1'), user('two'), assistant('a2'), user('three'), assistant('a3')]);
  const first = planCompaction(log.all);
  if (isNothingToCompact(first)) throw new Error(first.reason);
  const details = { filesRead: [], filesModified: [], lastUserRequest: 'three' };
  // The deterministic block after the text: dropped when the summary is quoted again.
  log.pivot(first, `EARLIER SUMMARY TEXT\n\n${HANDOVER_HEADING}\nCurrent task: three`, details);
  log.append([user('four'), assistant('', tool('bash', { command: 'npm test' }, { exitCode: 1 }))]);
  const second = planCompaction(log.all);
  if (isNothingToCompact(second)) throw new Error(second.reason);
  return second;
}

describe('buildSummaryRequest', () => {
  it('seed 004 prompt by default; seed 001 on request; instructions appended after a blank line', () => {
    const plan = twoCompactions();
    const r4 = buildSummaryRequest(plan);
    expect(r4.system).toBe(SEED_001_SYSTEM_PROMPT);
    expect(r4.prompt).toBe(SEED_004_PROMPT);
    const r1 = buildSummaryRequest(plan, {
      prompt: 'seed-001',
      instructions: '  Focus on the auth module.  ',
    });
    expect(r1.prompt).toBe(`${SEED_001_FINAL_INSTRUCTION}\n\nFocus on the auth module.`);
    expect(r1.instructions).toBe('Focus on the auth module.');
  });

  it('carries the previous summary (without its appendix) and the transcript of the span', () => {
    const plan = twoCompactions();
    const r = buildSummaryRequest(plan, { estimator });
    expect(r.previousSummary).toBe('EARLIER SUMMARY TEXT');
    expect(r.transcript).toBe('User: two\n\nAssistant: a2');
    expect(r.blocks).toEqual(['User: two', 'Assistant: a2']);
    const [material, prompt] = requestUserParts(r);
    expect(material.startsWith(`${PREVIOUS_SUMMARY_HEADING}\nEARLIER SUMMARY TEXT`)).toBe(true);
    expect(material).toContain('User: two');
    expect(prompt).toBe(SEED_004_PROMPT);
    expect(r.tokens).toBe(requestTokens(r, estimator));
  });

  it('a previous summary loses the appendix earlier versions wrote too', () => {
    const log = new TestLog();
    log.append([user('one'), assistant('a1'), user('two'), assistant('a2'), user('three'), assistant('a3')]);
    const first = planCompaction(log.all);
    if (isNothingToCompact(first)) throw new Error(first.reason);
    log.pivot(first, `OLD SUMMARY\n\n${APPENDIX_HEADING}\nFiles read: a.ts`, {
      filesRead: [],
      filesModified: [],
    });
    log.append([user('four'), assistant('a4')]);
    const second = planCompaction(log.all);
    if (isNothingToCompact(second)) throw new Error(second.reason);
    expect(buildSummaryRequest(second).previousSummary).toBe('OLD SUMMARY');
  });

  it('seed 001 marker question ends the transcript when asked (X-02)', () => {
    const r = buildSummaryRequest(twoCompactions(), { prompt: 'seed-001', markerQuestion: true });
    expect(r.blocks.at(-1)).toBe(`User: ${SEED_001_MARKER_TEXT}`);
    expect(buildSummaryRequest(twoCompactions()).transcript).not.toContain(SEED_001_MARKER_TEXT);
  });

  it('fitsWindow counts system, material, prompt and the reserved output', () => {
    const r = buildSummaryRequest(twoCompactions());
    const tokens = requestTokens(r, estimator);
    expect(fitsWindow(r, tokens, estimator)).toBe(true);
    expect(fitsWindow(r, tokens - 1, estimator)).toBe(false);
    expect(fitsWindow(r, tokens + 100, estimator, 101)).toBe(false);
  });
});
