import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, rawSqlite } from '../../src/db/client.js';
import { startWalCheckpoints } from '../../src/db/walCheckpoints.js';

/**
 * A file database's checkpoints run on a thread of their own (src/db/walCheckpoints.ts): the bot's
 * connection never checkpoints (nor fsyncs the database file) inside its commits; the thread is
 * started once the WAL has grown past SQLite's own checkpoint point, copies the WAL back into the
 * file, and ends after a while with nothing to do, the WAL cut to nothing; closing ends the thread
 * first, so the file alone holds every commit afterwards; a thread that fails gives the connection
 * its own checkpoints back.
 */

const work = mkdtempSync(join(tmpdir(), 'valormr-wal-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let files = 0;
const fileName = (): string => join(work, `db${++files}.db`);

/** Resolves once `check` is true (polled every 20 ms), or fails after `ms`. */
async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A WAL-mode connection with one table of 4 KB rows (each row about a page), the table already in the file. */
function walFile(path: string): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table t (id integer primary key, v blob)');
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return sqlite;
}

function writeRows(sqlite: BetterSqlite3.Database, from: number, n: number): void {
  const insert = sqlite.prepare('insert into t (id, v) values (?, ?)');
  sqlite.transaction(() => {
    for (let i = from; i < from + n; i++) insert.run(i, Buffer.alloc(4000, i % 256));
  })();
}

/**
 * The rows of a copy of the database file alone (no WAL beside it): what is checkpointed. A copy
 * taken while the thread is writing pages into the file may be torn: then -1 (look again later).
 */
function rowsInFileAlone(path: string): number {
  const copy = `${path}.alone`;
  copyFileSync(path, copy);
  const db = new BetterSqlite3(copy, { readonly: true });
  try {
    return (db.prepare('select count(*) as n from t').get() as { n: number }).n;
  } catch (e) {
    if (e instanceof BetterSqlite3.SqliteError && /malformed|not a database/.test(e.message)) return -1;
    throw e;
  } finally {
    db.close();
    rmSync(copy);
  }
}

/** The WAL header's first salt: SQLite draws a new one each time the WAL starts again from its beginning. */
function walSalt(path: string): number {
  const fd = openSync(`${path}-wal`, 'r');
  try {
    const header = Buffer.alloc(32);
    return readSync(fd, header, 0, 32, 0) === 32 ? header.readUInt32BE(16) : -1;
  } finally {
    closeSync(fd);
  }
}

describe('WAL checkpoints on a thread of their own', () => {
  it('GIVEN a file database WHEN it is opened THEN its connection runs no automatic checkpoint and no thread is started yet; an in-memory one keeps SQLite\'s', () => {
    const file = openDatabase(fileName());
    const memory = openDatabase(':memory:');
    try {
      expect(rawSqlite(file).pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      expect(file.dialect === 'sqlite' && file.checkpoints !== undefined && !file.checkpoints.threadRunning()).toBe(true);
      expect(memory.dialect === 'sqlite' && memory.checkpoints === undefined).toBe(true);
    } finally {
      closeDatabase(file);
      closeDatabase(memory);
    }
  });

  it('GIVEN commits of more pages than SQLite\'s automatic checkpoint WHEN the bot looks at the WAL THEN a thread starts and copies them into the database file, the connection having copied none', async () => {
    const path = fileName();
    const sqlite = walFile(path);
    const checkpoints = startWalCheckpoints(sqlite, path, { everyMs: 20, lookMs: 20 });
    try {
      const before = statSync(path).size;
      writeRows(sqlite, 0, 500);
      // 500 pages: under SQLite's own checkpoint point, so no thread is started for them.
      await new Promise((r) => setTimeout(r, 200));
      expect(checkpoints.threadRunning()).toBe(false);
      writeRows(sqlite, 500, 1000);
      // The connection's own commit copied nothing into the file (SQLite's default would have, past 1,000 pages).
      expect(statSync(path).size).toBe(before);
      // The rows reach the file alone only by a checkpoint, and the connection makes none (its
      // automatic checkpoint is off while the thread is used, checked below): a thread ran. (Waiting
      // to see threadRunning() could miss a thread whose whole life fell between two looks of a
      // loaded test process.)
      await until(() => rowsInFileAlone(path) === 1500);
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    } finally {
      checkpoints.stop();
      sqlite.close();
    }
  });

  it('GIVEN a WAL past SQLite\'s checkpoint point left by a process that ended without closing WHEN the database is opened THEN the thread starts at once, not at the first look, and copies it back', async () => {
    const path = fileName();
    const crashed = walFile(path);
    crashed.pragma('wal_autocheckpoint = 0');
    writeRows(crashed, 0, 1100);
    // The files as a process killed now leaves them (its connection never closed): copied aside.
    const left = fileName();
    copyFileSync(path, left);
    copyFileSync(`${path}-wal`, `${left}-wal`);
    crashed.close();
    const sqlite = new BetterSqlite3(left);
    sqlite.pragma('journal_mode = WAL');
    // No look for an hour: only the look at opening can start the thread.
    const checkpoints = startWalCheckpoints(sqlite, left, { everyMs: 20, lookMs: 3_600_000 });
    try {
      expect(checkpoints.threadRunning()).toBe(true);
      await until(() => rowsInFileAlone(left) === 1100);
    } finally {
      checkpoints.stop();
      sqlite.close();
    }
  });

  it('GIVEN a WAL grown past what is kept WHEN nothing more is written THEN the thread cuts it back to nothing, and the file holds every row', async () => {
    const path = fileName();
    const sqlite = walFile(path);
    const checkpoints = startWalCheckpoints(sqlite, path, { everyMs: 20, lookMs: 20, startBytes: 0, keptBytes: 1024 * 1024 });
    try {
      writeRows(sqlite, 0, 800);
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(1024 * 1024);
      await until(() => statSync(`${path}-wal`).size === 0);
      expect(rowsInFileAlone(path)).toBe(800);
    } finally {
      checkpoints.stop();
      sqlite.close();
    }
  });

  it('GIVEN any commits, with the thread at any point of its work WHEN the database is closed THEN the thread ended first: no WAL is left and the file alone holds every row', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.record({ rows: fc.integer({ min: 1, max: 600 }), restMs: fc.integer({ min: 0, max: 30 }) }), { minLength: 1, maxLength: 4 }), async (batches) => {
      const path = fileName();
      const db = openDatabase(path);
      const sqlite = rawSqlite(db);
      sqlite.exec('create table t (id integer primary key, v blob)');
      let n = 0;
      for (const b of batches) {
        writeRows(sqlite, n, b.rows);
        n += b.rows;
        await new Promise((r) => setTimeout(r, b.restMs));
      }
      closeDatabase(db);
      expect(existsSync(`${path}-wal`)).toBe(false);
      expect(rowsInFileAlone(path)).toBe(n);
    }), { numRuns: 6 });
  });

  it('GIVEN commits and rests of any length, threads started and ended idle at any point WHEN the checkpoints are stopped and the connection closed THEN no WAL is left and the file alone holds every row', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ rows: fc.integer({ min: 1, max: 400 }), restMs: fc.integer({ min: 0, max: 60 }) }), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 0, max: 600 * 4096 }),
      fc.integer({ min: 1, max: 4 }),
      async (batches, startBytes, idleLooks) => {
        const path = fileName();
        const sqlite = walFile(path);
        const checkpoints = startWalCheckpoints(sqlite, path, { everyMs: 5, lookMs: 5, startBytes, idleLooks });
        let n = 0;
        for (const b of batches) {
          writeRows(sqlite, n, b.rows);
          n += b.rows;
          await new Promise((r) => setTimeout(r, b.restMs));
        }
        checkpoints.stop();
        expect(checkpoints.threadRunning()).toBe(false);
        sqlite.close();
        expect(existsSync(`${path}-wal`)).toBe(false);
        expect(rowsInFileAlone(path)).toBe(n);
      },
    ), { numRuns: 12 });
  });

  it('GIVEN a thread with nothing to do for a while WHEN it ends THEN the WAL is cut to nothing, the connection still leaves checkpoints to a thread, and the next growth starts another', async () => {
    const path = fileName();
    const sqlite = walFile(path);
    const checkpoints = startWalCheckpoints(sqlite, path, { everyMs: 20, lookMs: 20, startBytes: 64 * 1024, idleLooks: 3 });
    try {
      for (const from of [0, 100]) {
        writeRows(sqlite, from, 100);
        // A thread started by the growth has run and ended, the WAL cut to nothing (the connection
        // neither checkpoints nor cuts it: its automatic checkpoint is off, checked below). Waited for
        // as one state: a thread's whole life (a few looks of 20 ms) can fall between two looks of a
        // loaded test process, so seeing threadRunning() true first is not required.
        await until(() => !checkpoints.threadRunning() && statSync(`${path}-wal`).size === 0);
        expect(statSync(`${path}-wal`).size).toBe(0);
        expect(rowsInFileAlone(path)).toBe(from + 100);
        expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      }
    } finally {
      checkpoints.stop();
      sqlite.close();
    }
  });

  it('GIVEN a checkpoint thread that cannot open the file WHEN it ends THEN the connection checkpoints itself again (SQLite\'s 1,000 pages)', async () => {
    const path = fileName();
    const sqlite = walFile(path);
    // A WAL beside a database file that does not exist: the thread is started, and fails to open it.
    const missing = join(work, 'no.db');
    writeFileSync(`${missing}-wal`, '');
    const checkpoints = startWalCheckpoints(sqlite, missing, { lookMs: 20, startBytes: 0 });
    try {
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      await until(() => sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000);
      expect(checkpoints.threadRunning()).toBe(false);
    } finally {
      checkpoints.stop();
      sqlite.close();
    }
  });

  it('GIVEN the bot writing every few ms while the thread checkpoints WHEN a write follows a checkpoint that copied everything THEN the WAL is not started again (that write would fsync it on the event loop) until the bot has rested', async () => {
    const path = fileName();
    const sqlite = walFile(path);
    const everyMs = 100;
    const checkpoints = startWalCheckpoints(sqlite, path, { everyMs, lookMs: 10, startBytes: 0 });
    try {
      writeRows(sqlite, 0, 1);
      await until(() => checkpoints.threadRunning());
      const fileBefore = rowsInFileAlone(path);
      // Writes ~3 ms apart for ~0.8 s: a checkpoint every 100 ms copies them back between two writes.
      let salt = walSalt(path);
      let last = performance.now();
      const restarts: number[] = [];
      for (let i = 1; i <= 250; i++) {
        // A rest in the middle (several checkpoint periods): the spell after it starts the WAL again once, at
        // its first write, and its checkpoints must not let a second write do it again (the pin is taken
        // again at the first look after a rest: without that, a write a few ms later restarted it too).
        await new Promise((r) => setTimeout(r, i === 150 ? 3.5 * everyMs : 3));
        const gap = performance.now() - last;
        writeRows(sqlite, i, 1);
        last = performance.now();
        const now = walSalt(path);
        if (now !== salt) restarts.push(gap);
        salt = now;
      }
      // The thread did copy pages back meanwhile.
      await until(() => rowsInFileAlone(path) > fileBefore);
      // Started again only by the first write after a rest: a look that found nothing written since the look
      // before (so at least a checkpoint period, 100 ms, without a write, however loaded the machine), never
      // by a write a few ms after another (SQLite's default, without the pin: several times in this loop).
      expect(restarts.filter((gap) => gap < 20)).toEqual([]);
      // After a rest, the next write starts the WAL again from its beginning (rests of 5 periods until the
      // thread has looked twice in one: on a loaded machine it may be late).
      let row = 1000;
      const end = Date.now() + 30_000;
      while (walSalt(path) === salt) {
        if (Date.now() > end) throw new Error('the WAL was never started again after a rest');
        await new Promise((r) => setTimeout(r, 5 * everyMs));
        writeRows(sqlite, row++, 1);
      }
    } finally {
      checkpoints.stop();
      sqlite.close();
    }
  });

  it('GIVEN a checkpoint thread that fails before it has opened anything (its module cannot be loaded) WHEN the checkpoints are stopped meanwhile THEN closing does not wait out its time for an answer', async () => {
    const path = fileName();
    const sqlite = walFile(path);
    const checkpoints = startWalCheckpoints(sqlite, path, { lookMs: 5, startBytes: 0, sqliteModule: join(work, 'no-such-module.cjs') });
    try {
      writeRows(sqlite, 0, 1);
      // Looked at with setImmediate: stopped before the thread's end reaches this thread as an event.
      while (!checkpoints.threadRunning()) await new Promise((r) => setImmediate(r));
      expect(checkpoints.stop()).toBe('closed');
    } finally {
      checkpoints.stop();
      sqlite.close();
    }
  });
});
