import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Watches that the database file at its path is still the file the process opened. SQLite keeps
 * writing into an open file that was deleted or replaced (by a restore, a bad deploy, a cleanup
 * script): every tick would be played into the void and the next start would find an empty or
 * different database. Comparing the device and inode numbers of the path with those taken at
 * open time catches both.
 */
export class DatabaseFileGuard {
  private constructor(readonly path: string, private readonly dev: number, private readonly ino: number) {}

  /** Starts watching the file just opened at `path` (nothing to watch for ':memory:'). */
  static watch(path: string): DatabaseFileGuard | undefined {
    if (path === ':memory:' || path === '') return undefined;
    const full = resolve(path);
    const s = statSync(full);
    return new DatabaseFileGuard(full, s.dev, s.ino);
  }

  /** Why the path no longer holds the open database, or undefined when it still does. */
  problem(): string | undefined {
    let s;
    try {
      s = statSync(this.path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return `The database file ${this.path} was deleted while the bot was running`;
      return `The database file ${this.path} cannot be checked (${code ?? String(e)})`;
    }
    if (s.dev !== this.dev || s.ino !== this.ino) return `The database file ${this.path} was replaced by another file while the bot was running`;
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
