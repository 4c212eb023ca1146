import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { closeDatabase, type Database, openDatabase, openExisting, readTransaction, writeTransaction } from '../db/client.js';
import { campaignList, copyTable, rowCount, tableName, tablesInKeyOrder } from '../db/copyTables.js';
import { resetIdentitySequences } from '../db/dialectSql.js';
import { OlderSchemaError } from '../db/schemaVersion.js';
import { hidePassword } from '../db/storeErrors.js';
import { openOrExplain } from '../databaseGuard.js';
import type { App } from './app.js';
import { campaignExportText } from './campaign/exportCampaign.js';
import { randomDice } from './dice/diceSource.js';
import { ManualClock, silentLogger } from './ports.js';
import { describeTarget, isPostgresTarget } from './storeTarget.js';

/**
 * `npm run db:copy -- FROM TO` (docs/deploy.md): a whole database copied from one store to another
 * (SQLite or PostgreSQL, either way), every table in foreign-key order, ids kept, in ONE transaction
 * on the target, checked before it commits: the rows of every table counted on both sides, and
 * every campaign's export (the document `/campaign export` gives, journal included) taken from the
 * target byte-equal to the one taken from the source. The replay of each copied campaign runs
 * after the commit (src/console/dbCopyMain.ts): replaying runs commands, which are asynchronous,
 * and the transaction is synchronous; since the target's exports equal the source's, a campaign
 * that does not replay on the target does not replay on the source either.
 */

/** A copy refused before anything was written: what is wrong, and what to do. */
export class CopyRefused extends Error {
  override readonly name = 'CopyRefused';
  constructor(message: string, readonly hint: string) {
    super(message);
  }
}

/** The copy did not come out equal to its source; its transaction was rolled back. */
export class CopyMismatch extends Error {
  override readonly name = 'CopyMismatch';
}

export interface CopyResult {
  /** Each table as copied, in the order copied. */
  readonly tables: readonly { readonly name: string; readonly rows: number }[];
  /** The campaigns copied (id and name), by id. */
  readonly campaigns: readonly { readonly id: string; readonly name: string }[];
}

const ACCEPTED = 'a SQLite file path, or a PostgreSQL URL postgres://USER:PASSWORD@HOST:5432/DATABASE (or postgresql://...)';

/** A FROM or TO that names no store the bot runs on, refused. */
function checkTarget(target: string, role: 'FROM' | 'TO'): void {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1];
  if (scheme !== undefined && !isPostgresTarget(target)) throw new CopyRefused(`${role} ${hideAny(target)}: ${scheme}:// is not a store the bot runs on`, `Give ${ACCEPTED}.`);
  if (isPostgresTarget(target) && !URL.canParse(target)) throw new CopyRefused(`${role} ${hideAny(target)} is not a well-formed URL`, 'A password with @, :, / or # must be percent-encoded (@ as %40).');
  if (target === '' || target === ':memory:') throw new CopyRefused(`${role} ${target === '' ? '(empty)' : target}: a database in memory is gone when the copy ends`, `Give ${ACCEPTED}.`);
}

/** A target as shown: a URL (of any scheme) with its password hidden, a file's full path. */
const hideAny = (target: string): string => (/^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? hidePassword(target) : describeTarget(target));

/** What makes two targets the same database: a server's host, port and database; a file's real path. */
function identity(target: string): string {
  if (isPostgresTarget(target)) {
    const u = new URL(target);
    return `pg ${u.hostname.toLowerCase()}:${u.port || '5432'}${decodeURIComponent(u.pathname)}`;
  }
  const full = resolve(target);
  return `file ${existsSync(full) ? realpathSync(full) : full}`;
}

/**
 * A store opened as it is (openExisting: never created, never migrated), or the OlderSchemaError
 * saying it is not at this build's schema; any other failure as openOrExplain explains it (a URL's
 * password hidden).
 */
