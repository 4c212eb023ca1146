import { type Column, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database } from './client.js';

/**
 * The few SQL fragments the two stores spell differently (JSON inside a text column). Everything
 * else is Drizzle's, which writes each store's own SQL from the same builder calls.
 */

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
