import { type Column, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * The few SQL fragments the two stores spell differently (JSON inside a text column). Everything
 * else is Drizzle's, which writes each store's own SQL from the same builder calls.
 */

/**
 * Whether the integer `column` is one of a list given as one value (`idList`): a statement prepared
 * once for lists of any length (the export checks ~230 kept parts' last rows at each export: a
 * statement built for each list's length cost more than running it).
 */
export function inIdList(db: Database, column: Column, list: Placeholder): SQL {
  return db.dialect === 'sqlite' ? sql`${column} in (select value from json_each(${list}))` : sql`${column} = any(${list}::integer[])`;
}

/** A list of integers as `inIdList` takes it: a JSON array on SQLite, an array literal on PostgreSQL. */
export function idList(db: Database, ids: readonly number[]): string {
  const inner = ids.map((id) => String(Math.trunc(id))).join(',');
  return db.dialect === 'sqlite' ? `[${inner}]` : `{${inner}}`;
}

/** Whether the JSON array of strings in `column` holds `value`. */
export function jsonArrayHas(db: Database, column: Column, value: Placeholder | string): SQL {
  return db.dialect === 'sqlite'
    ? sql`exists (select 1 from json_each(${column}) where value = ${value})`
    : sql`exists (select 1 from json_array_elements_text(${column}::json) as e(v) where e.v = ${value})`;
}

/** The number at top-level `key` of the JSON object in `column`, for comparing with a number. */
export function jsonNumber(db: Database, column: Column, key: string): SQL {
  return db.dialect === 'sqlite'
    ? sql`json_extract(${column}, ${`$.${key}`})`
    : sql`(${column}::json ->> ${key})::numeric`;
}

/**
 * After rows were inserted with their ids (`npm run db:copy`): each PostgreSQL identity column's
 * sequence is set past the largest id, so the next insert does not collide. SQLite needs nothing
 * (an AUTOINCREMENT key continues from the largest id inserted). The identity columns are read
 * from the catalog, so a new one is covered without a change here.
 */
export function resetIdentitySequences(db: Database): { table: string; column: string; next: number }[] {
  if (db.dialect === 'sqlite') return [];
  const identities = db.bridge.query(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY table_name, column_name", [],
  ).rows.map((r) => ({ table: String(r[0]), column: String(r[1]) }));
  return identities.map(({ table, column }) => {
    const t = `"${table.replaceAll('"', '""')}"`;
    const c = `"${column.replaceAll('"', '""')}"`;
    const row = db.bridge.query(`SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${c}), 0) + 1, false) FROM ${t}`, [t, column]).rows[0];
    return { table, column, next: Number(row?.[0]) };
  });
}
