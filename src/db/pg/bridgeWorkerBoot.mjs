// Starts the PostgreSQL bridge's worker from TypeScript source. Compiled builds load bridgeWorker.js
// directly and never use this file.
// - VALORMR_BRIDGE_WORKER_JS names bridgeWorker.ts already compiled to JavaScript (the test run's
//   globalSetup compiles it once, tests/setup/postgresCluster.ts): loaded as is, since registering
//   tsx costs each new worker most of a second, and the tests open a bridge for every app.
// - Otherwise tsx is registered in this worker thread (a worker does not inherit the main thread's
//   loader) and the source loaded.
import process from 'node:process';

const compiled = process.env.VALORMR_BRIDGE_WORKER_JS;
if (compiled) {
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./bridgeWorker.ts');
}
