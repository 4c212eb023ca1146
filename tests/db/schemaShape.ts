import { type Column, getTableColumns, getTableName, is, SQL, type Table } from 'drizzle-orm';
import { getTableConfig as pgTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, SQLiteSyncDialect, SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * One table as a database holds it, in a form both dialects and both sources (a schema file read
 * through drizzle's getTableConfig, a migrated database's catalog) can be written in and compared:
 * SQL fragments (defaults, index expressions and predicates) are normalised by `normSql`.
 */
export interface TableShape {
  name: string;
  columns: { name: string; type: string; notNull: boolean; default: string | null }[];
  primaryKey: string[];
  foreignKeys: { columns: string[]; foreignTable: string; foreignColumns: string[]; onDelete: string }[];
  indexes: { name: string; unique: boolean; columns: string[]; where: string | null }[];
}

/** A column as the code sees it: the dialect-neutral facts two schema files must agree on. */
export interface ColumnFacts {
  key: string;
  name: string;
  notNull: boolean;
  default: string | null;
  primary: boolean;
  identity: boolean;
  /** The JS value class the column reads and writes: 'string', 'json', 'number' or 'boolean'. */
  kind: string;
}

export type Dialect = 'sqlite' | 'postgres';

/**
 * An SQL fragment in one spelling whatever wrote it: no quotes, no table qualifiers, no casts, no
 * spaces, lower case, without one pair of outer parentheses. `coalesce("outbox_messages"."user_id", '')`,
 * `COALESCE(user_id, ''::text)` and `(coalesce(user_id,''))` are all `coalesce(user_id,'')`.
 */
export function normSql(text: string): string {
  // String literals (odd pieces) are kept as they are; only the SQL around them is normalised.
  const pieces = text.split(/('(?:[^']|'')*')/);
  const s = pieces.map((p, i) => (i % 2 === 1 ? p : p.replace(/::[a-z ]+/g, '').replace(/["`]/g, '').replace(/\b[a-z_]+\.(?=[a-z_])/g, '').replace(/\s+/g, '').toLowerCase())).join('');
  return /^\(.*\)$/.test(s) && balanced(s.slice(1, -1)) ? s.slice(1, -1) : s;
}

function balanced(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Splits an index's column list at its top-level commas. */
export function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (const ch of list) {
    if (ch === "'") quoted = !quoted;
    if (!quoted) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    if (ch === ',' && depth === 0 && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  return [...parts, current];
}

const pgDialect = new PgDialect();
const sqliteDialect = new SQLiteSyncDialect();

function render(dialect: Dialect, fragment: SQL): string {
  const q = dialect === 'postgres' ? pgDialect.sqlToQuery(fragment) : sqliteDialect.sqlToQuery(fragment);
  if (q.params.length > 0) throw new Error(`a schema fragment with parameters: ${q.sql}`);
  return normSql(q.sql);
}

/** A column default as SQL text (what a catalog shows), normalised. */
function defaultSql(dialect: Dialect, value: unknown): string | null {
  if (value === undefined) return null;
  if (is(value, SQL)) return render(dialect, value);
  if (typeof value === 'string') return normSql(`'${value.replace(/'/g, "''")}'`);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`an unexpected default: ${JSON.stringify(value)}`);
}

/** The tables a schema module exports, by export name. */
export function tablesOf(schema: Record<string, unknown>, dialect: Dialect): Map<string, Table> {
  const kind = dialect === 'postgres' ? PgTable : SQLiteTable;
  return new Map(Object.entries(schema).filter((e): e is [string, Table] => is(e[1], kind)));
}

function config(table: Table, dialect: Dialect) {
  if (dialect === 'postgres' && is(table, PgTable)) return pgTableConfig(table);
  if (dialect === 'sqlite' && is(table, SQLiteTable)) return sqliteTableConfig(table);
  throw new Error(`${getTableName(table)} is not a ${dialect} table`);
}

/** What the JS side of a column carries, read from how the column encodes values. */
function kindOf(column: Column): string {
  // A packed row's bytes (src/db/packedText.ts): a Buffer on both stores.
  if (column.columnType === 'SQLiteBlobBuffer' || (column.columnType === 'PgCustomColumn' && column.getSQLType() === 'bytea')) return 'bytes';
  if (column.columnType === 'SQLiteTextJson') return 'json';
  if (column.columnType === 'SQLiteText' || column.columnType === 'PgText') return 'string';
  if (column.columnType === 'PgCustomColumn') return column.mapToDriverValue([1]) === '[1]' ? 'json' : 'string';
  if (column.dataType === 'number') return 'number';
  if (column.dataType === 'boolean') return 'boolean';
  throw new Error(`${column.name}: a column type the parity test does not know (${column.columnType})`);
}

const isIdentity = (column: Column): boolean =>
  ('generatedIdentity' in column && column.generatedIdentity !== undefined) || ('autoIncrement' in column && column.autoIncrement === true);

/** The dialect-neutral facts of every column of a table, in the schema file's order. */
export function columnFacts(table: Table, dialect: Dialect): ColumnFacts[] {
  return Object.entries(getTableColumns(table)).map(([key, c]) => ({
    key, name: c.name, notNull: c.notNull, default: defaultSql(dialect, c.default), primary: c.primary, identity: isIdentity(c), kind: kindOf(c),
  }));
}

/** A table as the schema file describes it, in the shape a catalog is read into. */
export function shapeOfSchema(table: Table, dialect: Dialect): TableShape {
  const cfg = config(table, dialect);
  const primary = cfg.columns.filter((c) => c.primary).map((c) => c.name);
  return {
    name: cfg.name,
    columns: cfg.columns.map((c) => ({ name: c.name, type: c.getSQLType(), notNull: c.notNull || c.primary, default: defaultSql(dialect, c.default) })),
    primaryKey: [...primary, ...cfg.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name))],
    foreignKeys: cfg.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return { columns: ref.columns.map((c) => c.name), foreignTable: getTableName(ref.foreignTable), foreignColumns: ref.foreignColumns.map((c) => c.name), onDelete: fk.onDelete ?? 'no action' };
    }).sort(byJson),
    indexes: cfg.indexes.map((i) => ({
      name: i.config.name ?? '',
      unique: i.config.unique,
      columns: i.config.columns.map((c) => (is(c, SQL) ? render(dialect, c) : 'name' in c ? normSql(String(c.name)) : '?')),
      where: i.config.where === undefined ? null : render(dialect, i.config.where),
    })).sort(byName),
  };
}

export const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
export const byJson = (a: unknown, b: unknown): number => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
