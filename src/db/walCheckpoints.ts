import { statSync } from 'node:fs';
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
 * Here the bot's connection never checkpoints itself. The thread is started only when there is work
 * for it: a look every LOOK_MS (a `stat` of the WAL file, a few microseconds) starts it once the WAL
 * has passed START_BYTES (SQLite's own 1,000 pages). It has its own connection to the same file and
 * runs PASSIVE checkpoints (which never wait for nor block the bot's writes and reads) every
 * EVERY_MS; after IDLE_LOOKS looks in a row with nothing new and everything copied back, it cuts the
 * WAL to nothing and ends, giving back its memory (~10 MB: an isolate and a connection) until the
 * WAL grows again. A bot that writes little (a campaign's tick every few hours) thus runs it for
 * half a minute every few days, and a start of the bot never waits for it. If the thread cannot
 * start or dies, the bot's connection checkpoints itself again as SQLite does by default.
 *
 * The first write after a checkpoint that copied back every page starts the WAL again from its
 * beginning and fsyncs its new header, in the connection that writes: the bot's, on the event loop
 * (SQLite's rule, for a crash). On a busy disk that fsync waits for the file system's journal
 * (5-20 ms, over 100 ms while the checkpoint's own fsyncs and other processes' writes are in it).
 * So while the bot writes, the thread holds a read transaction on a connection of its own (the
 * pin), taken anew at the newest commit just before each checkpoint: the checkpoint still copies
 * everything back, but a read transaction that began while the WAL had pages to copy keeps the WAL
 * from starting again (SQLite restarts it only when no such reader remains). Once a look finds
 * nothing written and everything copied back (the bot rested for EVERY_MS), the pin is let go and
 * the bot's next write starts the WAL again: one fsync per busy spell instead of one every few
 * seconds (a busy minute of delivery after 1,000 ticks: ~6 before, in the bot's thread).
 */

/** How often the bot looks at the WAL's size while no thread runs (ms). */
const LOOK_MS = 1000;
/** The WAL's size (bytes) that starts the thread: SQLite's own automatic checkpoint point (1,000 pages of 4 KB). */
const START_BYTES = 1000 * 4096;
/**
 * How often the checkpoint thread copies the WAL back (ms). While the bot writes, the WAL does not
 * start again from its beginning (the pin, above) and grows (to ~0.4 GB over a 1,000-campaign
 * busy minute); it is reused from its start after the bot has rested for this long.
 */
const EVERY_MS = 2000;
/** Looks in a row with nothing written and nothing left to copy back before the thread ends (15 x 2 s: half a minute). */
const IDLE_LOOKS = 15;
/** A WAL file larger than this (bytes) is cut back to nothing once the bot has written nothing for EVERY_MS. */
const WAL_KEPT_BYTES = 64 * 1024 * 1024;
/**
 * While the bot writes, the thread keeps the WAL from starting again from its beginning (the pin,
 * in THREAD) as long as the file is at most this large (bytes); past it, the WAL may start again
 * at the next write after a checkpoint that copied everything back (one fsync on the event loop),
 * so that a bot that never rests does not grow it without bound. A busy minute of 1,000 campaigns
 * writes ~400 MB.
 */
const WAL_PINNED_BYTES = 1024 * 1024 * 1024;
/** SQLite's own automatic checkpoint (pages), given back to the bot's connection if the thread fails. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** The thread allocates next to nothing: small heaps keep its footprint 1-2 MB under V8's defaults (measured under `npm start`'s flags: 8.3-9.1 against 10.1-10.3 MB). */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 } as const;
/** How long closing waits for the thread to end its checkpoint and close its connection (ms). */
const CLOSE_WAIT_MS = 10_000;

/**
 * The thread's code (CommonJS, run with `eval`, so that it is the same from source and from the
 * build). It waits on `control[0]` (1: stop) between checkpoints and sets `control[1]` to 1 once its
 * connection is closed; `control[2]` to 1 when it ends because it had nothing to do (the WAL cut to
 * nothing), not because it failed.
 */
const THREAD = `
const { statSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const control = new Int32Array(workerData.control);
let db;
let pin;
try {
  const Database = require(workerData.sqlite);
  db = new Database(workerData.path, { fileMustExist: true, timeout: 100 });
  // The pin: a read transaction of a second connection, taken anew (at the newest commit) before
  // each checkpoint while the bot writes. The checkpoint copies back everything up to it, but the
  // bot's next write cannot start the WAL again from its beginning (that write would fsync the WAL
  // on the event loop): the WAL grows until the bot rests, then is started again or cut.
  pin = new Database(workerData.path, { fileMustExist: true, timeout: 100 });
  pin.pragma('cache_size = 1');
  const pinRead = pin.prepare('select 1 from sqlite_schema limit 1');
  const unpin = () => { if (pin.inTransaction) pin.exec('commit'); };
  const repin = () => { unpin(); pin.exec('begin'); pinRead.get(); };
  const walBytes = () => { try { return statSync(workerData.path + '-wal').size; } catch { return 0; } };
  let last = '';
  let quiet = 0;
  while (Atomics.load(control, 0) === 0) {
    try {
      // The WAL file's size, once a look (a checkpoint copies pages back without changing it).
      const size = walBytes();
      // The pin, taken before every checkpoint, also the first after a rest: taken while everything was
      // copied back it reads the database file alone and does not hold the WAL, so the busy spell's
      // first write still starts it again (once), and this checkpoint cannot let a second write do so.
      // Past pinnedBytes none is held, so that a bot that never rests does not grow the WAL without bound.
      if (size <= workerData.pinnedBytes) repin();
      else unpin();
      const [r] = db.pragma('wal_checkpoint(PASSIVE)');
      const now = r.busy + ':' + r.log + ':' + r.checkpointed;
      // Nothing written since the last look and every page copied back.
      const settled = now === last && r.busy === 0 && r.log === r.checkpointed;
      quiet = settled ? quiet + 1 : 0;
      last = now;
      // Resting: the WAL may start again at the bot's next write.
      if (settled) unpin();
      if (quiet >= workerData.idleLooks) {
        // Long idle: the WAL cut to nothing (a few ms), and the thread ends; the bot starts another once the WAL grows.
        const [t] = db.pragma('wal_checkpoint(TRUNCATE)');
        if (t.busy === 0) {
          Atomics.store(control, 2, 1);
          break;
        }
      } else if (settled && r.log > 0 && size > workerData.keptBytes) db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // SQLITE_BUSY (another connection checkpointing) or a passing error: tried again later
      try { unpin(); } catch {}
    }
    Atomics.wait(control, 0, 0, workerData.everyMs);
  }
} finally {
  // Whatever happened (a module or the file that cannot be opened too), closing is told it may go on.
  try {
    pin?.close();
    db?.close();
  } finally {
    Atomics.store(control, 1, 1);
    Atomics.notify(control, 1);
  }
}
`;

/** The checkpoints of one connection: `stop` ends them (synchronously) before the connection closes. */
export interface WalCheckpoints {
  /**
   * Ends the thread, if one runs, and waits (at most CLOSE_WAIT_MS) until it has closed its
   * connections: 'closed' (or no thread ran), or 'timedOut' if it did not answer in time.
   */
  stop(): 'closed' | 'timedOut';
  /** Whether a checkpoint thread is running now. */
  threadRunning(): boolean;
}

/** Settings for tests; the bot uses the defaults above. */
export interface WalCheckpointOptions {
  readonly everyMs?: number;
  readonly keptBytes?: number;
  readonly pinnedBytes?: number;
  /** The better-sqlite3 module the thread loads (its resolved path); tests give one that cannot be loaded. */
  readonly sqliteModule?: string;
  readonly lookMs?: number;
  readonly startBytes?: number;
  readonly idleLooks?: number;
}

/**
 * Takes over the checkpoints of `sqlite` (a file database in WAL mode, at `path`): its connection's
 * own automatic checkpoint is turned off, and a checkpoint thread is started whenever the WAL has
 * grown past `startBytes`, ending itself after a while with nothing to do.
 */
export function startWalCheckpoints(sqlite: BetterSqlite3.Database, path: string, opts: WalCheckpointOptions = {}): WalCheckpoints {
  const workerData = {
    path,
    everyMs: opts.everyMs ?? EVERY_MS,
    keptBytes: opts.keptBytes ?? WAL_KEPT_BYTES,
    pinnedBytes: opts.pinnedBytes ?? WAL_PINNED_BYTES,
    idleLooks: opts.idleLooks ?? IDLE_LOOKS,
    sqlite: opts.sqliteModule ?? createRequire(import.meta.url).resolve('better-sqlite3'),
  };
  const startBytes = opts.startBytes ?? START_BYTES;
  sqlite.pragma('wal_autocheckpoint = 0');
  let stopped = false;
  let failed = false;
  // The running thread, if any (cleared when it ends).
  let thread: { worker: Worker; control: Int32Array } | undefined;

  const giveBack = (): void => {
    // The thread failed: the connection checkpoints itself again, and no thread is started any more.
    failed = true;
    clearInterval(look);
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  };

  const startThread = (): void => {
    const control = new Int32Array(new SharedArrayBuffer(12));
    let worker: Worker;
    try {
      worker = new Worker(THREAD, { eval: true, workerData: { ...workerData, control: control.buffer }, resourceLimits: THREAD_LIMITS });
    } catch {
      giveBack();
      return;
    }
    worker.unref();
    const started = { worker, control };
    thread = started;
    worker.on('error', () => undefined);
    worker.on('exit', (code) => {
      if (thread === started) thread = undefined;
      if (stopped) return;
      // Ended idle (the WAL cut to nothing): the next look starts another once it has grown. Anything else is a failure.
      if (code !== 0 || Atomics.load(control, 2) !== 1) giveBack();
    });
  };

  const lookAtWal = (): void => {
    if (stopped || failed || thread) return;
    let size = 0;
    try {
      size = statSync(`${path}-wal`).size;
    } catch {
      return; // no WAL file (nothing written yet)
    }
    if (size >= startBytes) startThread();
  };
  const look = setInterval(lookAtWal, opts.lookMs ?? LOOK_MS);
  look.unref();
  // A WAL left by a process that ended without closing (killed, crashed) is looked at once, now: its
  // pages all count as not yet copied back, and a process that ends again within its first look
  // would otherwise leave it to grow by what it wrote, start after start.
  lookAtWal();

  return {
    stop() {
      if (stopped) return 'closed';
      stopped = true;
      clearInterval(look);
      if (!thread) return 'closed';
      const { worker, control } = thread;
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
      // The thread closes its connection first (it sets control[1] as it ends), so the bot's close is
      // the last one: SQLite then checkpoints what is left and removes the WAL, as without the thread.
      const waited = Atomics.wait(control, 1, 0, CLOSE_WAIT_MS);
      thread = undefined;
      void worker.terminate();
      return waited === 'timed-out' ? 'timedOut' : 'closed';
    },
    threadRunning: () => thread !== undefined,
  };
}
