import { readMigrationFiles } from 'drizzle-orm/migrator';
import { type AppliedMigration, assertKnownSchema } from '../schemaVersion.js';
import type { PgBridge } from './bridge.js';
import { pgTransaction } from './transaction.js';

/** Any number, the same in every process: the advisory lock two processes starting at once migrate under. */
const MIGRATION_LOCK = 0x56616c6f; // "Valo"

/**
 * Brings a PostgreSQL database's schema up to date from `folder` (migrations-pg/), synchronously,
 * with drizzle's own bookkeeping (`drizzle.__drizzle_migrations`: each applied migration's hash and
 * `when`, as drizzle's pg migrator keeps it), in one transaction under an advisory lock, so two
 * processes starting at once migrate once. A database a newer bot upgraded is refused first.
 */
export function migratePostgres(bridge: PgBridge, folder: string): void {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  pgTransaction(bridge, 'write', () => {
    bridge.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    bridge.query('CREATE SCHEMA IF NOT EXISTS drizzle', []);
    bridge.query('CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)', []);
    const applied: AppliedMigration[] = bridge.query('SELECT hash, created_at FROM drizzle.__drizzle_migrations', []).rows
      .map((row) => ({ hash: String(row[0]), createdAt: Number(row[1]) }));
    assertKnownSchema(applied, folder);
    const last = Math.max(0, ...applied.map((m) => m.createdAt));
    for (const m of migrations) {
      if (m.folderMillis <= last) continue;
      for (const statement of m.sql) if (statement.trim() !== '') bridge.query(statement, []);
      bridge.query('INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)', [m.hash, m.folderMillis]);
    }
  });
}
