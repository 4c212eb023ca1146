import { constants, crc32, createDeflate } from 'node:zlib';

/**
 * An experiment kept for `npm run bench -- --bands`, not the bot's encoder (src/render/encodePng.ts
 * says why): a PNG writer for a picture drawn over a static layer (a map). The picture is cut into
 * horizontal bands of BAND_ROWS rows, and each band is its own piece of the one zlib stream PNG
 * allows, compressed on a fresh deflate state and ended with a full flush (byte-aligned, no BFINAL,
 * nothing after it refers back into it), so any band's piece can stand next to any other. A band
 * whose pixels equal the static layer's (a memcmp, exact) reuses the chunk compressed the first
 * time that band was met unchanged; only the bands the overlay changed are compressed, a few at a
 * time on libuv's thread pool. The file: signature, IHDR (8-bit RGB: the picture is opaque), one
 * IDAT with the zlib header, one IDAT per band, one IDAT with the final (empty) block and the
 * Adler-32 of the whole raw data (the bands' Adler-32s combined), IEND.
 *
 * The pieces come from node's zlib: sharp's zlib-ng (libpng) ends its stream with a final block that
 * holds data, which can be made non-final only by decoding the stream's last bytes to find it
 * (measured and not kept: src/render/encodePng.ts says why).
 */

/** Rows per band: on the Valormr snapshot 8 rows leave 38 % of the bands untouched, 16 rows 32 %, 32 rows 25 %. */
export const BAND_ROWS = 8;
/** Bands compressed at once on libuv's pool (each holds one deflate state, ~300 kB, while it runs). */
const LANES = 4;
const LEVEL = 1;

/** One band's finished IDAT chunk and what the stream's end needs of it. */
interface Band {
  /** The IDAT chunk: length, type, the band's deflate piece, CRC. */
  readonly chunk: Buffer;
  /** Adler-32 of the band's raw (filtered) bytes. */
  readonly adler: number;
}

/**
 * The bands of one static layer: its RGBA pixels (what a picture's bands are compared with) and
 * each band's finished chunk once a picture has met that band unchanged. Made for one layer and
 * size; a picture of another size never uses it.
 */
export interface LayerBands {
  readonly width: number;
  readonly height: number;
  readonly rows: number;
  /** The static layer's pixels, RGBA, opaque. Never changed after construction. */
  readonly pixels: Buffer;
  readonly bands: (Band | undefined)[];
}

