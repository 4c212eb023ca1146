import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { type CacheHeader, writeCacheFile } from '../../cacheFile.js';
import type { OnPart } from './exportTypes.js';

const gzipAsync = promisify(gzip);

/** The SHA-256 of a run's text (hex): the name it is kept under (and of a kept body: its header's digest). */
export const runDigest = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/*
 * The closed contacts (line 1's `closedContacts` array: ~1,900 records, 3.8 MB in a season) in runs,
 * each compressed once and kept under its text's digest. A run ends after a record whose id hashes
 * to 0 modulo `size` (so ~`size` records a run, and a record added or taken away in one run leaves
 * the others as they were); the last run is open (compressed at each export). A run's text is its
 * records, each followed by its comma: kept under the SHA-256 of that text, it is taken only for
 * that very text, read now in the plan's transaction.
 */

/** FNV-1a of a contact's id, mixed (MurmurHash3's finish): where runs end. */
function idHash(id: string): number {
  let x = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) x = Math.imul(x ^ id.charCodeAt(i), 0x01000193);
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * The closed contacts' closed runs (each record followed by its comma) and the open run (joined by
 * commas, no comma after it). The records come as their stored UTF-8 bytes and the closed runs are
 * slices of one buffer: each is hashed twice (in line 1's digest and as its key) and nothing of
 * megabytes is made a JS string, encoded again or copied twice (a season: ~1,900 records, 3.8 MB).
 */
export function contactRuns(rows: readonly { readonly id: string; readonly data: Buffer }[], size: number): { closed: Buffer[]; open: string } {
  const ends: number[] = [];
  for (let i = 0; i < rows.length - 1; i++) if (idHash(rows[i]?.id ?? '') % size === 0) ends.push(i);
  const count = (ends.at(-1) ?? -1) + 1;
  let length = 0;
  for (let i = 0; i < count; i++) length += (rows[i]?.data.length ?? 0) + 1;
  const all = Buffer.allocUnsafe(length);
  const closed: Buffer[] = [];
  let [at, start] = [0, 0];
  for (const end of ends) {
    const from = at;
    for (let i = start; i <= end; i++) {
      at += rows[i]?.data.copy(all, at) ?? 0;
      all[at++] = COMMA;
    }
    closed.push(all.subarray(from, at));
    start = end + 1;
  }
  return { closed, open: rows.slice(start).map((r) => r.data.toString('utf8')).join(',') };
}

const COMMA = 0x2c;

export const contactsFile = (digest: string): string => `contacts-${digest.slice(0, 40)}.gz`;

/** What a kept run of closed contacts' header says. */
interface ContactsHeader {
  readonly version: string;
  readonly campaignId: string;
  readonly kind: 'contacts';
  readonly text: string;
  readonly bytes: number;
  readonly body: string;
}

/** Whether a kept file's header is that of the run of closed contacts with this text's digest, for this campaign and code version (its body is checked when read: exportChunks.ts). */
export function isContactsHeader(header: Record<string, unknown>, version: string, campaignId: string, digest: string): header is Record<string, unknown> & { bytes: number } {
  const h = header as Partial<ContactsHeader>;
  return h.version === version && h.campaignId === campaignId && h.kind === 'contacts' && h.text === digest && typeof h.bytes === 'number' && typeof h.body === 'string';
}

/** Compresses a run of closed contacts (zlib's threads) and keeps it under its text's digest. */
export async function buildContacts(version: string, magic: Buffer, dir: string, campaignId: string, digest: string, text: Buffer): Promise<{ member: Buffer; bytes: number }> {
  const member = await gzipAsync(text, { level: 9 });
  const bytes = text.length;
  const header: ContactsHeader = { version, campaignId, kind: 'contacts', text: digest, bytes, body: runDigest(member) };
  writeCacheFile(join(dir, contactsFile(digest)), magic, header, member);
  return { member, bytes };
}

/** Removes the kept runs of closed contacts this export did not use (a run changed: its old text is kept no more). */
export function forgetContacts(dir: string, used: ReadonlySet<string>): void {
  try {
    for (const name of readdirSync(dir)) if (name.startsWith('contacts-') && !used.has(name)) rmSync(join(dir, name), { force: true });
  } catch {
    // Nothing kept to forget.
  }
}

/** Where a campaign's runs are kept, and how they are read (exportChunks.ts: its kept files' memory, its code version and magic). */
export interface ContactsFolder {
  readonly read: (path: string) => CacheHeader | undefined;
  readonly version: string;
  readonly magic: Buffer;
  readonly dir: string;
  readonly campaignId: string;
}

/**
 * Each closed run of line 1's closed contacts, in order: taken as kept (found by its text's digest;
 * its body checked once read) or compressed now and kept. The kept runs no longer used are removed
 * once one was built (a run changed: its old text is kept no more).
 */
export async function eachContactsRun(kept: ContactsFolder, runs: readonly Buffer[], bad: ReadonlySet<string>, onRun: OnPart): Promise<void> {
  const { read, version, magic, dir, campaignId } = kept;
  const used = new Set<string>();
  let built = 0;
  for (const run of runs) {
    const digest = runDigest(run);
    used.add(contactsFile(digest));
    const path = join(dir, contactsFile(digest));
    const at = bad.has(path) ? undefined : read(path);
    if (at !== undefined && isContactsHeader(at.header, version, campaignId, digest)) {
      await onRun({ member: { path, at }, bytes: at.header.bytes }, true);
      continue;
    }
    built++;
    await onRun(await buildContacts(version, magic, dir, campaignId, digest, run), false);
  }
  if (runs.length > 0 && built > 0) forgetContacts(dir, used);
}
