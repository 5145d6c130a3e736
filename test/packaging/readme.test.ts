/**
 * The README's first screen, read as a new user reads it. .ci/pack-smoke runs the hello world and
 * compiles every TypeScript block against the packed tarball; this checks the shape fast.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OLD_NAME_IMPORT } from './old-name.js';

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

describe('the package name', () => {
  it('is one the registry does not give to someone else, and the command stays condense', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(name).not.toBe('condense');
    expect(Object.keys(pkg.bin)).toEqual(['condense']);
  });

  it("no 'condense' import is left in the README or the examples", () => {
    expect(readme).not.toMatch(OLD_NAME_IMPORT);
    const examples = readdirSync(new URL('examples/', ROOT)).filter((f) => f.endsWith('.ts'));
    expect(examples.length).toBeGreaterThan(0);
    for (const file of examples) {
      expect(readFileSync(new URL(`examples/${file}`, ROOT), 'utf8'), file).not.toMatch(OLD_NAME_IMPORT);
    }
    // The check can fail: it sees the old name where it is.
    expect("import { openSession } from 'condense';").toMatch(OLD_NAME_IMPORT);
    expect("from 'condense/sqlite'").toMatch(OLD_NAME_IMPORT);
    expect(`from '${name}/sqlite'`).not.toMatch(OLD_NAME_IMPORT);
  });
});
