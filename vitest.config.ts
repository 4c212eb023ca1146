import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/setup/closeRenderPool.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
