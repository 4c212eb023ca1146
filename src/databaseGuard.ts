import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { isPostgresTarget } from './app/storeTarget.js';
import { NewerSchemaError } from './db/schemaVersion.js';
import { hidePassword, StoreUnavailableError } from './db/storeErrors.js';

/**
 * Watches that the database file at its path is still the file the process opened. SQLite keeps
 * writing into an open file that was deleted or replaced (by a restore, a bad deploy, a cleanup
 * script): every tick would be played into the void and the next start would find an empty or
 * different database. Comparing the device and inode numbers of the path with those taken at
 * open time catches both.
 */
export class DatabaseFileGuard {
  private constructor(readonly path: string, private readonly dev: number, private readonly ino: number, private readonly who: string) {}

  /** Starts watching the file just opened at `path` by `who` (nothing to watch for ':memory:'). */
  static watch(path: string, who = 'the bot'): DatabaseFileGuard | undefined {
    // PostgreSQL (a URL) has no file to watch: a lost server is the store-unavailable path instead.
    if (path === ':memory:' || path === '' || isPostgresTarget(path)) return undefined;
    const full = resolve(path);
    const s = statSync(full);
    return new DatabaseFileGuard(full, s.dev, s.ino, who);
  }

  /** Why the path no longer holds the open database, or undefined when it still does. */
  problem(): string | undefined {
    let s;
    try {
      s = statSync(this.path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return `The database file ${this.path} was deleted while ${this.who} was running`;
      return `The database file ${this.path} cannot be checked (${code ?? String(e)})`;
    }
    if (s.dev !== this.dev || s.ino !== this.ino) return `The database file ${this.path} was replaced by another file while ${this.who} was running`;
    return undefined;
  }
}

/** The error a vanished database stops the process with (its message names the path). */
export class DatabaseGoneError extends Error {
  readonly code = 'DatabaseGone';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseGoneError';
  }
}

/**
 * The database at a path cannot be used: its message names the file and what is wrong, `hint` what
 * to do next (a start-up failure prints both on one line).
 */
class DatabaseUnusableError extends Error {
  readonly code = 'DatabaseUnusable';
  constructor(message: string, readonly hint: string) {
    super(message);
    this.name = 'DatabaseUnusableError';
  }
}

/** Opens the app's database with `open`, turning a failure into one that names the file and the next step. */
export function openOrExplain<T>(path: string, open: () => T): T {
  try {
    return open();
  } catch (err) {
    throw explainOpenFailure(path, err);
  }
}

function explainOpenFailure(path: string, err: unknown): Error {
  if (path === ':memory:' || path === '') return err instanceof Error ? err : new Error(String(err));
  // Its message says what to do (run the newer version, or restore a backup).
  if (err instanceof NewerSchemaError) return new DatabaseUnusableError(`The database ${isPostgresTarget(path) ? hidePassword(path) : resolve(path)} cannot be used: ${err.message}`, '');
  if (isPostgresTarget(path)) return explainPostgresFailure(path, err);
  const full = resolve(path);
  const folder = dirname(full);
  const e = err as { code?: string; message?: string };
  const code = e.code ?? '';
  const why = (e.message ?? String(err)).replace(/\.$/, '');
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || /not a database|malformed/i.test(why)) {
    return new DatabaseUnusableError(`The database file ${full} is not a SQLite database or is damaged (${why})`, `Restore it from a backup, or move it away to start with an empty database, or set DATABASE_PATH to the right file.`);
  }
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || /readonly|read-only|permission denied|unable to open/i.test(why)) {
    return new DatabaseUnusableError(`The database file ${full} cannot be opened for writing (${why})`, `The bot writes the file and, beside it in ${folder}, its -wal and -shm files: make both the file and the folder writable by the user the bot runs as (ls -l ${folder}; e.g. chown that user), or set DATABASE_PATH to a writable place.`);
  }
  return new DatabaseUnusableError(`The database file ${full} could not be opened (${why})`, 'Check DATABASE_PATH and the file; the log has the details.');
}

