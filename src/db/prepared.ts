import type BetterSqlite3 from 'better-sqlite3';
import { type Column, Param, sql, type SQL } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * The one way src/db talks to the database: Drizzle queries built from schema.ts (so every column
 * is checked by the compiler and every row type is inferred), each prepared once per connection
 * and then only run. The hot reads and writes (loading and saving a campaign, appending events,
 * queuing and claiming messages) run hundreds of times a tick, and building and preparing their
 * SQL each time cost more than running it. Statements are prepared on the connection itself, so
 * they run inside whatever transaction is open on it.
 *
 * `perConnection(build)` gives a function that returns `build(db)`'s prepared query, built on the
 * first call for each connection.
 */
export function perConnection<Q>(build: (db: Database) => Q): (db: Database) => Q {
  const cache = new WeakMap<BetterSqlite3.Database, Q>();
  return (db) => {
    let query = cache.get(db.$client);
    if (query === undefined) {
      query = build(db);
      cache.set(db.$client, query);
    }
    return query;
  };
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
  const rows: unknown[] = db.$client.prepare(`explain query plan ${q.sql}`).all(...params);
  return rows.map((r) => (typeof r === 'object' && r !== null && 'detail' in r ? String(r.detail) : ''));
}
