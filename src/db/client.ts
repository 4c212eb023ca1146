import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { openPgBridge, type PgBridge } from './pg/bridge.js';
import { migratePostgres } from './pg/migrate.js';
import { syncPgDrizzle } from './pg/session.js';
import { placeFreshImage } from './freshImage.js';
import { CAMPAIGN_LOCK, pgTransaction } from './pg/transaction.js';
import * as schema from './schema.js';
import * as schemaPg from './schemaPg.js';
import { startWalCheckpoints, type WalCheckpoints } from './walCheckpoints.js';
import { type AppliedMigration, appliedSqliteMigrations, assertCurrentSchema, assertKnownSchema } from './schemaVersion.js';

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
  /** A file database's checkpoint thread (src/db/walCheckpoints.ts), stopped before the connection closes. */
  readonly checkpoints?: WalCheckpoints;
}

/**
 * A PostgreSQL database, one connection held by a worker thread and used synchronously through it
 * (src/db/pg/bridge.ts), so the unit of work is the same synchronous transaction as on SQLite.
 */
export interface PostgresStore extends StoreBase {
  readonly dialect: 'postgres';
  readonly bridge: PgBridge;
}

/**
 * The open database: what the app holds for its life. The app layer never asks which store it is;
 * src/db does, where a statement must differ.
 */
export type Database = SqliteStore | PostgresStore;

/** Whether a database target names a PostgreSQL server (`postgres://` or `postgresql://`) rather than a SQLite file. */
const isPostgresUrl = (target: string): boolean => /^postgres(ql)?:\/\//i.test(target);

/** The better-sqlite3 connection under a SQLite store: for tools and tests that read SQLite itself. */
export function rawSqlite(db: Database): BetterSqlite3.Database {
  if (db.dialect !== 'sqlite') throw new Error('this needs a SQLite database; the store is PostgreSQL');
  return db.sqlite;
}

/**
 * Runs `fn` in one write transaction on the connection, taking the write lock at once (BEGIN
 * IMMEDIATE): a second process waits for it (busy_timeout) instead of failing halfway. Every
 * repository call inside `fn`, on this connection, is part of it. Synchronous: no await inside.
 * On PostgreSQL a transaction that writes a campaign holds it first (`holdCampaign`).
 */
export function writeTransaction<T>(db: Database, fn: () => T): T {
  if (db.dialect === 'postgres') return pgTransaction(db.bridge, 'write', fn);
  return db.sqlite.transaction(fn).immediate();
}

/**
 * Runs `fn`, which runs ONE write statement (atomic by itself), as a transaction of its own: on
 * SQLite a write transaction as `writeTransaction`; on PostgreSQL the statement alone, which
 * commits itself (one round trip instead of BEGIN, the statement and COMMIT). For the delivery's
 * claim and marks, run for every message sent.
 */
export function oneStatement<T>(db: Database, fn: () => T): T {
  if (db.dialect === 'postgres') return fn();
  return db.sqlite.transaction(fn).immediate();
}

/**
 * Inside a write transaction: holds the campaign until it ends, so two processes never interleave
 * one campaign's writes (PostgreSQL's advisory lock on the campaign id, the key pgTransaction's
 * `lockKey` and src/db/campaignHold.ts take).
 * Statements after it see what the campaign's last writer committed. On SQLite the transaction's
 * write lock already covers the whole database.
 */
export function holdCampaign(db: Database, campaignId: string): void {
  // Sent with the next statement (a lock that fails or times out fails that statement).
  if (db.dialect === 'postgres') db.bridge.defer(CAMPAIGN_LOCK, [campaignId]);
}

/** Runs `fn` in one read transaction: a consistent snapshot that, in WAL mode, never blocks a writer. */
export function readTransaction<T>(db: Database, fn: () => T): T {
  if (db.dialect === 'postgres') return pgTransaction(db.bridge, 'read', fn);
  return db.sqlite.transaction(fn).deferred();
}

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), '../../migrations');
const MIGRATIONS_PG = resolve(dirname(fileURLToPath(import.meta.url)), '../../migrations-pg');

/**
 * Opens (creating if needed) the campaign database and brings its schema up to date; refuses one
 * a newer version of the bot upgraded (NewerSchemaError, src/db/schemaVersion.ts).
 * Pragmas live here and only here. Foreign keys are switched off while migrating, because
 * drizzle-kit's table rebuilds would otherwise cascade-delete child rows, then checked (when a
 * migration ran) and switched back on.
 */
