import { createHash } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import { type CacheHeader, cacheFileStamp, readCacheBodyInto, readCacheHeader } from '../../cacheFile.js';
import type { StoredRow } from '../../db/packedText.js';

/*
 * The kept files of a season's export (exportChunks.ts) as the process reads them: a file's header
 * alone in the export's read transaction (it decides the plan), its body after it, a few files
 * between two turns of the event loop, straight into its place in the export's one buffer. What the process learnt of a file (its
 * header; that its body is the one the header names) holds while the file keeps the stamp it had
 * then (device, inode, size, times: src/cacheFile.ts), once that stamp is settled.
 */

/** What the process knows of the kept files, by path. */
export interface KeptFiles {
  /** Files whose body was checked against its header's digest: the stamp they had then. */
  readonly checked: Map<string, string>;
  /** Files' headers as read, while the file keeps the (settled) stamp it had then: a reused export reads no header again. */
  readonly headers: Map<string, CacheHeader>;
  /** Parts whose last row was found to be the database's: the header's digest of its text and the digest of the row as stored then. */
  readonly rows: Map<string, string>;
}

export const newKeptFiles = (): KeptFiles => ({ checked: new Map(), headers: new Map(), rows: new Map() });

/** How many files the process remembers a thing of (a season's export: ~250 files); the longest remembered are forgotten first. */
const REMEMBERED = 4096;

/** Remembers `value` for `path` in `memo`, forgetting the oldest beyond REMEMBERED (a bot of many long campaigns holds no more). */
function remember<T>(memo: Map<string, T>, path: string, value: T): void {
  memo.delete(path);
  memo.set(path, value);
  for (const oldest of memo.keys()) {
    if (memo.size <= REMEMBERED) break;
    memo.delete(oldest);
  }
}

/** Forgets what the process knew of the files in `dir` (a deleted campaign's). */
export function forgetFiles(files: KeptFiles, dir: string): void {
  for (const memo of [files.checked, files.headers, files.rows]) for (const path of memo.keys()) if (path.startsWith(`${dir}/`)) memo.delete(path);
}

const sha = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Whether a kept part's last row is the database's: its text's digest is `last`, the one the part's
 * header names. A row found so once is not unpacked and written again while it is stored as it was
 * then (the same columns, the same packed bytes: the same text); a row packed since, or changed, is
 * checked again.
 */
export function isLastRow<T>(files: KeptFiles | undefined, path: string, last: string, row: StoredRow<T>, text: (row: T) => string): boolean {
  const seen = `${last}:${sha(row.stored)}`;
  if (files?.rows.get(path) === seen) return true;
  if (sha(text(row.text())) !== last) return false;
  if (files !== undefined) remember(files.rows, path, seen);
  return true;
}

/**
 * A kept file's header, read on its own: taken again from memory while the file keeps the stamp it
 * had when it was read (one `stat`; only once that stamp is settled, src/cacheFile.ts), else read.
 */
export function keptHeader(files: KeptFiles | undefined, path: string, magic: Buffer): CacheHeader | undefined {
  const headers = files?.headers;
  const memo = headers?.get(path);
  if (memo !== undefined) {
    if (cacheFileStamp(path)?.stamp === memo.stamp) return memo;
    headers?.delete(path);
  }
  const read = readCacheHeader(path, magic);
  if (read?.settled && headers !== undefined) remember(headers, path, read);
  return read;
}

/**
 * Reads a kept file's body into `into`, and says whether the file is still the
 * one whose header was read and its body the one the header's digest names: hashed again unless the
 * file is the very one checked before (the same settled stamp: device, inode, size, times;
 * src/cacheFile.ts). A file written or replaced since has another stamp and is hashed again; a file
 * changed too recently for its times to tell is hashed every time.
 */
function keptBodyInto(files: KeptFiles | undefined, { path, at }: KeptBody, into: Buffer): boolean {
  if (!readCacheBodyInto(path, at, into)) return false;
  const checked = files?.checked;
  if (checked?.get(path) === at.stamp) return true;
  if (at.header.body !== sha(into)) {
    checked?.delete(path);
    return false;
  }
  if (at.settled && checked !== undefined) remember(checked, path, at.stamp);
  return true;
}

/**
 * How many kept bodies are read between two turns of the event loop (each a read of some tens of
 * kilobytes, most often from the OS's cache: a slice of ~1 ms). Read on libuv's threads instead,
 * each file's open, read, stat and close cost 5x the CPU (a reused season's export: 27 vs ~5 ms).
 */
const READS_A_SLICE = 16;

/** A kept file's body to read into the export (`placeMembers`): the file, its header as read. */
export interface KeptBody {
  readonly path: string;
  readonly at: CacheHeader;
}

/** A gzip member of the export: compressed now, or a kept file's body (read once the whole export's size is known). */
export type Member = Buffer | KeptBody;

/**
 * The members one after the other in one buffer: those compressed now copied, the kept bodies read
 * into their place (a slice of files between two turns of the event loop) and checked against their header's digest
 * (unless the file is the very one checked before: the same settled stamp). Or the files of the
 * kept bodies that were not whole, changed since their header was read, or not the body the header names.
 */
export async function placeMembers(files: KeptFiles | undefined, members: readonly Member[]): Promise<{ members: Buffer[]; packed: Buffer } | { bad: string[] }> {
  const packed = Buffer.allocUnsafe(members.reduce((n, m) => n + (Buffer.isBuffer(m) ? m.length : m.at.bodyLength), 0));
  const placed: Buffer[] = [];
  const reads: { kept: KeptBody; into: Buffer }[] = [];
  let at = 0;
  for (const m of members) {
    const into = packed.subarray(at, at + (Buffer.isBuffer(m) ? m.length : m.at.bodyLength));
    if (Buffer.isBuffer(m)) m.copy(into);
    else reads.push({ kept: m, into });
    placed.push(into);
    at += into.length;
  }
  const bad: string[] = [];
  for (const [i, { kept, into }] of reads.entries()) {
    if (i > 0 && i % READS_A_SLICE === 0) await turn();
    if (!keptBodyInto(files, kept, into)) bad.push(kept.path);
  }
  return bad.length > 0 ? { bad } : { members: placed, packed };
}
