import { asc, type Column, count, getTableColumns } from 'drizzle-orm';
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
  const config = getTableConfig(schema[key]);
  const keyNames = config.primaryKeys[0]?.columns.map((c) => c.name) ?? config.columns.filter((c) => c.primary).map((c) => c.name);
  const columns: Column[] = Object.values(getTableColumns(db.tables[key]));
  const order = keyNames.map((n) => columns.find((c) => c.name === n)).filter((c) => c !== undefined).map((c) => asc(c));
  return oneOff(db, (q, t) => q.select().from(t[key]).orderBy(...order).prepare()).all();
}

/** The campaigns a database holds (id and name), by id. */
export function campaignList(db: Database): { id: string; name: string }[] {
  return oneOff(db, (q, { campaigns: c }) => q.select({ id: c.id, name: c.name }).from(c).orderBy(asc(c.id)).prepare()).all();
}

/** Every row a select gives (as its columns map them). */
function take<R>(db: Database, select: (q: Orm) => { prepare(): { all(): R[] } }): R[] {
  return oneOff(db, (q) => select(q).prepare()).all();
}

/** Bound values per insert: well under either store's limit for one statement. */
const BATCH_ROWS = 200;

/** Inserts `rows` in batches with `insert`; how many. */
function put<R>(db: Database, insert: (q: Orm, batch: R[]) => { prepare(): { run(): unknown } }, rows: R[]): number {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const batch = rows.slice(i, i + BATCH_ROWS);
    oneOff(db, (q) => insert(q, batch).prepare()).run();
  }
  return rows.length;
}

/**
 * How each table is copied from one store to the other: every row, every value as its column maps
 * it, ids included. One line a table, so the compiler checks each insert against its select, and
 * the type requires every table of the schema to be here.
 */
const COPY: { readonly [K in TableKey]: (from: Database, to: Database) => number } = {
  campaigns: (f, t) => put(t, (q, b) => q.insert(t.tables.campaigns).values(b), take(f, (q) => q.select().from(f.tables.campaigns))),
  sides: (f, t) => put(t, (q, b) => q.insert(t.tables.sides).values(b), take(f, (q) => q.select().from(f.tables.sides))),
  armies: (f, t) => put(t, (q, b) => q.insert(t.tables.armies).values(b), take(f, (q) => q.select().from(f.tables.armies))),
  regiments: (f, t) => put(t, (q, b) => q.insert(t.tables.regiments).values(b), take(f, (q) => q.select().from(f.tables.regiments))),
  individuals: (f, t) => put(t, (q, b) => q.insert(t.tables.individuals).values(b), take(f, (q) => q.select().from(f.tables.individuals))),
  members: (f, t) => put(t, (q, b) => q.insert(t.tables.members).values(b), take(f, (q) => q.select().from(f.tables.members))),
  notices: (f, t) => put(t, (q, b) => q.insert(t.tables.notices).values(b), take(f, (q) => q.select().from(f.tables.notices))),
  orders: (f, t) => put(t, (q, b) => q.insert(t.tables.orders).values(b), take(f, (q) => q.select().from(f.tables.orders))),
  weather: (f, t) => put(t, (q, b) => q.insert(t.tables.weather).values(b), take(f, (q) => q.select().from(f.tables.weather))),
  contacts: (f, t) => put(t, (q, b) => q.insert(t.tables.contacts).values(b), take(f, (q) => q.select().from(f.tables.contacts))),
  contactEstimates: (f, t) => put(t, (q, b) => q.insert(t.tables.contactEstimates).values(b), take(f, (q) => q.select().from(f.tables.contactEstimates))),
  couriers: (f, t) => put(t, (q, b) => q.insert(t.tables.couriers).values(b), take(f, (q) => q.select().from(f.tables.couriers))),
  events: (f, t) => put(t, (q, b) => q.insert(t.tables.events).values(b), take(f, (q) => q.select().from(f.tables.events))),
  outboxMessages: (f, t) => put(t, (q, b) => q.insert(t.tables.outboxMessages).values(b), take(f, (q) => q.select().from(f.tables.outboxMessages))),
  ticks: (f, t) => put(t, (q, b) => q.insert(t.tables.ticks).values(b), take(f, (q) => q.select().from(f.tables.ticks))),
  knowledge: (f, t) => put(t, (q, b) => q.insert(t.tables.knowledge).values(b), take(f, (q) => q.select().from(f.tables.knowledge))),
  interactionClaims: (f, t) => put(t, (q, b) => q.insert(t.tables.interactionClaims).values(b), take(f, (q) => q.select().from(f.tables.interactionClaims))),
  journal: (f, t) => put(t, (q, b) => q.insert(t.tables.journal).values(b), take(f, (q) => q.select().from(f.tables.journal))),
};

/** Copies every row of a table from one store to the other (ids kept); how many. */
export function copyTable(from: Database, to: Database, key: TableKey): number {
  return COPY[key](from, to);
}
