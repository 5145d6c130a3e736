// Run by .ci/pack-smoke in the project where the packed tarball is installed: the README's first
// screen works as written, and every TypeScript block of the README compiles against the
// installed package. Usage: node readme.mjs <project root>
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2];
const { name } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const fail = (why) => {
  console.error(`readme: ${why}`);
  process.exit(1);
};

const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  lang: m[1],
  code: m[2],
  at: m.index,
}));

// The first screen: the install line, then a hello world of at most 10 lines, then the AI SDK.
const [install, hello] = blocks;
if (install?.lang !== 'sh' || install.code.trim() !== `npm install ${name}`)
  fail(`the first block must be \`npm install ${name}\`, got: ${install?.code}`);
if (hello?.lang !== 'js') fail('the second block must be the hello world (js)');
const lines = hello.code.trimEnd().split('\n');
if (lines.length > 10) fail(`the hello world has ${lines.length} lines, more than 10`);
const nextHeading = readme.slice(hello.at).match(/^## (.+)$/m)?.[1];
if (nextHeading !== 'With the AI SDK') fail(`after the hello world comes "${nextHeading}", not "With the AI SDK"`);
writeFileSync('hello.mjs', hello.code);
const out = execFileSync(process.execPath, ['hello.mjs'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
if (!/\d+ of \d+ tokens before compaction/.test(out)) fail(`the hello world printed: ${out}`);
console.log('readme: the hello world runs as written');

// Names the blocks use from each other or from the reader's own program, declared for each block
// that neither imports nor defines them.
const given = {
  anthropic: "import { anthropic } from '@ai-sdk/anthropic';",
  generateText: "import { generateText } from 'ai';",
  stepCountIs: "import { stepCountIs } from 'ai';",
  openSession: `import { openSession } from '${name}';`,
  llmSummarizer: `import { llmSummarizer } from '${name}';`,
  memoryStore: `import { memoryStore } from '${name}';`,
  stepHooks: `import { stepHooks } from '${name}/ai-sdk';`,
  sqliteStore: `import { sqliteStore } from '${name}/sqlite';`,
  SYSTEM_PROMPT: 'declare const SYSTEM_PROMPT: string;',
  tools: "declare const tools: import('ai').ToolSet;",
  myTools: "declare const myTools: import('ai').ToolSet;",
  messages: "declare const messages: import('ai').ModelMessage[];",
  model: "declare const model: import('ai').LanguageModel;",
  cheap: "declare const cheap: import('ai').LanguageModel;",
  session: `declare const session: import('${name}').Session;`,
  store: `declare const store: import('${name}').Store;`,
};
const defines = (code, id) =>
  new RegExp(`import\\s*\\{[^}]*\\b${id}\\b[^}]*\\}|\\b(const|let)\\s+(\\{[^}]*\\b${id}\\b[^}]*\\}|${id}\\b)`).test(code);
const uses = (code, id) => new RegExp(`\\b${id}\\b`).test(code.replace(/\/\/.*$/gm, ''));

mkdirSync('readme', { recursive: true });
// A provider package the examples name; its one function is all they use.
writeFileSync(
  'readme/anthropic.d.ts',
  "declare module '@ai-sdk/anthropic' { export const anthropic: (id: string) => import('@ai-sdk/provider').LanguageModelV3; }\n",
);
writeFileSync('readme/hello.ts', hello.code);
const files = ['anthropic.d.ts', 'hello.ts'];
for (const [i, block] of blocks.entries()) {
  if (block.lang !== 'ts') continue;
  const preamble = Object.entries(given)
    .filter(([id]) => uses(block.code, id) && !defines(block.code, id))
    .map(([, line]) => line);
  const file = `block-${i}.ts`;
  writeFileSync(join('readme', file), `${preamble.join('\n')}\nexport {};\n${block.code}`);
  files.push(file);
}
writeFileSync(
  'readme/tsconfig.json',
  JSON.stringify({
    compilerOptions: {
      strict: true,
      target: 'es2023',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      skipLibCheck: true,
      noEmit: true,
      typeRoots: [join(root, 'node_modules/@types')],
      types: ['node'],
    },
    files,
  }),
);
try {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'readme'], {
    encoding: 'utf8',
  });
} catch (error) {
  fail(`a README block does not compile:\n${error.stdout}`);
}
console.log(`readme: the hello world and ${files.length - 2} TypeScript blocks compile against the installed package`);
