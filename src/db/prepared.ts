import { type Column, Param, sql, type SQL } from 'drizzle-orm';
import { PreparedQuery as SqlitePreparedQuery } from 'drizzle-orm/better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { type Database, type Orm, rawSqlite, type Tables } from './client.js';
import { fillParams } from './fillParams.js';
import { SyncPgPreparedQuery } from './pg/session.js';

/**
 * The one way src/db talks to the database: Drizzle queries built from schema.ts (so every column
 * is checked by the compiler and every row type is inferred), each prepared once per connection
 * and then only run. The hot reads and writes (loading and saving a campaign, appending events,
 * queuing and claiming messages) run hundreds of times a tick, and building and preparing their
 * SQL each time cost more than running it. Statements are prepared on the connection itself, so
 * they run inside whatever transaction is open on it.
 *
 * `perConnection(build)` gives a function that returns `build(q, t)`'s prepared query, built on the
 * first call for each connection. `q` is the store's Drizzle instance and `t` its tables: the same
 * builder calls run on SQLite (better-sqlite3) and on PostgreSQL (schemaPg.ts's tables through the
 * synchronous bridge, src/db/pg/). Both are typed as SQLite's: schemaPg.ts declares the same
 * tables, column keys and JS value types, which tests/db/schemaParity.test.ts holds it to.
 */
export function perConnection<Q>(build: (q: Orm, t: Tables, db: Database) => Q): (db: Database) => Q {
  const cache = new WeakMap<Database, Q>();
  return (db) => {
    let query = cache.get(db);
    if (query === undefined) {
      query = build(db.orm, db.tables, db);
      cache.set(db, query);
    }
    return query;
  };
}

/**
 * Runs a write whose answer nobody reads, in the open transaction: on PostgreSQL it goes to the
 * server with the transaction's next statement (one round trip for both), and its error is thrown
 * by that statement, at the latest by the COMMIT, so nothing of a failed transaction is kept; on
 * SQLite it runs at once. Statements after it in the transaction see what it wrote.
 */
export function runUnanswered(statement: { run(values?: Record<string, unknown>): unknown }, values?: Record<string, unknown>): void {
  if (statement instanceof SyncPgPreparedQuery) statement.defer(values);
  else if (statement instanceof SqlitePreparedQuery && hasInside(statement)) runSqlite(statement, values);
  else statement.run(values);
}

/** What Drizzle's better-sqlite3 query keeps of itself (private in its types): the driver's statement, its SQL and parameters. */
interface SqliteInside {
  readonly stmt: Statement;
  readonly query: { readonly sql: string; readonly params: readonly unknown[] };
  readonly logger: { logQuery(sql: string, params: unknown[]): void };
}

const hasInside = (q: object): q is SqliteInside => 'stmt' in q && 'query' in q && 'logger' in q;

/** Drizzle's `run` for better-sqlite3, its values filled by `fillParams` (the parameters' kinds known once per statement). */
function runSqlite(inside: SqliteInside, values: Record<string, unknown> | undefined): void {
  const params = fillParams(inside.query.params, values);
  inside.logger.logQuery(inside.query.sql, params);
  inside.stmt.run(...params);
}

type Write = { run(values?: Record<string, unknown>): unknown };

/**
 * Writes back rows the packing job just packed (src/app/packCold.ts), each with its `key` columns:
 * on PostgreSQL updated where they are (its VACUUM reuses the space a row leaves); on SQLite deleted,
 * then written again after the rows there are, so they fill fresh pages and the run's old pages go
 * to the free list for new rows (a row packed where it stood left its page half empty: SQLite never
 * merges a page that is a third full, and a long campaign's file grew to twice what it held: issue 25).
 * Answers how many rows.
 */
export function writeBackPacked<R extends { readonly packed: unknown }>(
  db: Database,
  rows: readonly R[],
  key: (row: R) => Record<string, unknown>,
  statements: { readonly update: (db: Database) => Write; readonly drop: (db: Database) => Write; readonly insert: (db: Database) => Write },
): number {
  if (db.dialect !== 'sqlite') {
    const update = statements.update(db);
    for (const r of rows) runUnanswered(update, { ...key(r), packed: r.packed });
    return rows.length;
  }
  const drop = statements.drop(db);
  const insert = statements.insert(db);
  for (const r of rows) runUnanswered(drop, key(r));
  for (const r of rows) runUnanswered(insert, r);
  return rows.length;
}

/**
 * Says that `statement` will be read with `values` shortly, in this transaction, before it writes:
 * on PostgreSQL the read goes with the next statement and the read itself is then answered without
 * a round trip (src/db/pg/bridge.ts `prefetch`); on SQLite nothing happens (a read costs
 * microseconds).
 */
export function readSoon(statement: object, values?: Record<string, unknown>): void {
  if (statement instanceof SyncPgPreparedQuery) statement.prefetch(values);
}

/**
 * A statement whose shape depends on the call (a list of values of any length): built and prepared
 * for this one call. Everything run per command or per tick is `perConnection` instead.
 */
export function oneOff<Q>(db: Database, build: (q: Orm, t: Tables) => Q): Q {
  return build(db.orm, db.tables);
}

/**
 * A value given when the prepared query runs (`sql.placeholder(name)`), stored the way `column`
 * stores it (a JSON column's value as JSON text, a boolean as 0 or 1); null stays SQL null. For
 * the values of inserts and updates (`.set()` takes no bare placeholder).
 */
export function bound(column: Column, name: string): SQL {
  const encoder = { mapToDriverValue: (v: unknown): unknown => (v === null || v === undefined ? null : column.mapToDriverValue(v)) };
  return sql`${new Param(sql.placeholder(name), encoder)}`;
}

/** The value an upsert's conflicting insert would have written to `column` (`excluded.<column>`). */
export const excluded = (column: Column): SQL => sql`excluded.${sql.identifier(column.name)}`;

/**
 * How SQLite runs a Drizzle-built query (EXPLAIN QUERY PLAN, one line a step): which indexes it
 * walks. Placeholders are bound as '' (the plan does not depend on the values).
 */
export function queryPlan(db: Database, query: { toSQL(): { sql: string; params: unknown[] } }): string[] {
  const q = query.toSQL();
  const params = q.params.map((v) => (typeof v === 'string' || typeof v === 'number' ? v : ''));
  // eslint-disable-next-line no-restricted-syntax -- the plan of a query built by Drizzle above, not SQL of its own
  const rows: unknown[] = rawSqlite(db).prepare(`explain query plan ${q.sql}`).all(...params);
  return rows.map((r) => (typeof r === 'object' && r !== null && 'detail' in r ? String(r.detail) : ''));
}

/** The largest value of an `integer` column on both stores (PostgreSQL's is 32-bit): an open upper bound for a range of ids. */
export const LAST_INTEGER = 2_147_483_647;

/** A truth value as either store returns it (SQLite 0 or 1, PostgreSQL a boolean): for `sql` fields' `mapWith`. */
export const isTrue = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';
