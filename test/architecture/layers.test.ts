import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG_FILES = ['.dependency-cruiser.cjs', 'tsconfig.json'];

/** The import check exactly as `npm run lint` runs it, in `cwd`. */
function lintImports(cwd: string): { status: number | null; output: string } {
  const script = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts['lint:imports'];
  const [command, ...args] = (script as string).split(' ');
  expect(command).toBe('depcruise');
  const bin = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const run = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

let copy: string;

// A copy of the real src with the config beside it, then four violations committed to it.
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'condense-layers-'));
  cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
  for (const file of CONFIG_FILES) cpSync(join(ROOT, file), join(copy, file));
  const write = (path: string, text: string) => {
    mkdirSync(join(copy, path, '..'), { recursive: true });
    writeFileSync(join(copy, path), text);
  };
  // The data model reaching up into the session (a value import) ...
  write('src/model/upward.ts', "export { openSession } from '../session/session.js';\n");
  // ... the token layer into the CLI (a type import: it counts too) ...
  write('src/tokens/upward-type.ts', "export type { CommonOptions } from '../cli/io.js';\n");
  // ... two budget modules importing each other ...
  write('src/budget/ping.ts', "import { pong } from './pong.js';\nexport const ping = () => pong;\n");
  write('src/budget/pong.ts', "import { ping } from './ping.js';\nexport const pong = () => ping;\n");
  // ... a folder that has no place in the layers ...
  write(
    'src/newfolder/thing.ts',
    "import type { Entry } from '../model/entry.js';\nexport type T = Entry;\n",
  );
  // ... and a report taking the Session class instead of its interface.
  write('src/report/by-class.ts', "export type { Session } from '../session/session.js';\n");
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run lint, on imports', () => {
  it('passes on the repository as it is', () => {
    const { status, output } = lintImports(ROOT);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it('fails on a copy with an upward import, a type import upward, a circle, an unplaced folder and the Session class imported', () => {
    const { status, output } = lintImports(copy);
    expect(status).not.toBe(0);
    expect(output).toMatch(/error layer-model: src\/model\/upward\.ts → src\/session\/session\.ts/);
    expect(output).toMatch(/error layer-tokens-context: src\/tokens\/upward-type\.ts → src\/cli\/io\.ts/);
    expect(output).toMatch(/error no-circular: src\/budget\/p[io]ng\.ts/);
    expect(output).toMatch(/error every-folder-has-a-layer: src\/newfolder\/thing\.ts/);
    expect(output).toMatch(
      /error session-class-behind-its-interface: src\/report\/by-class\.ts → src\/session\/session\.ts/,
    );
    // Nothing else is reported (the model's upward import breaks two rules).
    expect(output).toMatch(/x 6 dependency violations/);
  });
});

/** Each src file's import and export-from statements: the names they bring in and from where. */
function namedImports(): { file: string; names: string[]; from: string }[] {
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );
  const statement = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g;
  return files.flatMap((file) =>
    [...readFileSync(join(ROOT, 'src', file), 'utf8').matchAll(statement)].map((m) => ({
      file,
      names: m[1]!.split(',').map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      ),
      from: m[2]!,
    })),
  );
}

describe('the Session class', () => {
  it('is imported only by the session index and the public entry files, type imports included', () => {
    const importers = namedImports()
      .filter((i) => i.names.includes('Session') && /(^|\/)session(\/index|\/session|)\.js$/.test(i.from))
      .map((i) => i.file);
    // The check sees imports at all: the root entry re-exports the class through the index.
    expect(importers).toContain('session/index.ts');
    expect(importers.filter((f) => f !== 'session/index.ts' && f.includes('/'))).toEqual([]);
  });
});
