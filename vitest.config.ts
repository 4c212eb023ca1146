import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/setup/closeRenderPool.ts'],
    testTimeout: 120_000,
    // Generous: a test must pass on a loaded machine (speed is the bench's); a hang still ends.
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
