import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgBridge, type PgBridge } from '../../src/db/pg/bridge.js';
import { migratePostgres } from '../../src/db/pg/migrate.js';
import { NewerSchemaError } from '../../src/db/schemaVersion.js';
import { freshPostgresDatabase } from '../support/postgres.js';

/**
 * The PostgreSQL migrator (src/db/pg/migrate.ts): applies migrations-pg/ to an empty database with
 * drizzle's books (drizzle.__drizzle_migrations), does nothing the second time, applies all of a
 * folder or none of it, migrates once when several processes start at once, and refuses a
 * database a newer version of the bot upgraded.
 */

const FOLDER = resolve('migrations-pg');
const known = readMigrationFiles({ migrationsFolder: FOLDER });
const opened: PgBridge[] = [];
const scratch: string[] = [];
afterAll(() => {
  for (const b of opened) b.close();
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

function fresh(): { url: string; bridge: PgBridge } {
  const url = freshPostgresDatabase();
  const bridge = openPgBridge(url);
  opened.push(bridge);
  return { url, bridge };
}

const one = (bridge: PgBridge, text: string): unknown => bridge.query(text, []).rows[0]?.[0];
const tableCount = (bridge: PgBridge): number => Number(one(bridge, "select count(*) from information_schema.tables where table_schema = 'public'"));
const books = (bridge: PgBridge): unknown[][] => bridge.query('select hash, created_at::text from drizzle.__drizzle_migrations order by id', []).rows;

/** A copy of migrations-pg/ with one more migration, `sql` (statements split by drizzle's breakpoint). */
function folderWith(tag: string, sql: string, when: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'valormr-migrations-'));
  scratch.push(dir);
  cpSync(FOLDER, dir, { recursive: true });
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: object[] };
  journal.entries.push({ idx: journal.entries.length, version: '7', when, tag, breakpoints: true });
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  writeFileSync(join(dir, `${tag}.sql`), sql);
  return dir;
}

describe('migratePostgres', () => {
  it('GIVEN an empty database WHEN migrated twice THEN every table is made once and the books name each migration once, as drizzle keeps them', () => {
    const { bridge } = fresh();
    migratePostgres(bridge, FOLDER);
    expect(tableCount(bridge)).toBe(18);
    expect(books(bridge)).toEqual(known.map((m) => [m.hash, String(m.folderMillis)]));
    migratePostgres(bridge, FOLDER);
    expect(books(bridge)).toHaveLength(known.length);
  });

  it('GIVEN a later migration WHEN the database is migrated again THEN only it is applied', () => {
    const { bridge } = fresh();
    migratePostgres(bridge, FOLDER);
    const later = folderWith('0099_later', 'CREATE TABLE "later" ("id" integer);', Date.UTC(2031, 0, 1));
    migratePostgres(bridge, later);
    expect(tableCount(bridge)).toBe(19);
    expect(books(bridge)).toHaveLength(known.length + 1);
  });

  it('GIVEN a folder whose last migration fails WHEN migrated THEN nothing at all is applied (one transaction) and the error is PostgreSQL\'s', () => {
    const { bridge } = fresh();
    const bad = folderWith('0099_bad', 'CREATE TABLE "half" ("id" integer);\n--> statement-breakpoint\nALTER TABLE "no_such_table" ADD "x" integer;', Date.UTC(2031, 0, 1));
    expect(() => migratePostgres(bridge, bad)).toThrow(/no_such_table/);
    expect(tableCount(bridge)).toBe(0);
    expect(one(bridge, "select count(*) from information_schema.tables where table_name = '__drizzle_migrations'")).toBe('0');
    migratePostgres(bridge, FOLDER);
    expect(tableCount(bridge)).toBe(18);
  });

  it('GIVEN a database a newer version upgraded WHEN migrated THEN NewerSchemaError saying what to do, and nothing changed', () => {
    const { bridge } = fresh();
    migratePostgres(bridge, FOLDER);
    migratePostgres(bridge, folderWith('0099_newer', 'CREATE TABLE "newer" ("id" integer);', Date.UTC(2031, 0, 1)));
    expect(() => migratePostgres(bridge, FOLDER)).toThrow(NewerSchemaError);
    expect(() => migratePostgres(bridge, FOLDER)).toThrow(/^this database was upgraded by a newer version of the bot \(migration of 2031-01-01T00:00:00.000Z, sha256 [0-9a-f]{12}; .*run that version or a later one, or restore a backup/);
    expect(books(bridge)).toHaveLength(known.length + 1);
  });

  it('GIVEN four processes starting at once on one empty database WHEN each migrates THEN all succeed and the schema is made once', async () => {
    const { url, bridge } = fresh();
    const dir = mkdtempSync(join(tmpdir(), 'valormr-migrate-go-'));
    scratch.push(dir);
    const go = join(dir, 'go');
    let exited = 0;
    const children = Array.from({ length: 4 }, () => new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/migrateChild.ts', url, FOLDER, go], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => {
        exited++;
        done({ code, out });
      });
    }));
    // Every process connected and waiting: then all are let go at once.
    while (exited === 0 && readdirSync(dir).filter((f) => f.endsWith('.ready')).length < 4) await new Promise((r) => setTimeout(r, 20));
    writeFileSync(go, '');
    const results = await Promise.all(children);
    expect(results).toEqual(results.map(() => ({ code: 0, out: 'migrated\n' })));
    expect(books(bridge)).toHaveLength(known.length);
    expect(tableCount(bridge)).toBe(18);
  });
});
