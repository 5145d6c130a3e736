import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { type EvalReport, runEval } from '../../src/eval/run.js';
import { cli, DATA_DIR, HAS_DATA, json, NO_DATA } from '../cli/support.js';

/**
 * The evaluation's thresholds, checked on the full run (a few seconds): the same run as
 * `npm run eval`, whose figures the README quotes.
 */
describe.skipIf(!HAS_DATA)('the evaluation harness', () => {
  if (!HAS_DATA) console.warn(NO_DATA);
  let report: EvalReport;

  it('runs every part on the real data', async () => {
    report = await runEval({ data: DATA_DIR });
    expect(report.locomo.conversations).toBe(10);
    expect(new Set(report.locomo.rows.map((r) => r.layout)).size).toBe(3);
    expect(report.sessions.count).toBe(8);
    expect(report.planted.rows.condense).toHaveLength(8);
    expect(report.estimate.requests).toBeGreaterThan(200);
  }, 120_000);

  it('LoCoMo, every layout: at 25% twice the evidence of the newest tail and 1.5x its answers, at 50% no less, within budget', () => {
    const { rows } = report.locomo;
    for (const layout of ['names', 'dated', 'openai-json'] as const) {
      const row = (s: string, share: number) =>
        rows.find((r) => r.strategy === s && r.share === share && r.layout === layout)!;
      expect(row('condense', 0.25).evidence, layout).toBeGreaterThanOrEqual(
        2 * row('newest-tail', 0.25).evidence,
      );
      expect(row('condense', 0.25).answers, layout).toBeGreaterThanOrEqual(
        1.5 * row('newest-tail', 0.25).answers,
      );
      expect(row('condense', 0.5).evidence, layout).toBeGreaterThanOrEqual(row('newest-tail', 0.5).evidence);
    }
    // Every context, counted with the o200k tokenizer, within the budget it was given.
    for (const r of rows.filter((x) => x.strategy === 'condense'))
      expect(r.worst, r.layout).toBeLessThanOrEqual(1);
    // Not an artefact of the fitted weights: the conversations they were not fitted on agree.
    const held = (s: string) => report.locomo.heldOut.find((r) => r.strategy === s)!.evidence;
    expect(held('condense')).toBeGreaterThanOrEqual(2 * held('newest-tail'));
  });

  it('real sessions: every file and request named, the latest request right, no fixed failure open', () => {
    const c = report.sessions.rows.find((r) => r.strategy === 'condense')!;
    const all = ([hit, total]: [number, number]) => hit === total && total > 0;
    expect(all(c.files), `files ${c.files}`).toBe(true);
    expect(all(c.requests), `requests ${c.requests}`).toBe(true);
    expect(all(c.latest), `latest ${c.latest}`).toBe(true);
    expect(all(c.openFailures), `open failures ${c.openFailures}`).toBe(true);
    expect(c.fixedListedOpen).toBe(0);
    expect(c.tokens).toBeLessThanOrEqual(c.budget);
  });

  it('planted facts: all present after each of 8 compactions', () => {
    for (const row of report.planted.rows.condense!)
      expect(row.missing, `after ${row.compactions}`).toEqual([]);
    expect(report.checks.filter((c) => !c.pass)).toEqual([]);
  });

  it('condense eval prints the tables, or the report as JSON, and exits 0 when every threshold holds', () => {
    const text = cli(['eval'], 120_000);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^layout +strategy +25%: evidence +answers +used/m);
    expect(text.stdout).toMatch(/^PASS +real sessions: every file named/m);
    const r = json<EvalReport>(cli(['eval', '--json', '--conversations', '1'], 120_000));
    expect(r.checks.length).toBeGreaterThan(5);
  }, 240_000);

  it('with an LLM summarizer, adds its rows beside the extractive ones (the model mocked)', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: 'text', text: 'The user asked for a fix; it was made and tested.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        },
        warnings: [],
      },
    });
    const r = await runEval({ data: DATA_DIR, conversations: 1, llm: { model, label: 'mock' } });
    expect(r.locomo.rows.map((x) => x.strategy)).toContain('condense (mock)');
    expect(r.sessions.rows.map((x) => x.strategy)).toContain('condense (mock)');
    expect(r.planted.rows['condense (mock)']).toBeDefined();
    expect(model.doGenerateCalls.length).toBeGreaterThan(10);
    // The deterministic appendix keeps the real sessions' files whatever the model wrote.
    const llm = r.sessions.rows.find((x) => x.strategy === 'condense (mock)')!;
    expect(llm.files[0]).toBe(llm.files[1]);
  }, 120_000);

  it('missing data is an error, not a pass', async () => {
    await expect(runEval({ data: '/nonexistent' })).rejects.toThrow(/missing/);
    const run = cli(['eval', '--data', '/nonexistent'], 60_000);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/LoCoMo data .* is missing/);
  });
});
