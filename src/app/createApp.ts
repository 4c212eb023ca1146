import { join } from 'node:path';
import { closeDatabase, openDatabase } from '../db/client.js';
import { keepLayersIn } from '../render/index.js';
import type { App } from './app.js';
import { keepRouteTablesIn } from './movement/routeTableFile.js';
import { keepExportPartsIn } from './campaign/exportChunks.js';
import { defaultLayerDir } from './storeTarget.js';
import { randomDice, type DiceSource } from './dice/diceSource.js';
import { silentLogger, systemClock, type Clock, type Logger } from './ports.js';

export interface AppOptions {
  /** Where the campaigns are: a SQLite file, ':memory:', or a PostgreSQL URL (postgres://, postgresql://). */
  readonly databasePath: string;
  /** Where the map pictures' static layers are kept (RENDER_CACHE_DIR); default: storeTarget.ts's defaultLayerDir. */
  readonly renderCacheDir?: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Where new dice come from; random seeds when absent (the console's --seed and tests pass `seededDice`). */
  readonly dice?: DiceSource;
}

/**
 * Opens the database (migrating it) and assembles the app. The map pictures' static layers are
 * kept on disk (RENDER_CACHE_DIR, or {@link defaultLayerDir}), so a new render thread or a
 * restarted process does not draw them again; the route tables of the maps' movement profiles
 * too (its `routes/` folder), so a restarted process does not build them again.
 */
export function createApp(opts: AppOptions): App & { close(): void } {
  const db = openDatabase(opts.databasePath);
  const layers = opts.renderCacheDir ?? defaultLayerDir(opts.databasePath);
  if (layers !== undefined) keepLayersIn(layers);
  const app = {
    db,
    clock: opts.clock ?? systemClock,
    logger: opts.logger ?? silentLogger,
    dice: opts.dice ?? randomDice,
    statics: new Map(),
    close: () => closeDatabase(db),
  };
  // The route tables of the maps' movement profiles, in the same folder (routeTableFile.ts).
  if (layers !== undefined) keepRouteTablesIn(app, join(layers, 'routes'));
  // The closed parts of long campaigns' exports, compressed once (exportChunks.ts).
  if (layers !== undefined) keepExportPartsIn(app, join(layers, 'exports'));
  return app;
}
