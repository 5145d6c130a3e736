import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { homeOf, inferCwd, normalizePath } from '../../src/compact/path-normal.js';
import { looksLikePath, shellFiles } from '../../src/compact/paths.js';

describe('one spelling per file', () => {
  const base = { cwd: '/Users/ann/repo', home: homeOf('/Users/ann/repo') };

  it.each([
    ['/Users/ann/repo/src/a.ts', 'src/a.ts'],
    ['src/a.ts', 'src/a.ts'],
    ['./src//a.ts', 'src/a.ts'],
    ['/Users/ann/repo/docs/', 'docs'],
    ['/Users/ann/.claude/history.jsonl', '~/.claude/history.jsonl'],
    ['~/.claude/', '~/.claude'],
    ['/etc/hosts', '/etc/hosts'],
    ['/Users/ann/repository/x.ts', '~/repository/x.ts'],
  ])('%s → %s', (raw, spelled) => {
    expect(normalizePath(raw, base)).toBe(spelled);
  });

  it('is idempotent and never changes a path outside the working directory and home', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(\/[a-z]{1,4}){1,4}(\.[a-z]{1,3})?$/), (p) => {
        const once = normalizePath(p, base);
        expect(normalizePath(once, base)).toBe(once);
        if (!p.startsWith('/Users/ann')) expect(once).toBe(p);
      }),
    );
  });

  it('infers the working directory from an absolute and a relative spelling of one file', () => {
    expect(inferCwd(['/r/app/src/a.ts', 'src/a.ts', 'README.md'])).toBe('/r/app');
    expect(inferCwd(['/r/app/src/a.ts', '/r/app/src/b.ts'])).toBeUndefined();
  });
});

describe('only real paths', () => {
  it.each([
    ['git diff master..HEAD -- src/a.ts', ['src/a.ts']],
    ['git checkout -b feat/session-lifecycle', []],
    ['git log --oneline src/a.ts', ['src/a.ts']],
    ['mix ash.codegen add_users', []],
    ['jq .type events.json', ['events.json']],
    ["jq -r '.project' ~/.claude/history.jsonl", ['~/.claude/history.jsonl']],
    ['grep -n handler.ts src/server.ts', ['src/server.ts']],
    ['rg -e TODO -e FIXME src/app.ts', ['src/app.ts']],
    ["sed -n '1,80p' src/app.ts", ['src/app.ts']],
    ['cat "docs/My Notes.md"', ['docs/My Notes.md']],
    ['node scripts/build.js --out dist/app.js', ['scripts/build.js', 'dist/app.js']],
    ['npm run build', []],
  ])('%s reads %j', (command, read) => {
    expect(shellFiles(command).read).toEqual(read);
  });

  it('rejects ranges, filters, flags, globs and URLs as paths', () => {
    for (const t of ['main..HEAD', 'a...b', '.type', '-rf', 'src/*.ts', 'https://x.io/a.js', '1.2.3'])
      expect(looksLikePath(t), t).toBe(false);
    for (const t of ['../lib/a.ts', 'src/a.ts', '.env', 'README.md', '/etc/hosts'])
      expect(looksLikePath(t), t).toBe(true);
  });
});
