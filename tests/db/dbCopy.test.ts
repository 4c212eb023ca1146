import { spawnSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { copyStore, CopyRefused, openStoreReader } from '../../src/app/storeCopy.js';
import { takeInteraction } from '../../src/app/interactionClaim.js';
import { closeDatabase, type Database, openDatabase, rawSqlite } from '../../src/db/client.js';
import { orderedRows, rowCount, tableName, tablesInKeyOrder } from '../../src/db/copyTables.js';
import * as schema from '../../src/db/schema.js';
import { dbCopy } from '../../src/console/dbCopy.js';
import { replayStore } from '../../src/console/replayStore.js';
import { consoleHarness } from '../scenarios/harness.js';
import { script } from '../secrecy/campaignScript.js';
import { AUTOCOMPLETE } from '../secrecy/worlds.js';
import { freshPostgresDatabase } from '../support/postgres.js';

/**
 * `npm run db:copy -- FROM TO` (issue 30, docs/deploy.md): a campaign played by the console (the
 * secrecy test's campaign: contacts with estimates, dice, couriers, an undo, messages in the outbox,
 * an interaction claim) copied SQLite -> PostgreSQL -> SQLite gives back the same rows in every
 * table of the schema and the same export bytes; PostgreSQL's identity sequences continue past the
 * copied ids; each refusal says what was wrong and what to do, and writes nothing.
 */

const dir = mkdtempSync(join(tmpdir(), 'valormr-dbcopy-'));
const source = join(dir, 'source.db');
const AT = new Date('2026-12-01T12:00:00Z');

/** Every table of schema.ts (what the copy must cover, read from the schema itself) and its rows in key order. */
const schemaTables = Object.values(schema).map((t) => getTableConfig(t).name).sort();
function allRows(target: string): Record<string, unknown[]> {
  const db = openDatabase(target);
  try {
    return Object.fromEntries(tablesInKeyOrder().map((k) => [tableName(k), orderedRows(db, k)]));
  } finally {
    closeDatabase(db);
  }
}

/** The export of every campaign of a store, taken at one clock. */
function exports(target: string): string[] {
  const reader = openStoreReader(target, AT);
  try {
    return reader.campaigns().map((c) => reader.exportText(c.id));
  } finally {
    reader.close();
  }
}

/** What a refused copy says (throws when it was not refused). */
function refusal(from: string, to: string): string {
  try {
    copyStore(from, to, () => undefined);
  } catch (err) {
    if (err instanceof CopyRefused) return `${err.message} | ${err.hint}`;
    const e = err as Error & { hint?: string };
    return `${e.message} | ${e.hint ?? ''}`;
  }
  throw new Error(`the copy ${from} -> ${to} was not refused`);
}

const withPassword = (url: string, password: string): string => {
  const u = new URL(url);
  u.username = u.username || 'postgres';
  u.password = password;
  return u.toString();
};

beforeAll(async () => {
  const h = await consoleHarness({ seed: 30, databasePath: source });
  try {
    const s = script('fog', 'valormr');
    await h.run(...s.setup, ...s.play.filter((l) => l !== AUTOCOMPLETE), '@alice /notify reminder:30m tick-report:changes', '!tick 3', '@alice /army status');
    expect(takeInteraction(h.app, 'interaction-1')).toBe(true);
  } finally {
    h.close();
  }
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('db:copy', () => {
  it('GIVEN a played campaign WHEN copied SQLite -> PostgreSQL -> SQLite THEN every table holds the same rows, the export the same bytes, and new rows on PostgreSQL continue past the copied ids', async () => {
    const before = allRows(source);
    // The copy covers every table of the schema, and the campaign gives each rows to compare.
    expect(Object.keys(before).sort()).toEqual(schemaTables);
    expect(Object.entries(before).filter(([, rows]) => rows.length === 0).map(([t]) => t)).toEqual([]);

    const pg = freshPostgresDatabase();
    const lines: string[] = [];
    const there = copyStore(source, pg, (l) => lines.push(l));
    expect(there.campaigns).toHaveLength(1);
    expect(lines.join('\n')).toMatch(/outbox_messages +\d+ row\(s\)/);
    expect(lines.join('\n')).toMatch(/sequence of events\.id set to continue at \d+/);
    expect(lines.at(-1)).toBe('checked: the same number of rows in every table on both sides; 1 campaign export(s) byte-equal');
    const back = join(dir, 'back.db');
    copyStore(pg, back, () => undefined);

    const [onPg, onBack] = [allRows(pg), allRows(back)];
    for (const t of schemaTables) {
      expect(onPg[t], `table ${t} on PostgreSQL`).toEqual(before[t]);
      expect(onBack[t], `table ${t} back on SQLite`).toEqual(before[t]);
    }
    const exported = exports(source);
    expect(exported).toHaveLength(1);
    expect(exports(pg)).toEqual(exported);
    expect(exports(back)).toEqual(exported);

    // The bot carries on on the copy: new events and messages take new ids (the sequences were set).
    const maxId = (db: Database, table: 'events' | 'outbox_messages'): number => Number(db.dialect === 'postgres'
      ? db.bridge.query(`select max(id) from ${table}`, []).rows[0]?.[0] : rawSqlite(db).prepare(`select max(id) from ${table}`).pluck().get());
    const db = openDatabase(pg);
    const [events, outbox] = [maxId(db, 'events'), maxId(db, 'outbox_messages')];
    closeDatabase(db);
    const h = await consoleHarness({ seed: 31, databasePath: pg });
    try {
      const out = await h.run('!tick', '@bob /army status');
      expect(out.map((o) => o.content).join('\n')).not.toMatch(/error|duplicate/i);
    } finally {
      h.close();
    }
    const after = openDatabase(pg);
    expect(maxId(after, 'events')).toBeGreaterThan(events);
    expect(maxId(after, 'outbox_messages')).toBeGreaterThan(outbox);
    closeDatabase(after);
  }, 180_000);

  it('GIVEN each wrong FROM or TO WHEN copied THEN refused with what to do, nothing written, a password never shown (and SQLite -> SQLite, PostgreSQL -> PostgreSQL copy)', async () => {
    const back = join(dir, 'target.db');
    copyStore(source, back, () => undefined);
    const held = allRows(back);
    expect(refusal(source, back)).toMatch(/^the target .*target\.db already holds 1 campaign\(s\) and other rows \(.*events \d+.*\); nothing was copied \| Copy into an empty database, or drop it first: move the file away/);
    expect(allRows(back)).toEqual(held);

    const pg = withPassword(freshPostgresDatabase(), 'hunter2');
    copyStore(source, pg, () => undefined);
    const pgHeld = allRows(pg);
    const pgRefusal = refusal(back, pg);
    expect(pgRefusal).toMatch(/already holds 1 campaign.*drop it first: dropdb and createdb it/);
    expect(pgRefusal).toContain(':***@');
    expect(pgRefusal).not.toContain('hunter2');
    expect(allRows(pg)).toEqual(pgHeld);
    // PostgreSQL -> PostgreSQL (the password given is used, and hidden in what is printed).
    const pg2 = freshPostgresDatabase();
    const said: string[] = [];
    copyStore(pg, pg2, (l) => said.push(l));
    expect(said[0]).toMatch(/^copying postgres:\/\/[^:]+:\*\*\*@.* -> postgres:\/\//);
    expect(exports(pg2)).toEqual(exports(source));

    expect(refusal(source, `${dir}/./source.db`)).toMatch(/^FROM and TO are the same database \(.*source\.db\) \| Copy into another database/);
    const missing = join(dir, 'nothing-here.db');
    expect(refusal(missing, join(dir, 'x.db'))).toMatch(/^FROM .*nothing-here\.db: there is no such file \| .*It is never created/);
    expect(existsSync(missing)).toBe(false);
    const badScheme = refusal(source, 'mysql://bot:hunter2@db/valormr');
    expect(badScheme).toMatch(/^TO mysql:\/\/bot:\*\*\*@db\/valormr: mysql:\/\/ is not a store the bot runs on \| Give a SQLite file path, or a PostgreSQL URL/);
    const unreachable = refusal(source, 'postgres://bot:hunter2@127.0.0.1:9/valormr');
    expect(unreachable).toMatch(/postgres:\/\/bot:\*\*\*@127\.0\.0\.1:9\/valormr.*\| Start PostgreSQL or make it reachable/);
    expect(unreachable).not.toContain('hunter2');
    expect(refusal(source, ':memory:')).toMatch(/in memory is gone when the copy ends/);

    const err: string[] = [];
    expect(await dbCopy([source], () => undefined, (l) => err.push(l))).toBe(2);
    expect(err.join('\n')).toMatch(/^Usage: npm run db:copy -- FROM TO .*\n {2}\(given 1 argument\(s\)\)$/);
    expect(await dbCopy([source, back], () => undefined, (l) => err.push(l))).toBe(1);
    expect(err.at(-1)).toMatch(/^REFUSED: the target .* already holds 1 campaign/);

    const lines: string[] = [];
    expect(await replayStore(back, (l) => lines.push(l), 'no-such-campaign')).toBe(false);
    expect(lines).toEqual([expect.stringMatching(/^REFUSED: there is no campaign no-such-campaign in this store; it holds [0-9a-f]+\.$/)]);
  }, 120_000);

  it('GIVEN a source at an older or a newer schema WHEN copied THEN refused, saying what to do, the source unchanged', () => {
    for (const [name, edit, expected] of [
      ['older.db', 'delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)', /older schema than this version.*\| Upgrade it first: start this version of the bot/],
      ['newer.db', "insert into __drizzle_migrations (hash, created_at) values ('f00d', 4102444800000)", /upgraded by a newer version of the bot.*run that version or a later one/],
    ] as const) {
      const path = join(dir, name);
      const db = openDatabase(path);
      rawSqlite(db).exec(edit);
      const migrations = rawSqlite(db).prepare('select count(*) from __drizzle_migrations').pluck().get();
      closeDatabase(db);
      expect(refusal(path, join(dir, `to-${name}`))).toMatch(expected);
      const check = new BetterSqlite3(path, { readonly: true });
      expect(check.prepare('select count(*) from __drizzle_migrations').pluck().get()).toBe(migrations);
      check.close();
    }
  });

  it('GIVEN a SQLite database WHEN `npm run db:copy` copies it into PostgreSQL as a real process THEN it prints each table, the checks and each campaign\'s replay, and exits 0', () => {
    const pg = freshPostgresDatabase();
    const run = spawnSync('npm', ['run', '--silent', 'db:copy', '--', source, pg], { encoding: 'utf8', timeout: 170_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^copying .*source\.db -> postgres:\/\/.*\n {2}campaigns +1 row\(s\)\n/);
    expect(run.stdout).toMatch(new RegExp(String.raw`\ncommitted: [\d,]+ row\(s\) in ${schemaTables.length} tables, 1 campaign\(s\)\.\nreplaying every campaign from the copy's journal:\ncampaign [0-9a-f]+ \(Autumn War\): replays exactly: .*\n1 campaign\(s\) replayed exactly\.\n$`));
    expect(run.status).toBe(0);
    const db = openDatabase(pg);
    expect(tablesInKeyOrder().map((k) => rowCount(db, k)).every((n) => n > 0)).toBe(true);
    closeDatabase(db);
  }, 180_000);
});
