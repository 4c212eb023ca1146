import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { MessageFile } from './messages.js';

const gzipAsync = promisify(gzip);

/** What a file became to fit the reader's upload limit. */
export type Fitted =
  | { readonly kind: 'asIs'; readonly file: MessageFile }
  | { readonly kind: 'compressed'; readonly file: MessageFile; readonly bytes: number }
  | { readonly kind: 'tooLarge'; readonly bytes: number; readonly compressedBytes: number };

/** A size as a person reads it: "840 kB", "12.4 MB" (MB of 1,048,576 bytes, as Discord counts its limits). */
export function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether a file of `bytes` can be uploaded under `limit` (undefined, as on the console: any size). */
export function fits(bytes: number, limit: number | undefined): boolean {
  return limit === undefined || bytes <= limit;
}

/**
 * A text file (an export) as it can be handed to the reader: as it is when it fits `limit` (the
 * largest file the reader's client takes; undefined, as on the console: any size), else gzipped
 * (`.gz` added to its name; a season's JSON export shrinks about 8 times, and `npm run replay`
 * reads it as it is), else too large even so. The gzip stream carries no time or name, so the same
 * export gives the same bytes. It is compressed on libuv's thread pool (zlib's async gzip), not on
 * the event loop: a season's export takes seconds to compress, and other campaigns' commands are
 * answered meanwhile.
 */
export async function fitUpload(file: MessageFile, limit: number | undefined): Promise<Fitted> {
  if (fits(file.data.byteLength, limit)) return { kind: 'asIs', file };
  const packed = await gzipAsync(file.data, { level: 6 });
  if (fits(packed.byteLength, limit)) return { kind: 'compressed', file: { ...file, name: `${file.name}.gz`, data: new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength) }, bytes: file.data.byteLength };
  return { kind: 'tooLarge', bytes: file.data.byteLength, compressedBytes: packed.byteLength };
}
