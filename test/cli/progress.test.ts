import { describe, expect, it } from 'vitest';
import { clip, fitToWidth } from '../../src/cli/cmd-search.js';
import { progress, progressText } from '../../src/cli/progress.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (t: string) => writes.push(t) };
}

describe('progress on a terminal', () => {
  it('redraws one line in place, at most ten times a second, and clears it when done', () => {
    const out = stream(true);
    let t = 0;
    const p = progress(out, () => t);
    p.update('reading 1%');
    p.update('reading 2%'); // same instant: skipped
    t = 150;
    p.update('reading 50%');
    p.done();
    expect(out.writes).toEqual(['\r\x1b[Kreading 1%', '\r\x1b[Kreading 50%', '\r\x1b[K']);
  });

  it('writes nothing at all when the output is not a terminal', () => {
    const out = stream(false);
    const p = progress(out, () => 0);
    p.update('reading');
    p.done();
    expect(out.writes).toEqual([]);
  });

  it('says how far, of how much', () => {
    expect(progressText('compacting s: reading', 450_000, 1_000_000)).toBe(
      'compacting s: reading 45% (450,000 of 1,000,000 entries)',
    );
    expect(progressText('reading', 10, 0)).toBe('reading (10 entries)');
  });
});

describe('search rows', () => {
  it('fit the terminal: each line cut to its width with an ellipsis', () => {
    const long = `s  1  assistant  ${'word '.repeat(60)}`;
    const fitted = fitToWidth(`session  seq\n${long}`, 80).split('\n');
    expect(fitted[0]).toBe('session  seq');
    expect(fitted[1]).toHaveLength(80);
    expect(fitted[1]!.endsWith('…')).toBe(true);
    expect(clip('session-with-a-very-long-name-indeed', 10)).toBe('session-w…');
  });
});
