import type BetterSqlite3 from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';

/**
 * Which schema a database is at, and the refusal to run on one newer than this build knows. Drizzle
 * records each migration it applied as a row (its file's SHA-256 and the `when` of the migrations
 * journal, `created_at`) and applies only the folder's migrations newer than the newest row: on a
 * database a later version of the bot upgraded, it would apply nothing and let this code read and
 * write tables whose shape it does not know. So a database whose migrations table holds a
 * migration this build's folder does not, newer than all of the folder's, is refused on open, on
 * both dialects, before anything is written.
 */

/** A migration a database says it has applied. */
export interface AppliedMigration {
  readonly hash: string;
  /** The migration's `when` in the folder's journal (milliseconds since 1970). */
  readonly createdAt: number;
}

/** The database was upgraded by a newer version of the bot than this one. */
export class NewerSchemaError extends Error {
  override readonly name = 'NewerSchemaError';
}

const when = (ms: number): string => new Date(ms).toISOString();

/**
 * Throws NewerSchemaError, saying what to do, when `applied` holds a migration the migrations
 * in `folder` do not (neither its hash nor its time) newer than the folder's newest. A database
 * with no migrations yet, or at this build's schema or an older one, passes.
 */
export function assertKnownSchema(applied: readonly AppliedMigration[], folder: string): void {
  const known = readMigrationFiles({ migrationsFolder: folder });
  const hashes = new Set(known.map((m) => m.hash));
  const times = new Set(known.map((m) => m.folderMillis));
  const newestKnown = Math.max(0, ...known.map((m) => m.folderMillis));
  const unknown = applied.filter((m) => !hashes.has(m.hash) && !times.has(m.createdAt) && m.createdAt > newestKnown);
  if (unknown.length === 0) return;
  const newest = unknown.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
  throw new NewerSchemaError(
    `this database was upgraded by a newer version of the bot (migration of ${when(newest.createdAt)}, sha256 ${newest.hash.slice(0, 12)}`
    + `${unknown.length > 1 ? `, and ${unknown.length - 1} more` : ''}; this version knows migrations up to ${when(newestKnown)}): `
    + 'run that version or a later one, or restore a backup taken before the upgrade',
  );
}

/** The database is at an older schema than this build's (or at none): it has not been migrated to it. */
export class OlderSchemaError extends Error {
  override readonly name = 'OlderSchemaError';
  /** `neverMigrated`: no migration of the bot was ever applied (an empty database, or not the bot's). */
  constructor(message: string, readonly neverMigrated = false) {
    super(message);
  }
}

/**
 * For a database opened as it is (openExisting): throws NewerSchemaError for one a newer bot
 * upgraded, OlderSchemaError for one missing any of this build's migrations (or holding none).
 */
export function assertCurrentSchema(applied: readonly AppliedMigration[], folder: string): void {
  assertKnownSchema(applied, folder);
  const known = readMigrationFiles({ migrationsFolder: folder });
  if (applied.length === 0) throw new OlderSchemaError('it holds no campaign tables (no migration of the bot was ever applied to it)', true);
  const last = Math.max(...applied.map((m) => m.createdAt));
  const missing = known.filter((m) => m.folderMillis > last);
  if (missing.length > 0) {
    throw new OlderSchemaError(`it is at an older schema than this version of the bot (its newest migration is of ${when(last)}; ${missing.length} of this version's ${known.length} migrations are not applied)`);
  }
}

/** The migrations an SQLite database has applied (none when drizzle never migrated it). */
export function appliedSqliteMigrations(sqlite: BetterSqlite3.Database): AppliedMigration[] {
  const table = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get();
  if (table === undefined) return [];
  const rows: unknown[] = sqlite.prepare('select hash, created_at from __drizzle_migrations').raw().all();
  return rows.map(toApplied);
}

/** A `[hash, created_at]` row of drizzle's migrations table, whichever store gave it (PostgreSQL's bigint comes as text). */
function toApplied(row: unknown): AppliedMigration {
  if (!Array.isArray(row)) throw new Error('a row of __drizzle_migrations that is not [hash, created_at]');
  return { hash: String(row[0]), createdAt: Number(row[1]) };
}
