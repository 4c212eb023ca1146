import { createHash } from 'node:crypto';
import { type BigIntStats, chmodSync, closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * The container of the caches kept beside the database (the map's static layers,
 * src/render/layerFile.ts; the route tables, src/app/movement/routeTableFile.ts): `magic`, a
 * 4-byte big-endian header length, a JSON header, then the body. Each cache checks the header
 * (format, code version, key, sizes, CRC) before it trusts the body.
 */

/** The JSON header and the body of the cache file at `path`, or undefined when it is missing, of another kind, or cut short. */
export function readCacheFile(path: string, magic: Buffer): { header: Record<string, unknown>; body: Buffer } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  return parseCacheFile(bytes, magic);
}

/** How long after its last change a file's times are taken to tell any later change (the kernel's clock for file times is coarse). */
const SETTLED_MS = 2_000;

/**
 * What identifies the bytes of a file: its device, inode, size, and times of change (nanoseconds).
 * Any write or rename changes one of them, so a file seen with the same stamp as one whose body was
 * checked before holds the bytes checked then, if it was `settled` then: it last changed long enough
 * before for a later change to get other times (a change within the same clock tick could keep
 * them: such a file's stamp proves nothing yet; git's "racy" index entries).
 */
export interface CacheStamp {
  readonly stamp: string;
  readonly settled: boolean;
}

/** A cache file's header read on its own (`readCacheHeader`), where its body lies, and the file's stamp then. */
export interface CacheHeader extends CacheStamp {
  readonly header: Record<string, unknown>;
  readonly bodyOffset: number;
  readonly bodyLength: number;
}

const stampOf = (s: BigIntStats): CacheStamp => {
  const latest = s.mtimeMs > s.ctimeMs ? s.mtimeMs : s.ctimeMs;
  return { stamp: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, settled: Number(latest) < Date.now() - SETTLED_MS };
};

/** The stamp of the file at `path` (one `stat`), or undefined when there is none. */
export function cacheFileStamp(path: string): CacheStamp | undefined {
  try {
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s === undefined || !s.isFile() ? undefined : stampOf(s);
  } catch {
    return undefined;
  }
}

/**
 * The header of the cache file at `path`, without its body (the export's kept parts: their headers
 * decide the plan inside its read transaction, their bodies are read after it, `readCacheBodyInto`), or
 * undefined when it is missing, of another kind, cut short, or changed while it was read.
 */
export function readCacheHeader(path: string, magic: Buffer): CacheHeader | undefined {
  return withOpenFile(path, undefined, (fd) => {
    const before = fstatSync(fd, { bigint: true });
    const size = Number(before.size);
    const first = Buffer.allocUnsafe(Math.min(size, 4096));
    if (readSync(fd, first, 0, first.length, 0) !== first.length || first.length < magic.length + 4 || !first.subarray(0, magic.length).equals(magic)) return undefined;
    const start = magic.length + 4;
    const end = start + first.readUInt32BE(magic.length);
    if (end > size) return undefined;
    let json = first.subarray(start, end);
    if (end > first.length) {
      json = Buffer.allocUnsafe(end - start);
      if (readSync(fd, json, 0, json.length, start) !== json.length) return undefined;
    }
    const header: unknown = JSON.parse(json.toString('utf8'));
    const after = stampOf(fstatSync(fd, { bigint: true }));
    if (typeof header !== 'object' || header === null || after.stamp !== stampOf(before).stamp) return undefined;
    return { header: header as Record<string, unknown>, bodyOffset: end, bodyLength: size - end, ...after };
  });
}

/**
 * Reads the body of a cache file whose header `readCacheHeader` gave into `target` (its length the
 * body's), and says whether the file still had the stamp it had then once read: any change since
 * (rewritten, replaced, cut) says no. One small synchronous read (the export's kept parts: a few
 * tens of kilobytes each, read a slice of files at a time between turns of the event loop).
 */
export function readCacheBodyInto(path: string, at: CacheHeader, target: Buffer): boolean {
  return withOpenFile(path, false, (fd) => {
    for (let got = 0; got < target.length;) {
      const read = readSync(fd, target, got, target.length - got, at.bodyOffset + got);
      if (read === 0) return false;
      got += read;
    }
    // The file's times only move forward and a rename is another inode: the stamp after the read is
    // the header's only if the file was not changed since (within the clock's grain: not `settled`).
    return target.length === at.bodyLength && stampOf(fstatSync(fd, { bigint: true })).stamp === at.stamp;
  });
}

/** `read` of the file at `path` opened for reading, closed after; `failed` when it cannot be opened or the read throws. */
function withOpenFile<T>(path: string, failed: T, read: (fd: number) => T): T {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return failed;
  }
  try {
    return read(fd);
  } catch {
    return failed;
  } finally {
    closeSync(fd);
  }
}

function parseCacheFile(bytes: Buffer, magic: Buffer): { header: Record<string, unknown>; body: Buffer } | undefined {
  if (bytes.length < magic.length + 4 || !bytes.subarray(0, magic.length).equals(magic)) return undefined;
  const length = bytes.readUInt32BE(magic.length);
  const start = magic.length + 4;
  if (start + length > bytes.length) return undefined;
  try {
    const header: unknown = JSON.parse(bytes.subarray(start, start + length).toString('utf8'));
    if (typeof header !== 'object' || header === null) return undefined;
    return { header: header as Record<string, unknown>, body: bytes.subarray(start + length) };
  } catch {
    return undefined;
  }
}

/**
 * Writes a cache file (its folder made if needed) to a temporary name, then renames it: a reader
 * (another process, another thread) never sees half a file. A failure to write (read-only folder,
 * full disk) is swallowed: it only costs the next reader a rebuild.
 */
export function writeCacheFile(path: string, magic: Buffer, header: object, body: Buffer): void {
  const tmp = `${path}.${process.pid}-${threadId}.tmp`;
  try {
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(json.length);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, Buffer.concat([magic, length, json, body]));
    renameSync(tmp, path);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // No folder to leave a temporary file in.
    }
  }
}

/**
 * Makes `dir` (and the folders above it) and says whether it is this user's own: `dir` is a real
 * folder (not a link) owned by the user, in a parent of the user's or root's that not everyone can
 * write to unless it is sticky (like /tmp); `dir` is left readable by no one else (mode 700). A
 * cache whose files hold secrets (the export parts: the whole log, hidden facts included) is kept
 * only in such a folder: on PostgreSQL the caches live in the machine's shared temporary folder,
 * under a name anyone can guess and make first. Where the OS has no user ids (Windows), a folder
 * that could be made is taken.
 */
export function privateFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    if (uid === undefined) return true;
    const parent = lstatSync(dirname(dir));
    const own = lstatSync(dir);
    // Who else could rename `dir` away and put another in its place: the parent's owner (if not
    // this user or root), and everyone if it is writable by all and not sticky.
    const sticky = (parent.mode & 0o1000) !== 0;
    const parentSafe = parent.isDirectory() && (parent.uid === uid || parent.uid === 0) && (sticky || (parent.mode & 0o002) === 0);
    if (!parentSafe || !own.isDirectory() || own.uid !== uid) return false;
    if ((own.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return true;
  } catch {
    return false;
  }
}

/** A short hash of source files (a missing one hashed as missing): a cache's code version, so new code never reads an old cache. */
export function sourcesVersion(seed: string, files: readonly URL[]): string {
  const hash = createHash('sha1').update(seed);
  for (const f of files) {
    try {
      hash.update(readFileSync(f));
    } catch {
      hash.update(`missing ${f.pathname}`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}
