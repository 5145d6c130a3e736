import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
const SOURCES = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: f, text: readFileSync(join(ROOT, 'src', f), 'utf8') }));

/** `name` declared in `text` as a function, class, constant, or a method or accessor of a class. */
function declares(text: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  return new RegExp(
    `(?:function\\*?\\s+${n}\\b|class\\s+${n}\\b|const\\s+${n}\\s*[=:]|^\\s+(?:(?:static|async|private|readonly|get|override)\\s+)*${n}\\s*[<(])`,
    'm',
  ).test(text);
}

/** The functions the page cites as `name()` or `Class.method()`. */
const cited = [...DOC.matchAll(/`((?:[A-Z]\w*\.)?\w+)\(\)`/g)].map((m) => m[1]!);

describe('ARCHITECTURE.md', () => {
  it('cites functions (the check reads the page at all)', () => {
    expect(cited.length).toBeGreaterThan(30);
    expect(cited).toContain('Session.recordStep');
  });

  it.each([...new Set(cited)])('`%s()` exists in src', (name) => {
    const [owner, member] = name.includes('.') ? name.split('.') : [undefined, name];
    const files = owner ? SOURCES.filter((s) => declares(s.text, owner)) : SOURCES;
    expect(files.length, `${owner} is declared in src`).toBeGreaterThan(0);
    expect(
      files.some((s) => declares(s.text, member!)),
      `${name} is declared in src`,
    ).toBe(true);
  });

  it('describes every folder of src/ and places it in a layer', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const table = DOC.slice(DOC.indexOf('| layer |'), DOC.indexOf('## The folders'));
    for (const folder of folders) {
      expect(DOC, `a paragraph for ${folder}`).toContain(`**${folder}**`);
      expect(table, `${folder} in the layers table`).toContain(`\`${folder}\``);
    }
  });
});
