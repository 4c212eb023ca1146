import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeDatabase, openDatabase } from '../../src/db/client.js';
import { openPgBridge, type PgBridge } from '../../src/db/pg/bridge.js';
import { freshPostgresDatabase, testPostgresUrl } from './postgres.js';

/**
 * Which store the app, scenario and real-process suites run on. Vitest runs them twice (the
 * projects in vitest.config.ts): on SQLite, and on PostgreSQL with VALORMR_TEST_STORE=postgres.
 * The harnesses ask `testStore()` for their database instead of naming ':memory:' or a file.
 */
export const onPostgres = (): boolean => process.env.VALORMR_TEST_STORE === 'postgres';

let admin: PgBridge | undefined;
let template: string | undefined;
const made: string[] = [];

/** The database name in a PostgreSQL URL. */
const nameOf = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));

/** migrations-pg's files, hashed: the template's name changes with the schema. */
function migrationsHash(): string {
  const folder = fileURLToPath(new URL('../../migrations-pg', import.meta.url));
  const hash = createHash('sha256');
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(folder, file);
    if (statSync(path).isFile()) hash.update(`${file}\n`).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The migrated template database of this run's server, made once for every test process (not once
 * per test file: a migration costs about a second, a copy a tenth of that). The first process to
 * ask migrates a database of its own under an advisory lock and renames it to the template's name
 * when the migration is done, so a process sees either no template or a whole one; the others wait
 * on the lock. Named after migrations-pg's contents, so a changed schema gets a new template; it
 * lives as long as the server (the run's throwaway cluster; on a server given by
 * VALORMR_TEST_PG_URL one database a schema version, `valormr_test_template_<hash>`, is left).
 */
function migratedTemplate(bridge: PgBridge): string {
  if (template !== undefined) return template;
  const name = `valormr_test_template_${migrationsHash()}`;
  const exists = (): boolean => bridge.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]).rows.length > 0;
  if (!exists()) {
    bridge.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      if (!exists()) {
        const url = freshPostgresDatabase();
        closeDatabase(openDatabase(url));
        bridge.query(`ALTER DATABASE ${nameOf(url)} RENAME TO ${name}`, []);
      }
    } finally {
      bridge.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  }
  template = name;
  return name;
}

/** The advisory lock key the template's maker holds (any number the app never takes). */
const TEMPLATE_LOCK = 7_305_111;

/**
 * A new PostgreSQL database with the schema in place: a copy (CREATE DATABASE ... TEMPLATE) of the
 * run's migrated template, far cheaper than migrating each. Dropped after the file's tests (the
 * cluster holds thousands of harnesses' databases otherwise).
 */
function migratedPostgresDatabase(): string {
  admin ??= openPgBridge(testPostgresUrl());
  const source = migratedTemplate(admin);
  const url = new URL(testPostgresUrl());
  const name = `t_${process.pid}_c${made.length + 1}_${Math.random().toString(36).slice(2, 8)}`;
  admin.query(`CREATE DATABASE ${name} TEMPLATE ${source}`, []);
  made.push(name);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops the databases this file's tests made (not the run's template): called after each test
 * file by the postgres project's setup file (tests/setup/dropTestDatabases.ts), which runs for every
 * file even when files share their modules.
 */
export function dropTestDatabases(): void {
  // WITH (FORCE): a test that left its app open does not keep its database.
  for (const name of made.splice(0).reverse()) admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, []);
}

/** A new, empty store for a test's app: an in-memory SQLite database, or on the PostgreSQL leg a new PostgreSQL database. */
export function testStore(): string {
  return onPostgres() ? migratedPostgresDatabase() : ':memory:';
}

/** The store for a test that shares one database between processes: the SQLite file `path`, or on the PostgreSQL leg a new PostgreSQL database. */
export function sharedTestStore(path: string): string {
  return onPostgres() ? migratedPostgresDatabase() : path;
}

/** The environment that points a bot process at `target` (a testStore()/sharedTestStore() answer): DATABASE_URL for PostgreSQL, DATABASE_PATH for a SQLite file. */
export function storeEnv(target: string): { DATABASE_URL: string } | { DATABASE_PATH: string } {
  return /^postgres(ql)?:\/\//.test(target) ? { DATABASE_URL: target } : { DATABASE_PATH: target };
}
