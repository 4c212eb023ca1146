// Starts the render worker from TypeScript source: registers tsx in this worker thread (a worker
// does not inherit the main thread's loader), then loads the worker. Compiled builds load
// renderWorker.js directly and never use this file.
import { register } from 'tsx/esm/api';

register();
await import('./renderWorker.ts');
