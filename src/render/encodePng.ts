import { availableParallelism } from 'node:os';
import { constants, crc32, createDeflate, deflateSync } from 'node:zlib';
import type { Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';

// libvips keeps recent operations in a cache; a picture fed raw pixels never repeats one, so it only holds memory.
sharp.cache(false);

/** zlib effort: level 1, rows unfiltered (filtering costs more time than it saves bytes here). */
const LEVEL = 1;
const PNG_OPTIONS = { compressionLevel: LEVEL, adaptiveFiltering: false } as const;

/** Horizontal bands compressed at once, on libuv's threads (at most four of them run anyway). */
const BANDS = Math.max(2, Math.min(4, availableParallelism()));

/**
 * Encodes a drawn canvas as a lossless PNG.
 *
 * An opaque picture (a map: its static layer covers the whole picture; a battlefield sketch) is
 * written by `opaquePng`: the canvas's pixels as they are (premultiplied equals straight where
 * every pixel is opaque), cut in a few bands of rows compressed at once by node's zlib, one zlib
 * stream in the file. Measured on the full Valormr map against sharp (libvips) at the same
 * settings: node's zlib alone takes about half sharp's time, the bands divide it again on two
 * cores, and the file is a little smaller, though it keeps the (all-opaque) alpha channel: dropping
 * it would cost a copy of every pixel in JavaScript, more than the bytes it saves.
 *
 * A picture with transparent or translucent pixels goes through sharp with straight (not
 * premultiplied) alpha, exactly as the canvas's own PNG encoder writes it. Either way the decoded
 * pixels are identical to `canvas.encode('png')`'s.
 */
export async function encodePng(canvas: Canvas): Promise<Buffer> {
  const { width, height } = canvas;
  const raw = canvas.data();
  if (allOpaque(raw)) return opaquePng(raw, width, height);
  const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  return sharp(pixels, { raw: { width, height, channels: 4 } }).png(PNG_OPTIONS).toBuffer();
}

function allOpaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

/** RGBA pixels (every alpha 255) as a PNG of colour type 6, compressed in bands at once. */
export async function opaquePng(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  const stride = width * 4;
  const per = Math.ceil(height / BANDS);
  const bands: Buffer[] = [];
  for (let y0 = 0; y0 < height; y0 += per) {
    const y1 = Math.min(height, y0 + per);
    // Each row: filter byte 0 (none), then its pixels.
    const rows = Buffer.allocUnsafe((stride + 1) * (y1 - y0));
    for (let y = y0, o = 0; y < y1; y++, o += stride + 1) {
      rows[o] = 0;
      rows.set(rgba.subarray(y * stride, (y + 1) * stride), o + 1);
    }
    bands.push(rows);
  }
  let idat: Buffer;
  try {
    idat = joinBands(await Promise.all(bands.map(deflateBand)));
  } catch {
    // zlib ended a band otherwise than expected: one stream, in this thread.
    idat = deflateSync(Buffer.concat(bands), { level: LEVEL });
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method extension, no interlace
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, tail]);
}

interface Band {
  /** Deflate blocks, none final, ending byte-aligned (a sync flush). */
  readonly blocks: Buffer;
  readonly adler: number;
  readonly length: number;
}

/**
 * Compresses one band as a zlib stream on libuv's threads: the data, a sync flush, then the end.
 * zlib then writes its 2-byte header, the blocks, an empty final block (03 00) and the band's
 * Adler-32; the blocks are kept and the checksum combined (as pigz does).
 */
function deflateBand(rows: Buffer): Promise<Band> {
  return new Promise((resolve, reject) => {
    const z = createDeflate({ level: LEVEL });
    const out: Buffer[] = [];
    z.on('data', (c: Buffer) => out.push(c));
    z.on('error', reject);
    z.on('end', () => {
      const all = Buffer.concat(out);
      const n = all.length;
      if (n < 12 || all[n - 6] !== 0x03 || all[n - 5] !== 0x00 || all.readUInt32BE(n - 10) !== 0x0000ffff) {
        reject(new Error('a band did not end in a sync flush and an empty final block'));
        return;
      }
      resolve({ blocks: all.subarray(2, n - 6), adler: all.readUInt32BE(n - 4), length: rows.length });
    });
    z.write(rows);
    z.flush(constants.Z_SYNC_FLUSH, () => z.end());
  });
}

/** One zlib stream from the bands: header, their blocks, a final empty block, the combined Adler-32. */
function joinBands(bands: readonly Band[]): Buffer {
  let adler = 1;
  for (const b of bands) adler = adler32Combine(adler, b.adler, b.length);
  const trailer = Buffer.alloc(6);
  trailer.set([0x03, 0x00], 0);
  trailer.writeUInt32BE(adler, 2);
  return Buffer.concat([Buffer.from([0x78, 0x01]), ...bands.map((b) => b.blocks), trailer]);
}

const ADLER_BASE = 65521;

/** The Adler-32 of A then B from theirs and B's length (zlib's adler32_combine). */
export function adler32Combine(a: number, b: number, lengthB: number): number {
  const rem = lengthB % ADLER_BASE;
  let sum1 = a & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (b & 0xffff) + ADLER_BASE - 1;
  sum2 += (a >>> 16) + (b >>> 16) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= 2 * ADLER_BASE) sum2 -= 2 * ADLER_BASE;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return (sum1 | (sum2 << 16)) >>> 0;
}