export function openDatabase(path: string): Database {
  if (isPostgresUrl(path)) return openPostgres(path);
  if (path === ':memory:' && emptyImage) return openImage(emptyImage);
  if (path !== ':memory:') {
    const dir = dirname(resolve(path));
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    // A new file starts as a copy of the build's freshly migrated database (src/db/freshImage.ts),
    // when there is a sound one; the migrations below then find nothing to do.
    if (path !== '' && !existsSync(path)) placeFreshImage(path, MIGRATIONS);
  }
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // SQLite's own page cache: 2 MB (SQLite's default; better-sqlite3 raises it to 16 MB). The file's
  // pages stay in the kernel's cache, a miss reads them from there; and the in-memory campaign copies
  // (src/app/stateCache.ts) spare a command most reads. 16 MB of pages, filled by a hundred campaigns'
  // ticks, left the process's heap about 14 MB larger for good (issue 25, rss100Mb).
  if (path !== ':memory:') sqlite.pragma('cache_size = -2000');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = OFF');
  const orm = drizzle(sqlite, { schema });
  const before = refuseNewerSchema(sqlite);
  migrate(orm, { migrationsFolder: MIGRATIONS });
  // Only a migration (run with foreign keys off) can leave a broken reference: every other write
  // runs with them on, in transactions a crash rolls back. The check reads every referencing row,
  // so an open with nothing to migrate skips it.
  if (appliedSqliteMigrations(sqlite).length !== before) {
    const broken: unknown = sqlite.pragma('foreign_key_check');
    if (Array.isArray(broken) && broken.length > 0) throw new Error(`database has ${broken.length} rows with broken foreign keys after migration`);
  }
  sqlite.pragma('foreign_keys = ON');
  reclaimFreeSpace(sqlite);
  if (path === ':memory:') emptyImage = sqlite.serialize();
  // A file's checkpoints (and their fsyncs) run on a thread of their own, off the event loop.
  const checkpoints = path === ':memory:' || path === '' ? undefined : startWalCheckpoints(sqlite, path);
  return { dialect: 'sqlite', orm, tables: schema, sqlite, ...(checkpoints ? { checkpoints } : {}) };
}

/**
 * The first new in-memory database of the process, just migrated: the next ones are opened from
 * this copy instead of running every migration again (the tests open one for each app).
 */
let emptyImage: Buffer | undefined;

function openImage(image: Buffer): SqliteStore {
  const sqlite = new BetterSqlite3(image);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return { dialect: 'sqlite', orm: drizzle(sqlite, { schema }), tables: schema, sqlite };
}

/**
 * A database a newer version of the bot upgraded is closed untouched and refused (schemaVersion.ts).
 * Returns how many migrations it has.
 */
function refuseNewerSchema(sqlite: BetterSqlite3.Database): number {
  try {
    const applied = appliedSqliteMigrations(sqlite);
    assertKnownSchema(applied, MIGRATIONS);
    return applied.length;
  } catch (error) {
    sqlite.close();
    throw error;
  }
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

/**
 * Connects to PostgreSQL (refusing, with the URL and its password hidden, when it cannot) and
 * brings its schema up to date from migrations-pg/ (refusing a database a newer bot upgraded).
 * Statements are built on schemaPg.ts's tables, which tests/db/schemaParity.test.ts holds to
 * schema.ts's names and value types: that is what lets the one set of statements, typed as
 * SQLite's, run here.
 */
function openPostgres(url: string): PostgresStore {
  const bridge = openPgBridge(url);
  try {
    migratePostgres(bridge, MIGRATIONS_PG);
  } catch (error) {
    bridge.close();
    throw error;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the same builder calls over pg-core; see above
  const orm = syncPgDrizzle(bridge, schemaPg) as unknown as Orm;
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- the same names and value types; see above
  return { dialect: 'postgres', orm, tables: schemaPg as unknown as Tables, bridge };
}

/**
 * Opens a database as it is, for tools that read one without changing it (`npm run db:copy`'s
 * source, `npm run replay -- --store`): nothing is migrated or created (a SQLite file must exist
 * and is opened read-only), and a database not at this build's schema is refused, closed
 * (NewerSchemaError, OlderSchemaError: src/db/schemaVersion.ts).
 */
export function openExisting(path: string): Database {
  if (isPostgresUrl(path)) {
    const bridge = openPgBridge(path);
    try {
      const known = bridge.query("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL", []).rows[0]?.[0] === true;
      const applied: AppliedMigration[] = !known ? [] : bridge.query('SELECT hash, created_at FROM drizzle.__drizzle_migrations', []).rows
        .map((row) => ({ hash: String(row[0]), createdAt: Number(row[1]) }));
      assertCurrentSchema(applied, MIGRATIONS_PG);
    } catch (error) {
      bridge.close();
      throw error;
    }
    // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- as in openPostgres
    return { dialect: 'postgres', orm: syncPgDrizzle(bridge, schemaPg) as unknown as Orm, tables: schemaPg as unknown as Tables, bridge };
  }
  const sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    assertCurrentSchema(appliedSqliteMigrations(sqlite), MIGRATIONS);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return { dialect: 'sqlite', orm: drizzle(sqlite, { schema }), tables: schema, sqlite };
}

export function closeDatabase(db: Database): void {
  if (db.dialect === 'postgres') db.bridge.close();
  else {
    db.checkpoints?.stop();
    db.sqlite.close();
  }
}
