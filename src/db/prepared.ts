import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from './client.js';

/**
 * Prepared statements, cached per connection: the hot reads and writes (loading and saving a
 * campaign, appending events, queuing and claiming messages) run hundreds of times a tick, and
 * building and preparing their SQL each time cost more than running it. Statements are prepared
 * on the connection itself, so they run inside whatever transaction is open on it.
 */
const caches = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

export function prepared(db: Database, sql: string): BetterSqlite3.Statement {
  const client = db.$client;
  let cache = caches.get(client);
  if (!cache) {
    cache = new Map();
    caches.set(client, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = client.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

const queries = new WeakMap<BetterSqlite3.Database, Map<string, unknown>>();

/**
 * A Drizzle query prepared once per connection (its SQL built and prepared on first use, then only
 * run): typed by the schema like any Drizzle query, with `sql.placeholder(...)` for its values.
 * `key` names the query; `build` makes it from the connection.
 */
export function preparedQuery<Q>(db: Database, key: string, build: (db: Database) => Q): Q {
  const client = db.$client;
  let cache = queries.get(client);
  if (!cache) {
    cache = new Map();
    queries.set(client, cache);
  }
  let query = cache.get(key) as Q | undefined;
  if (query === undefined) {
    query = build(db);
    cache.set(key, query);
  }
  return query;
}

/** A JSON column's stored text, parsed (null stays null). */
export const fromJson = <T>(text: string | null): T => (text === null ? null : JSON.parse(text)) as T;
