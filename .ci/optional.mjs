// Run by .ci/pack-smoke in a project that installed the tarball alone: the optional packages are
// absent, and each feature that needs one says which to install.
import { existsSync } from 'node:fs';

const failures = [];
const expectMessage = async (what, run, pattern) => {
  try {
    await run();
    failures.push(`${what}: no error`);
  } catch (error) {
    if (!pattern.test(error.message)) failures.push(`${what}: ${error.message}`);
  }
};

for (const name of ['pg', 'pg-boss', 'gpt-tokenizer', 'commander', '@ai-sdk/openai-compatible']) {
  if (existsSync(`node_modules/${name}`)) failures.push(`${name} was installed with the package`);
}
await expectMessage('condense-context/postgres', () => import('condense-context/postgres'), /needs the 'pg' package: npm install pg/);
const { openSession, memoryStore } = await import('condense-context');
await expectMessage(
  "estimator 'exact'",
  () => openSession(memoryStore(), 's', { estimator: 'exact' }),
  /estimator 'exact' needs the 'gpt-tokenizer' package: npm install gpt-tokenizer/,
);
if (failures.length > 0) {
  console.error(`optional packages:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('optional packages: absent, and each feature that needs one names it');
