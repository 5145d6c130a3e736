import { describe, expect, it } from 'vitest';
import { bigToolChat, cli, freshDb, json, ok, sessions, tempDir, writeFile } from './support.js';

const dir = tempDir();

interface PruneReport {
  dryRun: boolean;
  parts: number;
  tokensSaved: number;
  reason: string;
  marks: { entryId: string; partIndex: number; tokens: number }[];
}

describe('condense prune', () => {
  it('dry-run reports and writes nothing; a real run marks the same parts; a second run finds nothing', () => {
    const db = freshDb(dir);
    // 10 turns reading a ~10,000-token file each: defaults protect ~40,000 tokens and 2 turns.
    ok(cli(['import', writeFile(dir, 'big.json', bigToolChat(10, 3000)), '--session', 'big', '--db', db]));
    const before = sessions(db)[0]!;

    const dry = json<PruneReport>(ok(cli(['prune', 'big', '--dry-run', '--db', db, '--json'])));
    expect(dry.dryRun).toBe(true);
    expect(dry.parts).toBeGreaterThanOrEqual(3);
    expect(dry.marks).toHaveLength(dry.parts);
    expect(dry.tokensSaved).toBeGreaterThan(20_000); // above the default minimum, so it would act
    expect(sessions(db)[0]).toEqual(before);

    // Had the dry run written its marks, this run would stop at them and find nothing.
    const real = ok(cli(['prune', 'big', '--db', db]));
    expect(real.stdout).toMatch(new RegExp(`^cleared ${dry.parts} tool outputs, \\d+ tokens`));
    for (const m of dry.marks) expect(real.stdout).toContain(`${m.entryId} part ${m.partIndex}`);
    const after = sessions(db)[0]!;
    expect(after.entryCount).toBe(before.entryCount);
    // The placeholder still costs a few tokens, so the saving is a little under the dry run's figure.
    expect(before.activeTokens - after.activeTokens).toBeGreaterThan(dry.tokensSaved * 0.95);
    expect(before.activeTokens - after.activeTokens).toBeLessThanOrEqual(dry.tokensSaved);

    const again = json<PruneReport>(ok(cli(['prune', 'big', '--db', db, '--json'])));
    expect(again).toMatchObject({ dryRun: false, parts: 0, tokensSaved: 0, marks: [] });
    expect(again.reason).toMatch(/stopped at marked part/);
  });
});
