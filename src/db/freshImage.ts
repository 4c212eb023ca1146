import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';

/**
 * A new SQLite database file made from a copy instead of by running every migration: the build
 * (scripts/build.mjs) opens one new database the normal way, closes it and keeps its bytes beside
 * the migrations it was made from (`fresh.sqlite`), with a note of their hashes and of the bytes'
 * digest (`fresh.json`). Running the twelve migrations on a new file cost 80-240 ms at load 17
 * (the disk syncs of each step and of the switch to WAL); writing the copy costs one write and one
 * sync. The copy is used only when its digest and the folder's migrations still match; anything
 * else (no copy, a damaged or cut one, one from other migrations, a folder that cannot be written)
 * leaves the database to be created and migrated the normal way.
 */
const IMAGE = 'fresh.sqlite';
const NOTE = 'fresh.json';

/** What `fresh.json` says of `fresh.sqlite`. */
interface ImageNote {
  /** SHA-256 of the image's bytes, hex. */
  readonly sha256: string;
  /** The hashes of the migrations the image has applied, in order (drizzle's, of each SQL file). */
  readonly migrations: readonly string[];
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

const migrationHashes = (folder: string): string[] => readMigrationFiles({ migrationsFolder: folder }).map((m) => m.hash);

/**
 * Keeps `file`, a database just created and migrated from `folder` and closed (so its WAL is
 * checkpointed into it), as the folder's fresh image. For the build.
 */
export function keepFreshImage(file: string, folder: string): void {
  const bytes = readFileSync(file);
  const note: ImageNote = { sha256: sha256(bytes), migrations: migrationHashes(folder) };
  writeFileSync(join(folder, IMAGE), bytes);
  writeFileSync(join(folder, NOTE), `${JSON.stringify(note)}\n`);
}

/** The image's bytes when it is whole and made from exactly the folder's migrations; otherwise undefined. */
export function freshImage(folder: string): Buffer | undefined {
  const imageFile = join(folder, IMAGE);
  const noteFile = join(folder, NOTE);
  if (!existsSync(imageFile) || !existsSync(noteFile)) return undefined;
  try {
    const note: unknown = JSON.parse(readFileSync(noteFile, 'utf8'));
    if (!isNote(note)) return undefined;
    const bytes = readFileSync(imageFile);
    if (sha256(bytes) !== note.sha256) return undefined;
    const known = migrationHashes(folder);
    if (known.length !== note.migrations.length || known.some((h, i) => h !== note.migrations[i])) return undefined;
    return bytes;
  } catch {
    return undefined;
  }
}

function isNote(x: unknown): x is ImageNote {
  if (typeof x !== 'object' || x === null || !('sha256' in x) || !('migrations' in x)) return false;
  return typeof x.sha256 === 'string' && Array.isArray(x.migrations) && x.migrations.every((m) => typeof m === 'string');
}

/**
 * Creates the database file `path`, which does not exist, from the folder's fresh image. Returns
 * true when it did; false when there is no usable image or the file could not be made (then
 * nothing was created and the caller creates the database the normal way). Never replaces a file:
 * the copy is written under another name, synced, and linked to `path`, which fails if another
 * process made `path` meanwhile (its database is then used as it is).
 */
export function placeFreshImage(path: string, folder: string): boolean {
  const bytes = freshImage(folder);
  if (bytes === undefined) return false;
  const temp = join(dirname(path), `.${process.pid}.${Date.now()}.fresh.tmp`);
  try {
    // SQLite's own mode for a file it creates (SQLITE_DEFAULT_FILE_PERMISSIONS), less the umask.
    const fd = openSync(temp, 'wx', 0o644);
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, path);
    syncFolder(dirname(path));
    return true;
  } catch {
    return false;
  } finally {
    try {
      rmSync(temp, { force: true });
    } catch {
      // No folder to write in: no copy was made either.
    }
  }
}

/** Makes the new name durable (as SQLite syncs a folder after creating a file in it); where a folder cannot be synced, the file still is. */
function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some systems refuse to sync a folder; the file's own sync stands.
  }
}
