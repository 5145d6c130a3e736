import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  // ... and a folder that has no place in the layers.
  write(
    'src/newfolder/thing.ts',
    "import type { Entry } from '../model/entry.js';\nexport type T = Entry;\n",
  );
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run lint, on imports', () => {
  it('passes on the repository as it is', () => {
    const { status, output } = lintImports(ROOT);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it('fails on a copy with an upward import, a type import upward, a circle and an unplaced folder', () => {
    const { status, output } = lintImports(copy);
    expect(status).not.toBe(0);
    expect(output).toMatch(/error layer-model: src\/model\/upward\.ts → src\/session\/session\.ts/);
    expect(output).toMatch(/error layer-tokens-context: src\/tokens\/upward-type\.ts → src\/cli\/io\.ts/);
    expect(output).toMatch(/error no-circular: src\/budget\/p[io]ng\.ts/);
    expect(output).toMatch(/error every-folder-has-a-layer: src\/newfolder\/thing\.ts/);
    // Nothing else in the copy is reported: the four are the only violations.
    expect(output).toMatch(/x 4 dependency violations/);
  });
});
