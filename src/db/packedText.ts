import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { PACK_DICTIONARIES_V1 } from './packDictionaries.js';

/**
 * Cold rows packed (issue 25: a long campaign's database stays small). The journal's rows, the
 * events and the ticks' frames are written as plain JSON text; once cold (src/app/packCold.ts) a
 * row's text columns are deflated together into one binary column (SQLite blob, PostgreSQL bytea)
 * and set to NULL. The repositories unpack on read, so every reader gets the stored text back byte
 * for byte (the export's hash chain is over that text).
 *
 * A packed value: byte 0 the dictionary's version (1: packDictionaries.ts), then the text, UTF-8,
 * deflated raw with that version's dictionary of its kind. An unknown version is broken data and
 * throws (a newer bot's rows read by an older one).
 */
export type PackKind = keyof typeof PACK_DICTIONARIES_V1;

const VERSION = 1;
const dictionaries: Record<PackKind, Buffer> = {
  journal: Buffer.from(PACK_DICTIONARIES_V1.journal),
  event: Buffer.from(PACK_DICTIONARIES_V1.event),
  frame: Buffer.from(PACK_DICTIONARIES_V1.frame),
};

/** `text` packed with the current dictionary of its kind. */
export function packText(kind: PackKind, text: string): Buffer {
  const body = deflateRawSync(text, { dictionary: dictionaries[kind] });
  const out = Buffer.allocUnsafe(body.length + 1);
  out[0] = VERSION;
  body.copy(out, 1);
  return out;
}

/** The text a `packText` value holds. */
export function unpackText(kind: PackKind, packed: Uint8Array): string {
  if (packed[0] !== VERSION) throw new Error(`broken data: a packed ${kind} row of version ${packed[0] ?? '(empty)'}; this bot reads version ${VERSION}`);
  return inflateRawSync(packed.subarray(1), { dictionary: dictionaries[kind] }).toString('utf8');
}

/**
 * Some texts (or nulls), then one last text, as one text to pack, and back: a header of the
 * first ones' lengths (-1 for a null) ended by a newline, then every text as it is. Exact for any
 * content, whatever characters it holds.
 */
export function joinParts(first: readonly (string | null)[], rest: string): string {
  return `${first.map((t) => (t === null ? -1 : t.length)).join(',')}\n${first.map((t) => t ?? '').join('')}${rest}`;
}

/** The `count` first texts and the last text `joinParts` joined. */
export function splitParts(text: string, count: number): { first: (string | null)[]; rest: string } {
  const end = text.indexOf('\n');
  const header = end < 0 ? undefined : text.slice(0, end);
  const lengths = header === undefined ? [] : header === '' ? [] : header.split(',').map(Number);
  if (header === undefined) throw new Error('broken data: a packed row has no header');
  if (lengths.length !== count || lengths.some((n) => !Number.isInteger(n) || n < -1)) throw new Error(`broken data: a packed row's header is not ${count} lengths`);
  const first: (string | null)[] = [];
  let at = end + 1;
  for (const n of lengths) {
    first.push(n < 0 ? null : text.slice(at, at + n));
    at += Math.max(n, 0);
  }
  if (at > text.length) throw new Error('broken data: a packed row is shorter than its header says');
  return { first, rest: text.slice(at) };
}

/**
 * A row as stored, for the export's check of its kept parts' last rows: `stored` is every column as
 * stored (a packed row's bytes as they are), `text` the row's text as the export writes it (a packed
 * row unpacked only when asked). The same `stored` is the same row, so a row checked once need not
 * be unpacked again while it stays as it was (src/app/campaign/exportChunks.ts).
 */
export interface StoredRow<T> {
  readonly stored: string;
  readonly text: () => T;
}

/** The columns of a row as stored, as one text: each column's value, a packed value's bytes in base64. */
export function storedText(columns: readonly unknown[], packed: Buffer | null): string {
  return `${JSON.stringify(columns)}${packed === null ? '' : packed.toString('base64')}`;
}
