import { closeDatabase, openDatabase } from '../../src/db/client.js';
import { openPgBridge, type PgBridge } from '../../src/db/pg/bridge.js';
import { freshPostgresDatabase, testPostgresUrl } from './postgres.js';

/**
 * Which store the app, scenario and real-process suites run on. Vitest runs them twice (the
 * projects in vitest.config.ts): on SQLite, and on PostgreSQL with VALORMR_TEST_STORE=postgres.
 * The harnesses ask `testStore()` for their database instead of naming ':memory:' or a file.
 */
export const onPostgres = (): boolean => process.env.VALORMR_TEST_STORE === 'postgres';

let template: string | undefined;
let admin: PgBridge | undefined;
const made: string[] = [];

/** The database name in a PostgreSQL URL. */
const nameOf = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));

/**
 * A new PostgreSQL database with the schema in place: a copy of one migrated once per test file
 * (CREATE DATABASE ... TEMPLATE), far cheaper than migrating each. Dropped after the file's tests
 * (the cluster holds thousands of harnesses' databases otherwise).
 */
function migratedPostgresDatabase(): string {
  if (template === undefined) {
    const url = freshPostgresDatabase();
    closeDatabase(openDatabase(url));
    template = nameOf(url);
    made.push(template);
  }
  admin ??= openPgBridge(testPostgresUrl());
  const url = new URL(testPostgresUrl());
  const name = `${template}_${made.length}`;
  admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`, []);
  made.push(name);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops the databases this file's tests made (their template with them): called after each test
 * file by the postgres project's setup file (tests/setup/dropTestDatabases.ts), which runs for every
 * file even when files share their modules.
 */
export function dropTestDatabases(): void {
  // WITH (FORCE): a test that left its app open does not keep its database.
  for (const name of made.splice(0).reverse()) admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, []);
  template = undefined;
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
