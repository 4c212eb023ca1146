import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { MessageFile } from './messages.js';

/** What a file became to fit the reader's upload limit. */
export type Fitted =
  | { readonly kind: 'asIs'; readonly file: MessageFile }
  | { readonly kind: 'compressed'; readonly file: MessageFile; readonly bytes: number }
  | { readonly kind: 'tooLarge'; readonly bytes: number; readonly compressedBytes: number }
  /** Gzipped, in several files each under the limit: each a gzip file of its own, their bytes one after the other the whole gzip stream. */
  | { readonly kind: 'parts'; readonly files: readonly MessageFile[]; readonly bytes: number; readonly compressedBytes: number };

/** A size as a person reads it: "840 kB", "12.4 MB" (MB of 1,048,576 bytes, as Discord counts its limits). */
export function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether a file of `bytes` can be uploaded under `limit` (undefined, as on the console: any size). */
export function fits(bytes: number, limit: number | undefined): boolean {
  return limit === undefined || bytes <= limit;
}

const gunzipAsync = promisify(gunzip);

/**
 * The export as it can be handed to the reader, from its gzip members (exportChunks.ts; one gzip
 * stream concatenated, `packed` when they are already one buffer) and its text's length: the text itself when it fits `limit` (undefined:
 * any size; unpacked on zlib's threads), else the gzip stream as it is when that fits, else the
 * stream cut between members into files each under the limit (`-part-1-of-3.json.gz`: each a gzip
 * file of its own; `npm run replay -- PART1 PART2 ...` reads them one after the other), else (one
 * member alone over the limit) too large.
 */
export async function fitExport(file: { readonly name: string; readonly members: readonly Buffer[]; readonly packed?: Buffer; readonly bytes: number }, limit: number | undefined): Promise<Fitted> {
  // The members already lie one after the other in `packed` (exportChunks.ts): no copy of megabytes.
  const packed = file.packed ?? Buffer.concat(file.members);
  if (fits(file.bytes, limit)) {
    const text = await gunzipAsync(packed);
    return { kind: 'asIs', file: { name: file.name, data: new Uint8Array(text.buffer, text.byteOffset, text.byteLength) } };
  }
  if (fits(packed.byteLength, limit)) return { kind: 'compressed', file: { name: `${file.name}.gz`, data: new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength) }, bytes: file.bytes };
  const groups = limit === undefined ? undefined : packedParts(file.members, limit);
  if (groups === undefined) return { kind: 'tooLarge', bytes: file.bytes, compressedBytes: packed.byteLength };
  const base = file.name.replace(/\.json$/, '');
  // The members lie one after the other in `packed`: each file is its slice, not a copy.
  let at = 0;
  const files = groups.map((g, i) => {
    const length = g.reduce((n, m) => n + m.byteLength, 0);
    const data = packed.subarray(at, at + length);
    at += length;
    return { name: `${base}.part-${i + 1}-of-${groups.length}.json.gz`, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  });
  return { kind: 'parts', files, bytes: file.bytes, compressedBytes: packed.byteLength };
}

/** Members grouped in order, each group's bytes at most `limit` (as few groups as that allows); undefined when one member alone is over it. */
function packedParts(members: readonly Buffer[], limit: number): Buffer[][] | undefined {
  const groups: Buffer[][] = [];
  let size = 0;
  for (const m of members) {
    if (m.byteLength > limit) return undefined;
    const last = groups.at(-1);
    if (last !== undefined && size + m.byteLength <= limit) {
      last.push(m);
      size += m.byteLength;
    } else {
      groups.push([m]);
      size = m.byteLength;
    }
  }
  return groups;
}
