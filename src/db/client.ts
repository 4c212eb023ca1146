import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';

/** The Drizzle instance statements are built on (typed as SQLite's on both stores: see prepared.ts). */
export type Orm = BetterSQLite3Database<typeof schema>;
/** The tables statements name (schema.ts, or schemaPg.ts's tables of the same shape). */
export type Tables = typeof schema;

interface StoreBase {
  readonly orm: Orm;
  readonly tables: Tables;
}

/** A SQLite database file (or `:memory:`), one better-sqlite3 connection. */
export interface SqliteStore extends StoreBase {
  readonly dialect: 'sqlite';
  readonly sqlite: BetterSqlite3.Database;
}

/**
 * The open database: what the app holds for its life. The app layer never asks which store it is;
 * src/db does, where a statement must differ.
 */
export type Database = SqliteStore;

/** The better-sqlite3 connection under a SQLite store: for tools and tests that read SQLite itself. */
export function rawSqlite(db: Database): BetterSqlite3.Database {
  if (db.dialect !== 'sqlite') throw new Error('this needs a SQLite database; the store is PostgreSQL');
  return db.sqlite;
}

/**
 * Runs `fn` in one write transaction on the connection, taking the write lock at once (BEGIN
 * IMMEDIATE): a second process waits for it (busy_timeout) instead of failing halfway. Every
 * repository call inside `fn`, on this connection, is part of it. Synchronous: no await inside.
 * `lockKey` names the campaign the transaction writes: on SQLite the write lock already covers the
 * whole database.
 */
export function writeTransaction<T>(db: Database, fn: () => T, lockKey?: string): T {
  void lockKey;
  return db.sqlite.transaction(fn).immediate();
}

/** Runs `fn` in one read transaction: a consistent snapshot that, in WAL mode, never blocks a writer. */
export function readTransaction<T>(db: Database, fn: () => T): T {
  return db.sqlite.transaction(fn).deferred();
}

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
  const orm = drizzle(sqlite, { schema });
  migrate(orm, { migrationsFolder: MIGRATIONS });
  const broken: unknown = sqlite.pragma('foreign_key_check');
  if (Array.isArray(broken) && broken.length > 0) throw new Error(`database has ${broken.length} rows with broken foreign keys after migration`);
  sqlite.pragma('foreign_keys = ON');
  reclaimFreeSpace(sqlite);
  return { dialect: 'sqlite', orm, tables: schema, sqlite };
}

/**
 * Gives back to the file system the space an upgrade or a long retention freed (map bytes from
 * older versions): SQLite reuses free pages but never shrinks the file by itself. Only when more
 * than a quarter of the file and over 64 MB are free, so it runs once after such an upgrade.
 */
function reclaimFreeSpace(sqlite: BetterSqlite3.Database): void {
  const pageSize = Number(sqlite.pragma('page_size', { simple: true }));
  const pages = Number(sqlite.pragma('page_count', { simple: true }));
  const free = Number(sqlite.pragma('freelist_count', { simple: true }));
  if (free * pageSize > 64 * 1024 * 1024 && free > pages / 4) sqlite.exec('VACUUM');
}

export function closeDatabase(db: Database): void {
  db.sqlite.close();
}
