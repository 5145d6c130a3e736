import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';

const file = fileURLToPath(new URL('../../../shared/data/tau-bench/gpt-4o-airline.json', import.meta.url));
const present = existsSync(file);
if (!present) console.warn(`skipping tau-bench validate tests: ${file} not found (../shared/data is absent)`);

type Run = { traj: Array<Record<string, unknown>> };

describe.skipIf(!present)('validate(openai) on real tau-bench requests', () => {
  const runs = present ? (JSON.parse(readFileSync(file, 'utf8')) as Run[]) : [];

  it('finds no violation in the 200 runs OpenAI accepted (49 of them reuse call ids)', () => {
    expect(runs.length).toBe(200);
    const withRepeats = runs.filter((r) => {
      const ids = r.traj.flatMap((m) =>
        ((m.tool_calls as Array<{ id: string }> | undefined) ?? []).map((c) => c.id),
      );
      return new Set(ids).size !== ids.length;
    });
    expect(withRepeats.length).toBeGreaterThan(0);
    const violations = runs.flatMap((r) => validate(r.traj, 'openai'));
    expect(violations).toEqual([]);
  });

  it('catches a removed tool message in every run that has one', () => {
    for (const run of runs) {
      const at = run.traj.findIndex((m) => m.role === 'tool');
      if (at === -1) continue;
      const broken = run.traj.filter((_, i) => i !== at);
      expect(validate(broken, 'openai').map((v) => v.rule)).toContain('missing-tool-result');
    }
  });
});
