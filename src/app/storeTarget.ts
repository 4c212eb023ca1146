import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hidePassword } from '../db/storeErrors.js';

/**
 * Where the campaigns are kept, as the app is told: a SQLite file, ':memory:', or a PostgreSQL URL
 * (DATABASE_URL). What the transports need to know of it without touching the store.
 */

/** True for a PostgreSQL URL (the scheme alone decides, as in openDatabase). */
export function isPostgresTarget(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/** The store as people are shown it: a URL with its password hidden, or the file's full path. */
export function describeTarget(target: string): string {
  if (isPostgresTarget(target)) return hidePassword(target);
  return target === ':memory:' || target === '' ? ':memory:' : resolve(target);
}

/**
 * Where the map pictures' static layers are kept when RENDER_CACHE_DIR does not say: beside a
 * SQLite file (`<database>-layers/`); on PostgreSQL, which has no file, in the OS temporary folder,
 * one folder per user (`valormr-layers-<uid>`: the files are named by their content, so every
 * process of the machine shares them); none for a database in memory.
 */
export function defaultLayerDir(target: string): string | undefined {
  if (isPostgresTarget(target)) return join(tmpdir(), `valormr-layers-${process.getuid?.() ?? 'user'}`);
  return target === ':memory:' || target === '' ? undefined : `${target}-layers`;
}
