import { asc, type Column, count, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import type { Database, Orm, Tables } from './client.js';
import { oneOff } from './prepared.js';
import * as schema from './schema.js';

/**
 * Whole-database copying for `npm run db:copy` (src/app/storeCopy.ts): every table of the schema, read
 * and written through Drizzle so each value is mapped by its column on both stores (a JSON column
 * written back as the same text, a boolean as the store keeps it), ids kept.
 */

/** A table's key in the schema (what `db.tables` is indexed by: schema.ts exports tables only). */
export type TableKey = keyof Tables;

const isTableKey = (k: string): k is TableKey => k in schema;

/**
 * Every table, parents before the tables that refer to them (foreign keys), so rows can be
 * inserted in this order with the keys checked; ties in the order of schema.ts.
 */
export function tablesInKeyOrder(): TableKey[] {
  const keys = Object.keys(schema).filter(isTableKey);
  const byName = new Map(keys.map((k) => [getTableConfig(schema[k]).name, k]));
  const parentsOf = (k: TableKey): TableKey[] => getTableConfig(schema[k]).foreignKeys
    .map((fk) => byName.get(getTableConfig(fk.reference().foreignTable).name))
    .filter((p): p is TableKey => p !== undefined && p !== k);
  const ordered: TableKey[] = [];
  const visit = (k: TableKey, path: readonly TableKey[]): void => {
    if (ordered.includes(k)) return;
    if (path.includes(k)) throw new Error(`foreign keys form a cycle: ${[...path, k].join(' -> ')}`);
    for (const p of parentsOf(k)) visit(p, [...path, k]);
    ordered.push(k);
  };
  for (const k of keys) visit(k, []);
  return ordered;
}

/** The SQL name of a table (`outbox_messages`). */
export function tableName(key: TableKey): string {
  return getTableConfig(schema[key]).name;
}

/** How many rows the table holds. */
export function rowCount(db: Database, key: TableKey): number {
  return oneOff(db, (q, t) => q.select({ n: count() }).from(t[key]).prepare()).get()?.n ?? 0;
}

/**
 * Every row of a table, in the order of its primary key (the same order on both stores): for
 * comparing two databases table by table.
 */
export function orderedRows(db: Database, key: TableKey): unknown[] {
  const order = primaryKey(db, key).map((k) => asc(k.column));
  return oneOff(db, (q, t) => q.select().from(t[key]).orderBy(...order).prepare()).all();
}

/** The campaigns a database holds (id and name), by id. */
export function campaignList(db: Database): { id: string; name: string }[] {
  return oneOff(db, (q, { campaigns: c }) => q.select({ id: c.id, name: c.name }).from(c).orderBy(asc(c.id)).prepare()).all();
}

/** Rows read per page by default: a table is copied a page at a time, never held whole in memory. */
const PAGE_ROWS = 1000;

/** A select of a whole table, as Drizzle builds it: what paging adds to it. */
interface PagedSelect<R> {
  where(after: SQL | undefined): { orderBy(...order: SQL[]): { limit(rows: number): { prepare(): { all(): R[] } } } };
}

/** A table's primary key: its columns in key order, and each one's name in the rows Drizzle gives. */
function primaryKey(db: Database, key: TableKey): { column: Column; field: string }[] {
  const config = getTableConfig(schema[key]);
  const names = config.primaryKeys[0]?.columns.map((c) => c.name) ?? config.columns.filter((c) => c.primary).map((c) => c.name);
  const fields = Object.entries(getTableColumns(db.tables[key]));
  return names.map((name) => {
    const found = fields.find(([, c]) => c.name === name);
    if (!found) throw new Error(`table ${config.name}: no column ${name} of its primary key`);
    return { column: found[1], field: found[0] };
  });
}

/**
 * Every row a select of table `key` gives (as its columns map them), a page at a time in the order
 * of its primary key (each page starts after the last key of the one before, so a page costs
 * O(log n) to find), each page handed to `each`; how many rows in all.
 */
function pages<R extends Record<string, unknown>>(db: Database, key: TableKey, pageRows: number, select: (q: Orm) => PagedSelect<R>, each: (rows: R[]) => void): number {
  const pk = primaryKey(db, key);
  const order = pk.map((k) => asc(k.column));
  const columns = sql.join(pk.map((k) => k.column), sql`, `);
  let last: R | undefined;
  let total = 0;
  for (;;) {
    const from = last;
    const after = from === undefined ? undefined : sql`(${columns}) > (${sql.join(pk.map((k) => sql`${from[k.field]}`), sql`, `)})`;
    const page = oneOff(db, (q) => select(q).where(after).orderBy(...order).limit(pageRows).prepare()).all();
    if (page.length > 0) each(page);
    total += page.length;
    if (page.length < pageRows) return total;
    last = page[page.length - 1];
  }
}

/** Bound values per insert: well under either store's limit for one statement. */
const BATCH_ROWS = 200;

/** Copies table `key` a page at a time: read with `select` from one store, written with `insert` in batches to the other; how many rows. */
function copyRows<R extends Record<string, unknown>>(from: Database, to: Database, key: TableKey, pageRows: number, select: (q: Orm) => PagedSelect<R>, insert: (q: Orm, batch: R[]) => { prepare(): { run(): unknown } }): number {
  return pages(from, key, pageRows, select, (rows) => {
    for (let i = 0; i < rows.length; i += BATCH_ROWS) {
      const batch = rows.slice(i, i + BATCH_ROWS);
      oneOff(to, (q) => insert(q, batch).prepare()).run();
    }
  });
}

/**
 * How each table is copied from one store to the other: every row, every value as its column maps
 * it, ids included. One line a table, so the compiler checks each insert against its select, and
 * the type requires every table of the schema to be here.
 */
const COPY: { readonly [K in TableKey]: (from: Database, to: Database, pageRows: number) => number } = {
  campaigns: (f, t, n) => copyRows(f, t, 'campaigns', n, (q) => q.select().from(f.tables.campaigns), (q, b) => q.insert(t.tables.campaigns).values(b)),
  sides: (f, t, n) => copyRows(f, t, 'sides', n, (q) => q.select().from(f.tables.sides), (q, b) => q.insert(t.tables.sides).values(b)),
  armies: (f, t, n) => copyRows(f, t, 'armies', n, (q) => q.select().from(f.tables.armies), (q, b) => q.insert(t.tables.armies).values(b)),
  regiments: (f, t, n) => copyRows(f, t, 'regiments', n, (q) => q.select().from(f.tables.regiments), (q, b) => q.insert(t.tables.regiments).values(b)),
  individuals: (f, t, n) => copyRows(f, t, 'individuals', n, (q) => q.select().from(f.tables.individuals), (q, b) => q.insert(t.tables.individuals).values(b)),
  members: (f, t, n) => copyRows(f, t, 'members', n, (q) => q.select().from(f.tables.members), (q, b) => q.insert(t.tables.members).values(b)),
  notices: (f, t, n) => copyRows(f, t, 'notices', n, (q) => q.select().from(f.tables.notices), (q, b) => q.insert(t.tables.notices).values(b)),
  orders: (f, t, n) => copyRows(f, t, 'orders', n, (q) => q.select().from(f.tables.orders), (q, b) => q.insert(t.tables.orders).values(b)),
  weather: (f, t, n) => copyRows(f, t, 'weather', n, (q) => q.select().from(f.tables.weather), (q, b) => q.insert(t.tables.weather).values(b)),
  contacts: (f, t, n) => copyRows(f, t, 'contacts', n, (q) => q.select().from(f.tables.contacts), (q, b) => q.insert(t.tables.contacts).values(b)),
  contactEstimates: (f, t, n) => copyRows(f, t, 'contactEstimates', n, (q) => q.select().from(f.tables.contactEstimates), (q, b) => q.insert(t.tables.contactEstimates).values(b)),
  couriers: (f, t, n) => copyRows(f, t, 'couriers', n, (q) => q.select().from(f.tables.couriers), (q, b) => q.insert(t.tables.couriers).values(b)),
  events: (f, t, n) => copyRows(f, t, 'events', n, (q) => q.select().from(f.tables.events), (q, b) => q.insert(t.tables.events).values(b)),
  outboxMessages: (f, t, n) => copyRows(f, t, 'outboxMessages', n, (q) => q.select().from(f.tables.outboxMessages), (q, b) => q.insert(t.tables.outboxMessages).values(b)),
  ticks: (f, t, n) => copyRows(f, t, 'ticks', n, (q) => q.select().from(f.tables.ticks), (q, b) => q.insert(t.tables.ticks).values(b)),
  knowledge: (f, t, n) => copyRows(f, t, 'knowledge', n, (q) => q.select().from(f.tables.knowledge), (q, b) => q.insert(t.tables.knowledge).values(b)),
  interactionClaims: (f, t, n) => copyRows(f, t, 'interactionClaims', n, (q) => q.select().from(f.tables.interactionClaims), (q, b) => q.insert(t.tables.interactionClaims).values(b)),
  journal: (f, t, n) => copyRows(f, t, 'journal', n, (q) => q.select().from(f.tables.journal), (q, b) => q.insert(t.tables.journal).values(b)),
};

/** Copies every row of a table from one store to the other (ids kept), `pageRows` rows read at a time; how many. */
export function copyTable(from: Database, to: Database, key: TableKey, pageRows = PAGE_ROWS): number {
  if (!Number.isInteger(pageRows) || pageRows < 1) throw new Error(`pageRows must be a whole number of at least 1, not ${pageRows}`);
  return COPY[key](from, to, pageRows);
}