/** pg's error code (SQLSTATE) of a failure, on the error or its cause. */
function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/**
 * A PostgreSQL store that cannot be used at start: which server (the URL with its password
 * hidden) and what to do. A failure that already says what to do (a database at a newer schema)
 * is passed on as it is.
 */
function explainPostgresFailure(url: string, err: unknown): Error {
  const e: Error & { hint?: string } = err instanceof Error ? err : new Error(String(err));
  if (e.hint) return e;
  const shown = hidePassword(url);
  const why = e.message.replace(/\.$/, '');
  if (e instanceof StoreUnavailableError) {
    const said = why.includes(shown) ? why : `${why} (PostgreSQL at ${shown})`;
    return new DatabaseUnusableError(`${said.charAt(0).toUpperCase()}${said.slice(1)}`, 'Start PostgreSQL or make it reachable from this machine (pg_isready -h HOST -p PORT says whether it answers), or correct DATABASE_URL; then start the bot again.');
  }
  const state = sqlState(err);
  if (state === '28P01' || state === '28000') return new DatabaseUnusableError(`PostgreSQL at ${shown} refused the login (${why})`, 'Check the user and password in DATABASE_URL (a password with @, : or / percent-encoded) and the server\'s pg_hba.conf.');
  if (state === '3D000') return new DatabaseUnusableError(`PostgreSQL at ${shown} has no such database (${why})`, 'Create it (createdb -h HOST -U USER NAME, owned by the bot\'s user) or correct the database name at the end of DATABASE_URL.');
  if (state === '42501') return new DatabaseUnusableError(`PostgreSQL at ${shown} does not let the bot's user create or change its tables (${why})`, 'Give that user the database (ALTER DATABASE NAME OWNER TO USER) or CREATE on its public schema.');
  return new DatabaseUnusableError(`The campaign store at ${shown} could not be opened (${why})`, 'Check DATABASE_URL and the PostgreSQL server\'s log; the bot\'s log has the details.');
}

/**
 * One console per database file. Two consoles on one campaign database would each play ticks on
 * their own manual clock; the second is refused, naming the first. The lock is a file beside the
 * database (`<database>.console-lock`) holding the owner's host and pid; a lock whose process is
 * gone is taken over.
 */
export class ConsoleLock {
  private constructor(private readonly file: string, private readonly mine: string) {}

  static take(path: string): ConsoleLock | undefined {
    if (path === ':memory:' || path === '' || isPostgresTarget(path)) return undefined;
    const file = `${resolve(path)}.console-lock`;
    const mine = JSON.stringify({ host: hostname(), pid: process.pid, since: new Date().toISOString() });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(file, mine, { flag: 'wx' });
        return new ConsoleLock(file, mine);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const other = readOwner(file);
        if (other && other.host === hostname() && other.pid !== process.pid && alive(other.pid)) {
          throw new DatabaseUnusableError(`The database ${resolve(path)} is already open in another console (process ${other.pid}, since ${other.since})`, 'Use that console, or end it (Ctrl-D) first: two consoles on one database would each play its campaigns on their own clock.');
        }
        // The owner is gone (or the file unreadable): the lock is stale.
        rmSync(file, { force: true });
      }
    }
    throw new DatabaseUnusableError(`The console lock ${file} could not be taken`, 'Remove the file if no console is running, and start again.');
  }

  /** Gives the lock back (only if it is still this process's). */
  release(): void {
    try {
      if (readFileSync(this.file, 'utf8') === this.mine) rmSync(this.file, { force: true });
    } catch {
      // Already gone.
    }
  }
}

function readOwner(file: string): { host: string; pid: number; since: string } | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as { host?: unknown; pid?: unknown; since?: unknown };
    return typeof o.host === 'string' && Number.isInteger(o.pid) ? { host: o.host, pid: o.pid as number, since: String(o.since ?? '?') } : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