/** The bands of a static layer of these pixels (opaque RGBA, `width` x `height`); no band is compressed yet. */
export function layerBands(pixels: Buffer, width: number, height: number, rows = BAND_ROWS): LayerBands {
  if (pixels.length !== width * height * 4) throw new Error(`layer pixels: ${pixels.length} bytes for ${width} x ${height}`);
  if (!Number.isInteger(rows) || rows < 1) throw new Error(`band rows must be a positive integer, not ${rows}`);
  return { width, height, rows, pixels, bands: new Array<Band | undefined>(Math.ceil(height / rows)).fill(undefined) };
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** zlib header: deflate, 32 kB window, "fastest" level, no dictionary (0x7801 is a multiple of 31). */
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
/** A final, empty block with fixed codes: BFINAL 1, BTYPE 01, end-of-block (10 bits, zero-padded). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** What a full flush ends a piece with: an empty stored block, BFINAL 0. */
const FLUSH_MARK = Buffer.from([0x00, 0x00, 0xff, 0xff]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** True when a chunk's CRC matches its type and data (a cached chunk damaged in memory is not used). */
function chunkIntact(c: Buffer): boolean {
  if (c.length < 12) return false;
  const len = c.readUInt32BE(0);
  return len === c.length - 12 && c.readUInt32BE(8 + len) === crc32(c.subarray(4, 8 + len));
}

const BASE = 65521;

/** Adler-32 of A followed by B, from adler(A), adler(B) and B's length (zlib's adler32_combine). */
export function adler32Combine(a1: number, a2: number, len2: number): number {
  const rem = len2 % BASE;
  let sum1 = a1 & 0xffff;
  let sum2 = (rem * sum1) % BASE;
  sum1 += (a2 & 0xffff) + BASE - 1;
  sum2 += ((a1 >>> 16) & 0xffff) + ((a2 >>> 16) & 0xffff) + BASE - rem;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum2 >= BASE * 2) sum2 -= BASE * 2;
  if (sum2 >= BASE) sum2 -= BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/** The raw PNG rows (filter byte 0, then R, G, B per pixel) of rows y0..y1 of opaque RGBA pixels. */
function rawRows(rgba: Uint8Array, width: number, y0: number, y1: number): Buffer {
  const stride = width * 3 + 1;
  const out = Buffer.allocUnsafe((y1 - y0) * stride);
  const words = new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length >> 2);
  let o = 0;
  for (let y = y0; y < y1; y++) {
    out[o++] = 0;
    const end = (y + 1) * width;
    // little-endian words: R in the low byte
    for (let i = y * width; i < end; i++, o += 3) {
      const p = words[i] as number;
      out[o] = p;
      out[o + 1] = p >>> 8;
      out[o + 2] = p >>> 16;
    }
  }
  return out;
}

/**
 * Compresses one band's raw bytes as a self-contained piece: a fresh zlib stream, the data ended
 * with a full flush, then finished (an empty final block and the Adler-32). The piece is what lies
 * between the header and that final block; the stream's trailer gives the band's Adler-32.
 */
function compressBand(raw: Buffer): Promise<Band> {
  return new Promise((resolve, reject) => {
    const z = createDeflate({ level: LEVEL, flush: constants.Z_FULL_FLUSH });
    const out: Buffer[] = [];
    z.on('data', (d: Buffer) => out.push(d));
    z.on('error', reject);
    z.on('end', () => {
      const all = Buffer.concat(out);
      const n = all.length;
      // header, the piece (ending with the flush's empty stored block), the final block, Adler-32
      if (n < 12 || !all.subarray(n - 10, n - 6).equals(FLUSH_MARK) || !all.subarray(n - 6, n - 4).equals(FINAL_BLOCK)) {
        reject(new Error('zlib ended a band in an unexpected way'));
        return;
      }
      resolve({ chunk: chunk('IDAT', all.subarray(2, n - 6)), adler: all.readUInt32BE(n - 4) });
    });
    z.write(raw);
    z.end();
  });
}

/**
 * Encodes opaque RGBA pixels (`width` x `height`, as `canvas.data()` gives them) as an RGB PNG.
 * With `layer` (the bands of the static layer the picture was drawn over, same size), a band
 * whose pixels equal the layer's reuses (or, met for the first time, keeps) that band's chunk;
 * only the others are compressed. The decoded pixels are exactly the RGB of `rgba`.
 */
export async function encodeBands(rgba: Uint8Array, width: number, height: number, layer?: LayerBands): Promise<Buffer> {
  if (rgba.length !== width * height * 4) throw new Error(`pixels: ${rgba.length} bytes for ${width} x ${height}`);
  const usable = layer !== undefined && layer.width === width && layer.height === height ? layer : undefined;
  const rows = usable?.rows ?? BAND_ROWS;
  const count = Math.ceil(height / rows);
  const rowBytes = width * 4;
  const pixels = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.length);
  const bands = new Array<Band | undefined>(count);
  const todo: number[] = [];
  /** Bands equal to the layer's: their chunk, once made, is the layer's too. */
  const unchanged = new Array<boolean>(count).fill(false);
  for (let b = 0; b < count; b++) {
    const from = b * rows * rowBytes;
    const to = Math.min(height, (b + 1) * rows) * rowBytes;
    const same = usable !== undefined && pixels.compare(usable.pixels, from, to, from, to) === 0;
    unchanged[b] = same;
    const kept = same ? usable.bands[b] : undefined;
    if (kept && chunkIntact(kept.chunk)) bands[b] = kept;
    else todo.push(b);
  }
  // a few lanes, each compressing its bands one after another
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < todo.length) {
      const b = todo[next++] as number;
      const y0 = b * rows;
      const y1 = Math.min(height, y0 + rows);
      const band = await compressBand(rawRows(rgba, width, y0, y1));
      bands[b] = band;
      if (usable && unchanged[b]) usable.bands[b] = band;
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, todo.length) }, lane));

  let adler = 1;
  const stride = width * 3 + 1;
  const parts: Buffer[] = [SIGNATURE, chunk('IHDR', ihdr(width, height)), chunk('IDAT', ZLIB_HEADER)];
  for (let b = 0; b < count; b++) {
    const band = bands[b] as Band;
    parts.push(band.chunk);
    adler = adler32Combine(adler, band.adler, (Math.min(height, (b + 1) * rows) - b * rows) * stride);
  }
  const tail = Buffer.alloc(6);
  FINAL_BLOCK.copy(tail, 0);
  tail.writeUInt32BE(adler, 2);
  parts.push(chunk('IDAT', tail), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

function ihdr(width: number, height: number): Buffer {
  const h = Buffer.alloc(13);
  h.writeUInt32BE(width, 0);
  h.writeUInt32BE(height, 4);
  h[8] = 8; // bit depth
  h[9] = 2; // truecolour (RGB)
  // compression 0 (deflate), filter method 0, no interlace
  return h;
}

/** The zlib stream of a PNG: its IDAT chunks' data joined. */
export function idatData(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let o = 8; o + 12 <= png.length;) {
    const len = png.readUInt32BE(o);
    if (png.toString('latin1', o + 4, o + 8) === 'IDAT') parts.push(png.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  return Buffer.concat(parts);
}
