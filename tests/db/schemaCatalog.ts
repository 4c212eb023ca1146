import type BetterSqlite3 from 'better-sqlite3';
import { byJson, byName, normSql, splitTopLevel, type TableShape } from './schemaShape.js';

/**
 * The tables a migrated database really has, read from its own catalog (SQLite's pragmas,
 * PostgreSQL's information_schema and pg_catalog), in the shape schemaShape.ts writes a schema
 * file's tables in. Drizzle's own bookkeeping table is left out.
 */

/** An index's column list and predicate from its CREATE INDEX text (`... ON t (a, f(b)) WHERE p`, or PostgreSQL's `USING btree (...)`). */
function parseIndexSql(createSql: string): { columns: string[]; where: string | null } {
  const on = createSql.search(/\s(ON|USING\s+\w+)\s/i);
  const open = createSql.indexOf('(', on);
  let depth = 0;
  let close = open;
  for (let i = open; i < createSql.length; i++) {
    depth += createSql[i] === '(' ? 1 : createSql[i] === ')' ? -1 : 0;
    if (depth === 0) {
      close = i;
      break;
    }
  }
  const rest = createSql.slice(close + 1);
  const where = /\bWHERE\b(.*)$/is.exec(rest);
  return { columns: splitTopLevel(createSql.slice(open + 1, close)).map(normSql), where: where?.[1] === undefined ? null : normSql(where[1]) };
}

interface SqliteColumn { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }
interface SqliteForeignKey { id: number; table: string; from: string; to: string; on_delete: string }
interface SqliteIndex { name: string; unique: number; origin: string }

export function sqliteCatalog(db: BetterSqlite3.Database): TableShape[] {
  const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name").pluck().all() as string[];
  return tables.map((name) => {
    const columns = db.prepare('select * from pragma_table_info(?) order by cid').all(name) as SqliteColumn[];
    const fks = db.prepare('select * from pragma_foreign_key_list(?) order by id, seq').all(name) as SqliteForeignKey[];
    const ids = [...new Set(fks.map((f) => f.id))];
    const indexes = (db.prepare('select * from pragma_index_list(?)').all(name) as SqliteIndex[]).filter((i) => i.origin === 'c');
    return {
      name,
      columns: columns.map((c) => ({ name: c.name, type: c.type.toLowerCase(), notNull: c.notnull === 1, default: c.dflt_value === null ? null : normSql(c.dflt_value) })),
      primaryKey: columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      foreignKeys: ids.map((id) => {
        const parts = fks.filter((f) => f.id === id);
        return { columns: parts.map((f) => f.from), foreignTable: parts[0]?.table ?? '', foreignColumns: parts.map((f) => f.to), onDelete: (parts[0]?.on_delete ?? '').toLowerCase() };
      }).sort(byJson),
      indexes: indexes.map((i) => {
        const createSql = db.prepare("select sql from sqlite_master where type = 'index' and name = ?").pluck().get(i.name) as string;
        return { name: i.name, unique: i.unique === 1, ...parseIndexSql(createSql) };
      }).sort(byName),
    };
  });
}

/** Runs one query and gives its rows as arrays (PgBridge's `query` is this). */
export type PgQuery = (text: string, params: readonly unknown[]) => { rows: unknown[][] };

const ON_DELETE: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

const PG_COLUMNS = `select table_name, column_name, data_type, collation_name, is_nullable, column_default
  from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`;
const PG_PRIMARY_KEYS = `select t.relname, a.attname from pg_index x
  join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
  cross join lateral unnest(x.indkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
  where n.nspname = 'public' and x.indisprimary order by t.relname, k.n`;
const PG_FOREIGN_KEYS = `select c.conrelid::regclass::text, c.confrelid::regclass::text, c.confdeltype::text,
  (select string_agg(a.attname, ',' order by k.n) from unnest(c.conkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum),
  (select string_agg(a.attname, ',' order by k.n) from unnest(c.confkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum)
  from pg_constraint c where c.contype = 'f' and c.connamespace = 'public'::regnamespace`;
const PG_INDEXES = `select t.relname, i.relname, x.indisunique, pg_get_indexdef(x.indexrelid) from pg_index x
  join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
  where n.nspname = 'public' and not x.indisprimary`;

const str = (v: unknown): string => String(v);

export function postgresCatalog(query: PgQuery): TableShape[] {
  const shapes = new Map<string, TableShape>();
  const shape = (name: string): TableShape => {
    let s = shapes.get(name);
    if (s === undefined) shapes.set(name, (s = { name, columns: [], primaryKey: [], foreignKeys: [], indexes: [] }));
    return s;
  };
  for (const [table, name, type, collation, nullable, dflt] of query(PG_COLUMNS, []).rows) {
    const collated = collation === null ? '' : ` COLLATE "${str(collation)}"`;
    shape(str(table)).columns.push({ name: str(name), type: `${str(type)}${collated}`, notNull: nullable === 'NO', default: dflt === null ? null : normSql(str(dflt)) });
  }
  for (const [table, column] of query(PG_PRIMARY_KEYS, []).rows) shape(str(table)).primaryKey.push(str(column));
  for (const [table, foreignTable, onDelete, columns, foreignColumns] of query(PG_FOREIGN_KEYS, []).rows) {
    shape(str(table)).foreignKeys.push({ columns: str(columns).split(','), foreignTable: str(foreignTable), foreignColumns: str(foreignColumns).split(','), onDelete: ON_DELETE[str(onDelete)] ?? str(onDelete) });
  }
  for (const [table, name, unique, def] of query(PG_INDEXES, []).rows) shape(str(table)).indexes.push({ name: str(name), unique: unique === true, ...parseIndexSql(str(def)) });
  return [...shapes.values()].map((s) => ({ ...s, foreignKeys: s.foreignKeys.sort(byJson), indexes: s.indexes.sort(byName) })).sort(byName);
}
