import { closeDatabase, openDatabase } from '../db/client.js';
import { keepLayersBeside } from '../render/index.js';
import type { App } from './app.js';
import { randomDice, type DiceSource } from './dice/diceSource.js';
import { silentLogger, systemClock, type Clock, type Logger } from './ports.js';

export interface AppOptions {
  readonly databasePath: string;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Where new dice come from; random seeds when absent (the console's --seed and tests pass `seededDice`). */
  readonly dice?: DiceSource;
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
    dice: opts.dice ?? randomDice,
    statics: new Map(),
    close: () => closeDatabase(db),
  };
}
