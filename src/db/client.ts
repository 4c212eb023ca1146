import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';

export type Database = BetterSQLite3Database<typeof schema> & { $client: BetterSqlite3.Database };

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), '../../migrations');

/**
 * Opens (creating if needed) the campaign database and brings its schema up to date.
 * Pragmas live here and only here. Foreign keys are switched off while migrating, because
 * drizzle-kit's table rebuilds would otherwise cascade-delete child rows, then checked and
 * switched back on.
 */
export function openDatabase(path: string): Database {
  if (path !== ':memory:') {
    const dir = dirname(resolve(path));
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  }
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = OFF');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS });
  const broken = sqlite.pragma('foreign_key_check') as unknown[];
  if (broken.length > 0) throw new Error(`database has ${broken.length} rows with broken foreign keys after migration`);
  sqlite.pragma('foreign_keys = ON');
  return db as Database;
}

export function closeDatabase(db: Database): void {
  db.$client.close();
}
