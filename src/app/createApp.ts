import { closeDatabase, openDatabase } from '../db/client.js';
import { keepLayersBeside } from '../render/index.js';
import type { App } from './app.js';
import { silentLogger, systemClock, type Clock, type Logger } from './ports.js';

export interface AppOptions {
  readonly databasePath: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly seed?: number;
  readonly scriptedDice?: readonly number[];
  readonly outDir?: string;
}

/**
 * Opens the database (migrating it) and assembles the app. The map pictures' static layers are
 * kept beside a database file (`<database>-layers/`), so a new render thread or a restarted
 * process does not draw them again.
 */
export function createApp(opts: AppOptions): App & { close(): void } {
  const db = openDatabase(opts.databasePath);
  if (opts.databasePath !== ':memory:' && opts.databasePath !== '') keepLayersBeside(opts.databasePath);
  return {
    db,
    clock: opts.clock ?? systemClock,
    logger: opts.logger ?? silentLogger,
    scriptedDice: [...(opts.scriptedDice ?? [])],
    statics: new Map(),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.outDir !== undefined ? { outDir: opts.outDir } : {}),
    close: () => closeDatabase(db),
  };
}
