import { entityKind, extractTablesRelationalConfig, createTableRelationsHelpers, type ExtractTablesWithRelations, type Query, type TablesRelationalConfig } from 'drizzle-orm';
import {
  PgDatabase,
  PgDialect,
  PgPreparedQuery,
  PgSession,
  type PgQueryResultHKT,
  type PreparedQueryConfig,
  type SelectedFieldsOrdered,
} from 'drizzle-orm/pg-core';
import { mapResultRow } from 'drizzle-orm';
import type { PgBridge, PgResult } from './bridge.js';
import { fillParams } from '../fillParams.js';

/**
 * Drizzle's PostgreSQL dialect over the synchronous bridge: the query builders are Drizzle's own
 * (pg-core), and a prepared query runs at once with the same methods as a better-sqlite3 Drizzle
 * prepared query (`all`, `get`, `run`, `values`), so the repositories' statements run alike on
 * both stores. Rows are mapped by Drizzle's `mapResultRow` / relational mapper, as Drizzle's own
 * pg drivers do (drizzle-orm/pg-proxy/session.js is the async original).
 */

// Drizzle exports mapResultRow at run time (its drivers use it) without declaring it.
declare module 'drizzle-orm' {
  export function mapResultRow<TResult>(columns: SelectedFieldsOrdered, row: unknown[], joinsNotNullableMap: Record<string, boolean> | undefined): TResult;
}

/** What a raw `execute` gives back: the bridge's result. */
export interface SyncPgQueryResultHKT extends PgQueryResultHKT {
  type: PgResult;
}

/** pg-core keeps a prepared query's result type in `execute` (rows for a select or a returning). */
type RowsOf<T extends PreparedQueryConfig> = T['execute'];
type RowOf<T extends PreparedQueryConfig> = T['execute'] extends readonly (infer R)[] ? R : never;

/** A prepared query that runs synchronously over the bridge. */
export class SyncPgPreparedQuery<T extends PreparedQueryConfig> extends PgPreparedQuery<T> {
  static override readonly [entityKind]: string = 'SyncPgPreparedQuery';
  /** Set by Drizzle's select builder after preparing: which joined tables may come back all-null. */
  declare joinsNotNullableMap: Record<string, boolean> | undefined;

  constructor(
    private readonly bridge: PgBridge,
    query: Query,
    private readonly fields: SelectedFieldsOrdered | undefined,
    private readonly customResultMapper: ((rows: unknown[][]) => T['execute']) | undefined,
  ) {
    super(query, undefined, undefined, undefined);
  }

  /** Every row, mapped to the selection's shape (raw arrays when the query selects nothing typed). */
  all(placeholderValues?: Record<string, unknown>): RowsOf<T>;
  all(placeholderValues?: Record<string, unknown>): unknown {
    const rows = this.values(placeholderValues);
    if (this.customResultMapper) return this.customResultMapper(rows);
    const { fields } = this;
    if (!fields) return rows;
    return rows.map((row) => mapResultRow<RowOf<T>>(fields, row, this.joinsNotNullableMap));
  }

  /**
   * The first row, mapped, or undefined when there is none. (Drizzle's types give no row type to a
   * relational query's or a raw query's rows: the signature says what they are.)
   */
  get(placeholderValues?: Record<string, unknown>): RowOf<T> | undefined;
  get(placeholderValues?: Record<string, unknown>): unknown {
    const [row] = this.values(placeholderValues);
    if (row === undefined) return undefined;
    if (this.customResultMapper) return this.customResultMapper([row]);
    const { fields } = this;
    if (!fields) return row;
    return mapResultRow<RowOf<T>>(fields, row, this.joinsNotNullableMap);
  }

  /** Runs the statement; `changes` is the number of rows it inserted, updated or deleted. */
  run(placeholderValues?: Record<string, unknown>): { changes: number; lastInsertRowid: 0 } {
    return { changes: this.result(placeholderValues).rowCount, lastInsertRowid: 0 };
  }

  /** The rows as arrays, columns in select order, values as the driver gives them. */
  values(placeholderValues?: Record<string, unknown>): unknown[][] {
    return this.result(placeholderValues).rows;
  }

  /** Drizzle's async entry (`await builder`, `db.execute(sql)`): the same, already done. */
  override async execute(placeholderValues?: Record<string, unknown>): Promise<T['execute']> {
    if (!this.fields && !this.customResultMapper) return this.result(placeholderValues);
    return this.all(placeholderValues);
  }

