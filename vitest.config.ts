import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest leaves a core free by default; on a 2-core CI machine that runs the suite serially.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
