// Starts the PostgreSQL bridge's worker from TypeScript source: registers tsx in this worker thread
// (a worker does not inherit the main thread's loader), then loads the worker. Compiled builds load
// bridgeWorker.js directly and never use this file.
import { register } from 'tsx/esm/api';

register();
await import('./bridgeWorker.ts');
