import { rawSqlite, type Database } from '../../src/db/client.js';

/**
 * Plain SQL for tests that look at (or tamper with) the stored rows, on either store: `?`
 * placeholders (numbered `$1..` for PostgreSQL here), rows as arrays in select order. Write SQL
 * both stores accept (no json_extract, no pragma): tests that need SQLite itself use rawSqlite and
 * stay off the PostgreSQL leg (vitest.config.ts).
 */
export function sqlRows(db: Database, sql: string, ...params: unknown[]): unknown[][] {
  if (db.dialect === 'sqlite') {
    const statement = rawSqlite(db).prepare(sql);
    return statement.reader ? (statement.raw().all(...params) as unknown[][]) : (statement.run(...params), []);
  }
  let n = 0;
  return db.bridge.query(sql.replace(/\?/g, () => `$${++n}`), params).rows;
}

/** The first column of the first row (undefined when there is none). */
export function sqlValue(db: Database, sql: string, ...params: unknown[]): unknown {
  return sqlRows(db, sql, ...params)[0]?.[0];
}

/** A number from the first column of the first row: PostgreSQL gives count(*) and bigints as text. */
export function sqlNumber(db: Database, sql: string, ...params: unknown[]): number {
  return Number(sqlValue(db, sql, ...params));
}
