import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/setup/closeRenderPool.ts'],
    // One PostgreSQL cluster for the run, started when a test first asks (tests/support/postgres.ts).
    globalSetup: ['tests/setup/postgresCluster.ts'],
    testTimeout: 120_000,
    // Generous: a test must pass on a loaded machine (speed is the bench's); a hang still ends.
    hookTimeout: 300_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where most
    // of the slow files wait on child processes (real bots, kills, builds, Chromium). Two at least.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
