import { afterAll } from 'vitest';
import { closeRenderPool } from '../../src/render/renderPool.js';

// Every test file stops the render threads it started (idle workers never keep a process alive,
// but a test run leaves nothing behind).
afterAll(async () => {
  await closeRenderPool();
});
