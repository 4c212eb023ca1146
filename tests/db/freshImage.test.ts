import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { damagedBytes } from '../support/damagedBytes.js';
import { closeDatabase, openDatabase, rawSqlite } from '../../src/db/client.js';
import { freshImage, keepFreshImage, placeFreshImage } from '../../src/db/freshImage.js';

/**
 * A new database file made from the build's image (src/db/freshImage.ts) is the database the
 * migrations make; an image that is damaged, cut, or made from other migrations is never used;
 * an existing file is never replaced.
 */

const work = mkdtempSync(join(tmpdir(), 'valormr-fresh-image-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the migrations folder with an image made as the build makes it. */
function folderWithImage(name: string): string {
  const folder = join(work, name);
  cpSync(resolve('migrations'), folder, { recursive: true });
  const file = join(work, `${name}-made.db`);
  closeDatabase(openDatabase(file));
  keepFreshImage(file, folder);
  return folder;
}

/** Everything about a database's schema a reader could tell apart. */
function shape(sqlite: BetterSqlite3.Database): unknown {
  return {
    schema: sqlite.prepare('select type, name, tbl_name, sql from sqlite_master order by type, name').all(),
    migrations: sqlite.prepare('select hash, created_at from __drizzle_migrations order by id').all(),
    journal: sqlite.pragma('journal_mode', { simple: true }),
    foreignKeys: sqlite.pragma('foreign_keys', { simple: true }),
    userVersion: sqlite.pragma('user_version', { simple: true }),
    pageSize: sqlite.pragma('page_size', { simple: true }),
    check: sqlite.pragma('integrity_check', { simple: true }),
  };
}

function opened<T>(path: string, fn: (sqlite: BetterSqlite3.Database) => T): T {
  const db = openDatabase(path);
  try {
    return fn(rawSqlite(db));
  } finally {
    closeDatabase(db);
  }
}

const folder = folderWithImage('sound');
let n = 0;
const newPath = (): string => join(work, `db-${n++}.db`);

describe('a new database from the fresh image', () => {
  it('GIVEN a sound image WHEN a new file is made from it and opened THEN it is the database the migrations make', () => {
    const fromImage = newPath();
    expect(placeFreshImage(fromImage, folder)).toBe(true);
    const migrated = newPath();
    expect(opened(fromImage, shape)).toEqual(opened(migrated, shape));
    // And it is a working database: a write and a read back.
    opened(fromImage, (sqlite) => {
      sqlite.prepare('create table t (x)').run();
      sqlite.prepare('insert into t values (1)').run();
      expect(sqlite.prepare('select x from t').pluck().get()).toBe(1);
    });
  });

  it('GIVEN any byte of the image changed, or the image cut short THEN it is not used and no file is made', () => {
    const bytes = readFileSync(join(folder, 'fresh.sqlite'));
    const damaged = join(work, 'damaged');
    cpSync(folder, damaged, { recursive: true });
    const change = damagedBytes(bytes);
    fc.assert(fc.property(change, (b) => {
      writeFileSync(join(damaged, 'fresh.sqlite'), b);
      const path = newPath();
      expect(freshImage(damaged)).toBeUndefined();
      expect(placeFreshImage(path, damaged)).toBe(false);
      expect(existsSync(path)).toBe(false);
    }), { numRuns: 40 });
    writeFileSync(join(damaged, 'fresh.sqlite'), bytes);
    expect(freshImage(damaged)?.equals(bytes)).toBe(true);
  });

  it('GIVEN migrations other than the image was made from, or no note THEN it is not used', () => {
    const changed = join(work, 'changed');
    cpSync(folder, changed, { recursive: true });
    expect(freshImage(changed)).toBeDefined();
    appendFileSync(join(changed, '0011_packed_rows.sql'), '\n-- edited\n');
    expect(freshImage(changed)).toBeUndefined();
    const noNote = join(work, 'no-note');
    cpSync(folder, noNote, { recursive: true });
    rmSync(join(noNote, 'fresh.json'));
    expect(freshImage(noNote)).toBeUndefined();
    writeFileSync(join(noNote, 'fresh.json'), '{"sha256": 1}');
    expect(freshImage(noNote)).toBeUndefined();
  });

  it('GIVEN a file already at the path, or a folder that cannot hold one THEN nothing is replaced or made', () => {
    const path = newPath();
    writeFileSync(path, 'not mine');
    expect(placeFreshImage(path, folder)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('not mine');
    const underFile = join(path, 'db.sqlite');
    expect(placeFreshImage(underFile, folder)).toBe(false);
  });
});
