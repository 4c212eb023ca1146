import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { getTableColumns, type Table } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as lite from '../../src/db/schema.js';
import * as pg from '../../src/db/schemaPg.js';
import { openPgBridge } from '../../src/db/pg/bridge.js';
import { migratePostgres } from '../../src/db/pg/migrate.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { postgresCatalog, sqliteCatalog } from './schemaCatalog.js';
import { byName, columnFacts, shapeOfSchema, tablesOf, type TableShape } from './schemaShape.js';

/**
 * src/db/schema.ts (SQLite) and src/db/schemaPg.ts (PostgreSQL) describe one database: the same
 * exported tables with the same column keys, SQL names, nullability, defaults, keys, foreign keys and
 * indexes (partial and expression ones included), each column carrying the same JS value class and,
 * for the compiler, the same row types; a JSON column writes the same text on both. And each
 * dialect's generated migrations, applied to an empty database, give exactly the tables its schema
 * file describes (read back from the database's own catalog).
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const liteTables = tablesOf(lite, 'sqlite');
const pgTables = tablesOf(pg, 'postgres');

/** A shape without the dialect's column types: what the two files must agree on. */
const neutral = (s: TableShape) => ({ ...s, columns: s.columns.map(({ type: _type, ...c }) => c) });

/** A catalog lists the columns a later migration added last: its order is not the schema's. */
const columnsByName = (shapes: TableShape[]): TableShape[] => shapes.map((s) => ({ ...s, columns: [...s.columns].sort(byName) })).sort(byName);

const pairs = [...liteTables].map(([name, table]) => [name, table, pgTables.get(name)] as const);

// The compiler's half: every table's selected and inserted rows have the same type in both files.
type Rows<S, M extends '$inferSelect' | '$inferInsert'> = { [K in keyof S as S[K] extends Table ? K : never]: S[K] extends Table ? S[K][M] : never };
expectTypeOf<Rows<typeof pg, '$inferSelect'>>().toEqualTypeOf<Rows<typeof lite, '$inferSelect'>>();
expectTypeOf<Rows<typeof pg, '$inferInsert'>>().toEqualTypeOf<Rows<typeof lite, '$inferInsert'>>();

describe('the SQLite and PostgreSQL schema files', () => {
  it('export the same tables under the same names', () => {
    expect(liteTables.size).toBeGreaterThan(15);
    expect([...pgTables.keys()].sort()).toEqual([...liteTables.keys()].sort());
  });

  it.each(pairs)('%s: the same columns (key, SQL name, nullability, default, primary key, identity, JS value class)', (_name, liteTable, pgTable) => {
    expect(pgTable).toBeDefined();
    if (pgTable === undefined) return;
    expect(columnFacts(pgTable, 'postgres')).toEqual(columnFacts(liteTable, 'sqlite'));
  });

  it.each(pairs)('%s: the same primary key, foreign keys and indexes', (_name, liteTable, pgTable) => {
    if (pgTable === undefined) throw new Error('missing');
    expect(neutral(shapeOfSchema(pgTable, 'postgres'))).toEqual(neutral(shapeOfSchema(liteTable, 'sqlite')));
  });

  it('every PostgreSQL text column, JSON ones included, is text COLLATE "C" (byte order, like SQLite)', () => {
    const texts = [...pgTables.values()].flatMap((t) => columnFacts(t, 'postgres').filter((c) => c.kind === 'string' || c.kind === 'json').map((c) => ({ name: c.name, sql: getTableColumns(t)[c.key]?.getSQLType() })));
    expect(texts.length).toBeGreaterThan(100);
    for (const c of texts) expect(c, c.name).toEqual({ name: c.name, sql: 'text COLLATE "C"' });
  });

  it('a JSON column writes the same text and reads back the same value on both stores', () => {
    const columns = [...liteTables].flatMap(([name, t]) => columnFacts(t, 'sqlite').filter((c) => c.kind === 'json').map((c) => {
      const pgTable = pgTables.get(name);
      return [getTableColumns(t)[c.key], pgTable === undefined ? undefined : getTableColumns(pgTable)[c.key]] as const;
    }));
    expect(columns.length).toBeGreaterThan(25);
    fc.assert(fc.property(fc.constantFrom(...columns), fc.jsonValue(), ([liteColumn, pgColumn], value) => {
      const text = liteColumn?.mapToDriverValue(value);
      expect(pgColumn?.mapToDriverValue(value)).toBe(text);
      expect(pgColumn?.mapFromDriverValue(text)).toEqual(liteColumn?.mapFromDriverValue(text));
    }));
  });
});

describe("each dialect's migrations, applied to an empty database, give its schema file's tables", () => {
  it('SQLite: migrations/ gives schema.ts', () => {
    const sqlite = new BetterSqlite3(':memory:');
    try {
      migrate(drizzle(sqlite), { migrationsFolder: resolve(ROOT, 'migrations') });
      const expected = [...liteTables.values()].map((t) => shapeOfSchema(t, 'sqlite'));
      expect(columnsByName(sqliteCatalog(sqlite))).toEqual(columnsByName(expected));
    } finally {
      sqlite.close();
    }
  });

  it('PostgreSQL: migrations-pg/ gives schemaPg.ts', () => {
    const bridge = openPgBridge(freshPostgresDatabase());
    try {
      migratePostgres(bridge, resolve(ROOT, 'migrations-pg'));
      const expected = [...pgTables.values()].map((t) => shapeOfSchema(t, 'postgres'));
      expect(columnsByName(postgresCatalog((text, params) => bridge.query(text, params)))).toEqual(columnsByName(expected));
    } finally {
      bridge.close();
    }
  });
});
