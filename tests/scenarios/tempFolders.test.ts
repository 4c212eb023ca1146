import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTestTempDirs } from '../support/tempDirs.js';
import { consoleHarness, VALORMR_SETUP } from './harness.js';

/**
 * What a test process keeps in the temporary folder on purpose, one folder per user reused by every
 * run: the map layers' cache of a PostgreSQL store (src/app/storeTarget.ts), and tsx's compile cache
 * (the render threads load TypeScript through tsx).
 */
const KEPT = /^(valormr-layers|tsx)-[^/]+$/;

describe('temporary folders', () => {
  it('GIVEN a scenario that writes pictures WHEN its file ends (the setup file\'s afterAll) THEN nothing it made is left in the temporary folder', async () => {
    // The process's temporary folder pointed at an empty one for this test: whatever the harness,
    // the app or the render threads make there is seen, not only what testTempDir registered.
    const saved = process.env.TMPDIR;
    const tmp = mkdtempSync(join(tmpdir(), 'valormr-tempcheck-'));
    try {
      process.env.TMPDIR = tmp;
      expect(tmpdir()).toBe(tmp);
      const h = await consoleHarness({ setup: VALORMR_SETUP });
      await h.run('@referee /campaign start', '@referee /map');
      h.close();
      const made = readdirSync(tmp).filter((name) => !KEPT.test(name));
      // The scenario did write: its output folder holds the map picture.
      expect(made.filter((name) => name.startsWith('valormr-test-'))).toHaveLength(1);
      expect(readdirSync(join(tmp, made.find((name) => name.startsWith('valormr-test-'))!)).some((f) => f.endsWith('.png')), 'a picture written').toBe(true);
      // What tests/setup/removeTempDirs.ts runs after every test file.
      removeTestTempDirs();
      expect(readdirSync(tmp).filter((name) => !KEPT.test(name))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
