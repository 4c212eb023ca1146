import process from 'node:process';
import { DIR_ENV, newClusterDir, stopTestCluster } from '../support/postgres.js';

/**
 * Vitest globalSetup: names a folder for this run's PostgreSQL cluster in VALORMR_TEST_PG_DIR (the
 * test processes inherit it). The cluster starts only when a test asks for it
 * (tests/support/postgres.ts); the teardown stops it, if it ran, and removes the folder.
 */
export function setup(): () => void {
  if (process.env.VALORMR_TEST_PG_URL || process.env[DIR_ENV]) return () => undefined;
  const dir = newClusterDir();
  process.env[DIR_ENV] = dir;
  return () => stopTestCluster(dir);
}
