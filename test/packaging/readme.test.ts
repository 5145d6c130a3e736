/**
 * The README's first screen, read as a new user reads it. .ci/pack-smoke runs the hello world and
 * compiles every TypeScript block against the packed tarball; this checks the shape fast.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
const { name } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { name: string };
const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2]! }));

describe('the README first screen', () => {
  it('starts with the install line, then a hello world of at most 10 lines, then the AI SDK', () => {
    expect(blocks[0]).toEqual({ lang: 'sh', code: `npm install ${name}\n` });
    expect(blocks[1]!.lang).toBe('js');
    expect(blocks[1]!.code.trimEnd().split('\n').length).toBeLessThanOrEqual(10);
    // No API key, no model: the memory store and one prepare().
    expect(blocks[1]!.code).toContain(`from '${name}'`);
    expect(blocks[1]!.code).toMatch(/memoryStore\(\)/);
    expect(blocks[1]!.code.match(/\.prepare\(/g)).toHaveLength(1);
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe('With the AI SDK');
  });

  it('says no internal reading ids or issue numbers', () => {
    expect(readme).not.toMatch(/\b[ACX]0\d\d-\d+\b/);
    expect(readme).not.toMatch(/\bissue \d+\b/i);
  });
});
