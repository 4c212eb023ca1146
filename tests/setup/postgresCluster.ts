import process from 'node:process';
import { DIR_ENV, newClusterDir, stopTestCluster } from '../support/postgres.js';
import { compileBridgeWorker } from './compileBridgeWorker.js';

/**
 * Vitest globalSetup: names a folder for this run's PostgreSQL cluster in VALORMR_TEST_PG_DIR (the
 * test processes inherit it). The cluster starts only when a test asks for it
 * (tests/support/postgres.ts); the teardown stops it, if it ran, and removes the folder. Also
 * compiles the bridge's worker once for the run (VALORMR_BRIDGE_WORKER_JS, see compileBridgeWorker).
 */
export function setup(): () => void {
  const worker = compileBridgeWorker();
  if (worker) process.env.VALORMR_BRIDGE_WORKER_JS = worker;
  if (process.env.VALORMR_TEST_PG_URL || process.env[DIR_ENV]) return () => undefined;
  const dir = newClusterDir();
  process.env[DIR_ENV] = dir;
  return () => stopTestCluster(dir);
}
