import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, rawSqlite } from '../../src/db/client.js';
import { appliedSqliteMigrations, assertKnownSchema, NewerSchemaError } from '../../src/db/schemaVersion.js';

/**
 * A database a newer version of the bot upgraded (its migrations table holds a migration this
 * build's folder does not, newer than all of the folder's) is refused, saying what to do; a new
 * database, one at this build's schema and one at an older schema are not.
 */

const FOLDER = resolve('migrations');
const known = readMigrationFiles({ migrationsFolder: FOLDER });
const newestKnown = Math.max(...known.map((m) => m.folderMillis));

function migrated(): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(':memory:');
  migrate(drizzle(sqlite), { migrationsFolder: FOLDER });
  return sqlite;
}

describe('the newer-schema refusal (SQLite)', () => {
  it('GIVEN a database never migrated, or migrated by this build THEN it passes', () => {
    const fresh = new BetterSqlite3(':memory:');
    expect(appliedSqliteMigrations(fresh)).toEqual([]);
    expect(() => assertKnownSchema(appliedSqliteMigrations(fresh), FOLDER)).not.toThrow();
    const db = migrated();
    expect(appliedSqliteMigrations(db)).toHaveLength(known.length);
    expect(() => assertKnownSchema(appliedSqliteMigrations(db), FOLDER)).not.toThrow();
  });

  it('GIVEN a database at an older schema (its last migrations not applied yet) THEN it passes', () => {
    const db = migrated();
    db.prepare('delete from __drizzle_migrations where created_at >= ?').run(known.at(-2)?.folderMillis);
    expect(appliedSqliteMigrations(db)).toHaveLength(known.length - 2);
    expect(() => assertKnownSchema(appliedSqliteMigrations(db), FOLDER)).not.toThrow();
  });

  it('GIVEN a migration this build does not have, newer than its newest WHEN checked THEN refused naming it and saying what to do', () => {
    const db = migrated();
    db.prepare('insert into __drizzle_migrations (hash, created_at) values (?, ?)').run('f00dfeed'.repeat(8), newestKnown + 86_400_000);
    const check = (): void => assertKnownSchema(appliedSqliteMigrations(db), FOLDER);
    expect(check).toThrow(NewerSchemaError);
    expect(check).toThrow(`this database was upgraded by a newer version of the bot (migration of ${new Date(newestKnown + 86_400_000).toISOString()}, sha256 f00dfeedf00d; this version knows migrations up to ${new Date(newestKnown).toISOString()}): run that version or a later one, or restore a backup taken before the upgrade`);
    db.prepare('insert into __drizzle_migrations (hash, created_at) values (?, ?)').run('beef', newestKnown + 2 * 86_400_000);
    expect(check).toThrow(/migration of .*, sha256 beef, and 1 more;/);
  });

  it('GIVEN an unknown migration older than the newest known (a branch never merged) THEN it passes, as drizzle itself would', () => {
    const db = migrated();
    db.prepare('insert into __drizzle_migrations (hash, created_at) values (?, ?)').run('0ld', newestKnown - 1);
    expect(() => assertKnownSchema(appliedSqliteMigrations(db), FOLDER)).not.toThrow();
  });

  it('GIVEN the newest migration with an edited file (another hash, same time) THEN it passes: the time is the migration', () => {
    const db = migrated();
    db.prepare('update __drizzle_migrations set hash = ? where created_at = ?').run('edited', newestKnown);
    expect(() => assertKnownSchema(appliedSqliteMigrations(db), FOLDER)).not.toThrow();
  });
});

describe('openDatabase refuses a database a newer version upgraded', () => {
  it('GIVEN a database file with a newer migration WHEN opened THEN NewerSchemaError, and the file is left as it was; without it, it opens', () => {
    const dir = mkdtempSync(join(tmpdir(), 'valormr-newer-'));
    try {
      const file = join(dir, 'bot.db');
      const db = openDatabase(file);
      rawSqlite(db).prepare('insert into __drizzle_migrations (hash, created_at) values (?, ?)').run('5ca1ab1e'.repeat(8), newestKnown + 1);
      closeDatabase(db);
      expect(() => openDatabase(file)).toThrow(NewerSchemaError);
      expect(() => openDatabase(file)).toThrow(/^this database was upgraded by a newer version of the bot \(migration of .*sha256 5ca1ab1e5ca1/);
      const raw = new BetterSqlite3(file);
      expect(appliedSqliteMigrations(raw)).toHaveLength(known.length + 1);
      raw.prepare('delete from __drizzle_migrations where created_at > ?').run(newestKnown);
      raw.close();
      closeDatabase(openDatabase(file));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
