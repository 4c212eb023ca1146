import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * SQLite's checkpoints (the WAL's pages copied back into the database file, then the file
 * fsync'd) run on a thread of their own, not on the event loop. By default SQLite runs one in the
 * connection that commits, whenever the WAL has passed 1,000 pages: inside a tick's commit or a
 * delivery's mark, an fsync of 20-100 ms (more on a busy disk) on the event loop. A Valormr tick
 * writes ~0.7 MB of WAL, so on a busy minute (1,000 campaigns due at once) that was ~180
 * checkpoints, ~4 s of fsync in all, each one a gap in the bot's answers (issue 25).
 *
 * Here the bot's connection has no automatic checkpoint while the checkpoint thread runs; the
 * thread has its own connection to the same file and runs PASSIVE checkpoints (which never wait
 * for nor block the bot's writes and reads) every EVERY_MS. If the thread cannot start or dies,
 * the bot's connection checkpoints itself again as SQLite does by default.
 */

/**
 * How often the checkpoint thread copies the WAL back (ms). The first write after a checkpoint
 * that copied back every page starts the WAL again from its beginning and fsyncs its new header,
 * on the event loop (SQLite's rule, for a crash): so at most one such restart every few seconds.
 * While writes go on without a pause (a busy minute's ticks) the WAL cannot start again and grows
 * (to ~0.5 GB over 1,000 campaigns' ticks); it is reused from its start after.
 */
const EVERY_MS = 2000;
/** A WAL file larger than this (bytes) is cut back to nothing once the bot has written nothing for EVERY_MS. */
const WAL_KEPT_BYTES = 64 * 1024 * 1024;
/** SQLite's own automatic checkpoint (pages), given back to the bot's connection if the thread ends. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** How long closing waits for the thread to end its checkpoint and close its connection (ms). */
const CLOSE_WAIT_MS = 10_000;

/**
 * The thread's code (CommonJS, run with `eval`, so that it is the same from source and from the
 * build). It waits on `control[0]` (1: stop) between checkpoints and sets `control[1]` to 1 once its
 * connection is closed.
 */
const THREAD = `
const { statSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const control = new Int32Array(workerData.control);
let db;
try {
  db = new Database(workerData.path, { fileMustExist: true, timeout: 100 });
  let last = '';
  while (Atomics.load(control, 0) === 0) {
    try {
      const [r] = db.pragma('wal_checkpoint(PASSIVE)');
      const now = r.busy + ':' + r.log + ':' + r.checkpointed;
      // Nothing written since the last look, every page copied back, a big WAL: cut it back (a few ms).
      if (now === last && r.busy === 0 && r.log === r.checkpointed && r.log > 0 && statSync(workerData.path + '-wal').size > workerData.keptBytes) db.pragma('wal_checkpoint(TRUNCATE)');
      last = now;
    } catch {
      // SQLITE_BUSY (another connection checkpointing) or a passing error: tried again later
    }
    Atomics.wait(control, 0, 0, workerData.everyMs);
  }
} finally {
  db?.close();
  Atomics.store(control, 1, 1);
  Atomics.notify(control, 1);
}
`;

/** The checkpoint thread of one connection: `stop` ends it (synchronously) before the connection closes. */
export interface WalCheckpoints {
  stop(): void;
}

/**
 * Starts the checkpoint thread for `sqlite` (a file database in WAL mode, at `path`) and turns off
 * the connection's own automatic checkpoint meanwhile.
 */
export function startWalCheckpoints(sqlite: BetterSqlite3.Database, path: string, opts: { everyMs?: number; keptBytes?: number } = {}): WalCheckpoints {
  const control = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(THREAD, { eval: true, workerData: { path, everyMs: opts.everyMs ?? EVERY_MS, keptBytes: opts.keptBytes ?? WAL_KEPT_BYTES, control: control.buffer, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') } });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  let stopped = false;
  let running = true;
  worker.on('error', () => undefined);
  worker.on('exit', () => {
    running = false;
    // The thread ended without being asked: the connection checkpoints itself again.
    if (!stopped && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  });
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
      // The thread closes its connection first (it sets control[1] as it ends), so the bot's close is
      // the last one: SQLite then checkpoints what is left and removes the WAL, as without the thread.
      if (running) Atomics.wait(control, 1, 0, CLOSE_WAIT_MS);
      void worker.terminate();
    },
  };
}