function openIfCurrent(target: string): Database | OlderSchemaError {
  let older: OlderSchemaError | undefined;
  try {
    return openOrExplain(target, () => {
      try {
        return openExisting(target);
      } catch (err) {
        if (err instanceof OlderSchemaError) older = err;
        throw err;
      }
    });
  } catch (err) {
    if (older) return older;
    throw err;
  }
}

/** A store opened as it is, refused when it is missing or at an older schema with `upgrade` (what to do). */
function openAsItIs(target: string, label: string, upgrade: string): Database {
  if (!isPostgresTarget(target) && !existsSync(resolve(target))) {
    throw new CopyRefused(`${label}${resolve(target)}: there is no such file`, 'Give the path of the bot\'s database file (DATABASE_PATH; by default data/valormr.db), or a PostgreSQL URL. It is never created.');
  }
  const opened = openIfCurrent(target);
  if (opened instanceof OlderSchemaError) throw new CopyRefused(`${label}${hideAny(target)}: ${opened.message}`, upgrade);
  return opened;
}

/**
 * The target as it is, before anything is written to it: one the bot migrated to an older schema
 * is refused as it stands (migrating it first would change a database the copy then refuses, if
 * it holds rows). A new file, a database that was never migrated, or one at this build's schema
 * goes on (to be migrated, then refused unless empty).
 */
function refuseOlderTarget(to: string): void {
  if (!isPostgresTarget(to) && !existsSync(resolve(to))) return;
  const opened = openIfCurrent(to);
  if (!(opened instanceof OlderSchemaError)) return closeDatabase(opened);
  if (opened.neverMigrated) return;
  throw new CopyRefused(
    `TO ${hideAny(to)}: ${opened.message}; nothing was changed`,
    'Copy into a new, empty database. To use this one, start this version of the bot (or its console, `npm run console -- --db FILE_OR_URL`) on it once, which migrates it, stop it, make sure it holds no campaign, and copy again.',
  );
}

const UPGRADE = 'Upgrade it first: start this version of the bot (or its console, `npm run console -- --db FILE_OR_URL`) on it once, which migrates it, stop it, and';

/** Rows per table of the target; refused unless all are 0. */
function refuseNonEmpty(to: string, target: Database): void {
  const held = tablesInKeyOrder().map((k) => ({ name: tableName(k), rows: rowCount(target, k) })).filter((t) => t.rows > 0);
  if (held.length === 0) return;
  const campaigns = held.find((t) => t.name === 'campaigns')?.rows ?? 0;
  const others = held.filter((t) => t.name !== 'campaigns').map((t) => `${t.name} ${t.rows}`);
  const drop = isPostgresTarget(to)
    ? `dropdb and createdb it (dropdb -h HOST -U USER NAME && createdb -h HOST -U USER NAME)`
    : `move the file away (mv ${resolve(to)} ${resolve(to)}.old, with its -wal and -shm files)`;
  throw new CopyRefused(
    `the target ${hideAny(to)} already holds ${campaigns} campaign(s)${others.length > 0 ? ` and other rows (${others.join(', ')})` : ''}; nothing was copied`,
    `Copy into an empty database, or drop it first: ${drop}.`,
  );
}

/** An app over an open database, reading only, at a fixed clock (so two exports of one campaign are byte-equal). */
function readerApp(db: Database, at: Date): App {
  return { db, clock: new ManualClock(at), logger: silentLogger, dice: randomDice, statics: new Map() };
}

