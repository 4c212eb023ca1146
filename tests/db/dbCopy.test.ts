import { spawnSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import fc from 'fast-check';
import { copyBetween, copyStore, CopyMismatch, CopyRefused, openStoreReader } from '../../src/app/storeCopy.js';
import { insertCampaign, loadState } from '../../src/db/campaignRepo.js';
import { recordTick } from '../../src/db/tickRepo.js';
import { STATE_VERSION, upgradeState } from '../../src/engine/campaign/upgrade.js';
import { loadShippedScenario } from '../../src/app/scenarios.js';
import { campaignState } from './stateArbitrary.js';
import { takeInteraction } from '../../src/app/interactionClaim.js';
import { closeDatabase, type Database, openDatabase, rawSqlite, writeTransaction } from '../../src/db/client.js';
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
    // Read 3 rows at a time from SQLite and 2 at a time back from PostgreSQL: every table with more
    // rows than that is paged on both stores, by single and composite primary keys.
    expect(Object.values(before).filter((rows) => rows.length > 3).length).toBeGreaterThan(5);
    const there = copyStore(source, pg, (l) => lines.push(l), { pageRows: 3 });
    expect(there.campaigns).toHaveLength(1);
    expect(lines.join('\n')).toMatch(/outbox_messages +\d+ row\(s\)/);
    expect(lines.join('\n')).toMatch(/sequence of events\.id set to continue at \d+/);
    expect(lines.at(-1)).toBe('checked: the same number of rows in every table on both sides; 1 campaign export(s) byte-equal');
    const back = join(dir, 'back.db');
    copyStore(pg, back, () => undefined, { pageRows: 2 });

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

  it('GIVEN a target that changes what is written to it WHEN copied THEN the check before commit finds it, names it, and the target is left empty (both stores)', () => {
    const expectEmpty = (target: string): void => {
      const db = openDatabase(target);
      try {
        expect(tablesInKeyOrder().filter((k) => rowCount(db, k) > 0).map(tableName)).toEqual([]);
      } finally {
        closeDatabase(db);
      }
    };
    // SQLite: a trigger drops every event as it is inserted, so the row counts differ.
    const lossy = join(dir, 'lossy.db');
    const db = openDatabase(lossy);
    rawSqlite(db).exec('create trigger lose_events after insert on events begin delete from events where id = new.id; end');
    closeDatabase(db);
    const events = allRows(source).events?.length ?? 0;
    expect(() => copyStore(source, lossy, () => undefined)).toThrow(new CopyMismatch(`table events: ${events} row(s) in the source, 0 in the copy`));
    expectEmpty(lossy);
    // PostgreSQL: a trigger renames each campaign as it is inserted, so the export differs.
    const pg = freshPostgresDatabase();
    const pgDb = openDatabase(pg);
    if (pgDb.dialect !== 'postgres') throw new Error('a PostgreSQL URL opened as SQLite');
    pgDb.bridge.query("create function rename_campaign() returns trigger language plpgsql as $$ begin new.name := new.name || ' (altered)'; return new; end $$", []);
    pgDb.bridge.query('create trigger rename_campaign before insert on campaigns for each row execute function rename_campaign()', []);
    closeDatabase(pgDb);
    expect(() => copyStore(source, pg, () => undefined)).toThrow(/^campaign [0-9a-f]+ \(Autumn War\): its export from the copy differs from the source's at character \d+: source ….*"Autumn War".*…, copy ….*"Autumn War \(altered\)".*…$/s);
    expectEmpty(pg);
  }, 120_000);

  it('GIVEN a target the bot migrated to an older schema WHEN copied into THEN refused as it stands, nothing migrated or written; a never-migrated empty file is taken', () => {
    const older = join(dir, 'older-target.db');
    copyStore(source, older, () => undefined);
    const db = openDatabase(older);
    rawSqlite(db).exec('delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)');
    closeDatabase(db);
    const look = (): unknown[] => {
      const check = new BetterSqlite3(older, { readonly: true });
      try {
        return [check.prepare('select count(*) from __drizzle_migrations').pluck().get(), check.prepare('select count(*) from campaigns').pluck().get()];
      } finally {
        check.close();
      }
    };
    const was = look();
    expect(refusal(source, older)).toMatch(/^TO .*older-target\.db: it is at an older schema than this version of the bot .*; nothing was changed \| Copy into a new, empty database\. To use this one, start this version of the bot/);
    expect(look()).toEqual(was);

    const blank = join(dir, 'blank.db');
    new BetterSqlite3(blank).close();
    expect(copyStore(source, blank, () => undefined).campaigns).toHaveLength(1);
    expect(exports(blank)).toEqual(exports(source));
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

describe('db:copy of generated campaigns', () => {
  it('GIVEN campaigns with every field filled (tests/db/stateArbitrary.ts, every profile) WHEN copied SQLite -> PostgreSQL -> SQLite a few rows at a time THEN every table holds the same rows and every campaign loads back equal', () => {
    const meta = { guildId: 'g', channelId: 'ch', ownerUserId: 'ref', createdAt: '2026-11-27T06:00:00.000Z' };
    // The export (checked before commit) draws on the scenario's map; the shipped one serves every profile's state.
    const map = loadShippedScenario('valormr');
    let n = 0;
    const world = fc.record({ states: fc.array(campaignState(), { minLength: 1, maxLength: 3 }), pageRows: fc.integer({ min: 1, max: 4 }), backRows: fc.integer({ min: 1, max: 4 }) });
    fc.assert(fc.property(world, ({ states, pageRows, backRows }) => {
      const stored = states.map((s) => ({ ...s, id: `cp${++n}` }));
      const [first, pg, back] = [openDatabase(':memory:'), openDatabase(freshPostgresDatabase()), openDatabase(':memory:')];
      try {
        writeTransaction(first, () => stored.forEach((s, i) => {
          insertCampaign(first, meta, s, map, STATE_VERSION);
          recordTick(first, s.id, i + 1, s, STATE_VERSION, 0, '2026-11-27T07:00:00.000Z', 10);
        }));
        copyBetween(first, pg, () => undefined, { pageRows });
        copyBetween(pg, back, () => undefined, { pageRows: backRows });
        for (const k of tablesInKeyOrder()) {
          const rows = orderedRows(first, k);
          expect(orderedRows(pg, k), `${tableName(k)} on PostgreSQL`).toEqual(rows);
          expect(orderedRows(back, k), `${tableName(k)} back on SQLite`).toEqual(rows);
        }
        for (const s of stored) {
          const loaded = loadState(back, s.id);
          expect(loaded && upgradeState(loaded.json, loaded.version)).toStrictEqual(s);
        }
      } finally {
        [first, pg, back].forEach(closeDatabase);
      }
    }), { numRuns: 8 });
  }, 180_000);
});