  /** Runs the statement with the transaction's next one, its answer unread (an error is thrown by that one, at the latest by COMMIT). */
  defer(placeholderValues?: Record<string, unknown>): void {
    const { sql, params } = this.query;
    this.bridge.defer(sql, fillParams(params, placeholderValues), statementName(sql));
  }

  /** Sends this read with the next statement and keeps its answer for the same call to come (PgBridge.prefetch). */
  prefetch(placeholderValues?: Record<string, unknown>): void {
    const { sql, params } = this.query;
    this.bridge.prefetch(sql, fillParams(params, placeholderValues), statementName(sql));
  }

  private result(placeholderValues: Record<string, unknown> | undefined): PgResult {
    const { sql, params } = this.query;
    return this.bridge.query(sql, fillParams(params, placeholderValues), statementName(sql));
  }

  /** @internal Drizzle's relational queries ask for array rows. */
  isResponseInArrayMode(): boolean {
    return true;
  }
}

class SyncPgSession<TFullSchema extends Record<string, unknown>, TSchema extends TablesRelationalConfig> extends PgSession<SyncPgQueryResultHKT, TFullSchema, TSchema> {
  static override readonly [entityKind]: string = 'SyncPgSession';

  constructor(
    private readonly bridge: PgBridge,
    dialect: PgDialect,
  ) {
    super(dialect);
  }

  prepareQuery<T extends PreparedQueryConfig = PreparedQueryConfig>(
    query: Query,
    fields: SelectedFieldsOrdered | undefined,
    _name: string | undefined,
    _isResponseInArrayMode: boolean,
    customResultMapper?: (rows: unknown[][]) => T['execute'],
  ): SyncPgPreparedQuery<T> {
    return new SyncPgPreparedQuery<T>(this.bridge, query, fields, customResultMapper);
  }

  override transaction(): Promise<never> {
    throw new Error("Drizzle's async transaction is not used: run a unit of work with pgTransaction (src/db/pg/transaction.ts)");
  }
}

export type SyncPgDatabase<S extends Record<string, unknown>> = PgDatabase<SyncPgQueryResultHKT, S, ExtractTablesWithRelations<S>>;

/** Drizzle's PgDatabase for `schema` whose prepared queries run synchronously over `bridge`. */
export function syncPgDrizzle<S extends Record<string, unknown>>(bridge: PgBridge, schema: S): SyncPgDatabase<S> {
  const dialect = new PgDialect();
  const relational = { fullSchema: schema, ...relationalConfig(schema) };
  const session = new SyncPgSession<S, ExtractTablesWithRelations<S>>(bridge, dialect);
  return new PgDatabase<SyncPgQueryResultHKT, S, ExtractTablesWithRelations<S>>(dialect, session, relational);
}

/** Drizzle's relational description of `schema` (its drivers build it the same way). */
function relationalConfig<S extends Record<string, unknown>>(schema: S): { schema: ExtractTablesWithRelations<S>; tableNamesMap: Record<string, string> };
function relationalConfig(schema: Record<string, unknown>): { schema: TablesRelationalConfig; tableNamesMap: Record<string, string> } {
  const config = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
  return { schema: config.tables, tableNamesMap: config.tableNamesMap };
}

/** The names statements are kept prepared under on each connection, by their text. */
const names = new Map<string, string>();
/**
 * Bounds the texts named: statements built for one call (an `in` list of any length) may each
 * have their own text; past this many, new texts run unnamed (parsed each time, as before).
 */
const MAX_NAMED = 1_000;

/**
 * The name the server keeps `text` prepared under (`v<n>`, one per distinct text in this process,
 * so two texts never share a name), parsed and planned once per connection instead of on every
 * run; undefined once MAX_NAMED texts are named.
 */
function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `v${names.size}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A Drizzle pg prepared query as the synchronous one it is (Drizzle's types promise only the
 * async `execute`): `syncPrepared(q.select().from(t).prepare()).all()`. Throws if `prepared` came
 * from another driver.
 */
export function syncPrepared<T extends PreparedQueryConfig>(prepared: PgPreparedQuery<T>): SyncPgPreparedQuery<T> {
  if (!(prepared instanceof SyncPgPreparedQuery)) throw new Error('syncPrepared: not a query of syncPgDrizzle');
  return prepared;
}