/** Where two texts first differ, for the message. */
function firstDifferenceAt(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Inside the copy's transaction: the same rows per table, and each campaign's export the same bytes, on both sides. */
function verify(source: Database, target: Database, campaigns: CopyResult['campaigns'], say: (line: string) => void): void {
  for (const k of tablesInKeyOrder()) {
    const [a, b] = [rowCount(source, k), rowCount(target, k)];
    if (a !== b) throw new CopyMismatch(`table ${tableName(k)}: ${a} row(s) in the source, ${b} in the copy`);
  }
  const at = new Date();
  const [fromApp, toApp] = [readerApp(source, at), readerApp(target, at)];
  for (const c of campaigns) {
    const [a, b] = [campaignExportText(fromApp, c.id), campaignExportText(toApp, c.id)];
    if (a !== b) {
      const i = firstDifferenceAt(a, b);
      throw new CopyMismatch(`campaign ${c.id} (${c.name}): its export from the copy differs from the source's at character ${i}: source …${a.slice(Math.max(0, i - 40), i + 40)}…, copy …${b.slice(Math.max(0, i - 40), i + 40)}…`);
    }
  }
  say(`checked: the same number of rows in every table on both sides; ${campaigns.length} campaign export(s) byte-equal`);
}

/** How a copy runs. */
export interface CopyOptions {
  /** Rows read from the source at a time (a table is never held whole in memory); 1,000 by default. */
  readonly pageRows?: number;
}

/**
 * Copies every table of the open `source` into the open, empty `target` in one transaction on the
 * target (a snapshot read of the source), verified before it commits; a CopyMismatch rolls it back.
 */
export function copyBetween(source: Database, target: Database, say: (line: string) => void, options: CopyOptions = {}): CopyResult {
  return writeTransaction(target, () => readTransaction(source, () => {
    const tables = tablesInKeyOrder().map((k) => {
      const rows = copyTable(source, target, k, options.pageRows);
      say(`  ${tableName(k).padEnd(20)} ${rows.toLocaleString('en-US')} row(s)`);
      return { name: tableName(k), rows };
    });
    for (const s of resetIdentitySequences(target)) say(`  sequence of ${s.table}.${s.column} set to continue at ${s.next}`);
    const campaigns = campaignList(source);
    verify(source, target, campaigns, say);
    return { tables, campaigns };
  }));
}

/**
 * Copies every table of `from` into `to` (migrated to this build's schema first, and refused unless
 * empty; refused as it stands if the bot migrated it to an older schema) in one transaction,
 * verified before it commits (see above). `say` gets the progress, a line a table. Throws
 * CopyRefused (nothing written), CopyMismatch (rolled back), or the store's error (an unreachable
 * server: openOrExplain's message, password hidden).
 */
export function copyStore(from: string, to: string, say: (line: string) => void, options: CopyOptions = {}): CopyResult {
  checkTarget(from, 'FROM');
  checkTarget(to, 'TO');
  if (identity(from) === identity(to)) throw new CopyRefused(`FROM and TO are the same database (${hideAny(from)})`, 'Copy into another database: a new SQLite file, or an empty PostgreSQL database.');
  const source = openAsItIs(from, 'FROM ', `${UPGRADE} copy again.`);
  try {
    refuseOlderTarget(to);
    const target = openOrExplain(to, () => openDatabase(to));
    try {
      refuseNonEmpty(to, target);
      say(`copying ${hideAny(from)} -> ${hideAny(to)}`);
      return copyBetween(source, target, say, options);
    } finally {
      closeDatabase(target);
    }
  } finally {
    closeDatabase(source);
  }
}

/** A store opened for reading its campaigns' exports (`npm run replay -- --store`, and db:copy's replay of the copy). */
export interface StoreReader {
  /** The campaigns it holds (id and name), by id. */
  campaigns(): { id: string; name: string }[];
  /** The campaign's export, as `/campaign export` gives it (its journal included). */
  exportText(campaignId: string): string;
  close(): void;
}

/**
 * Opens a store as it is (nothing created or migrated; refused when not at this build's schema,
 * saying what to do). Its exports are taken at the clock `at` (the export's `exportedAt`).
 */
export function openStoreReader(target: string, at = new Date()): StoreReader {
  checkTarget(target, 'FROM');
  const db = openAsItIs(target, '', `${UPGRADE} try again.`);
  const app = readerApp(db, at);
  return {
    campaigns: () => readTransaction(db, () => campaignList(db)),
    exportText: (id) => campaignExportText(app, id),
    close: () => closeDatabase(db),
  };
}
