import { crc32 } from 'node:zlib';

/**
 * Joins two PNGs of one picture's top and bottom rows, each encoded on its own (sharp: libpng over
 * zlib-ng at level 1, no filters; see encodePng.ts), into the PNG of the whole picture, so the two
 * halves can be compressed at once on two threads. The decoded pixels are exactly the picture's.
 *
 * A PNG holds one zlib stream, so the top half's stream must be made to go on: zlib-ng's fastest
 * level writes a stream as two blocks of fixed codes, all but the last few hundred bytes in the
 * first and the rest in a final block, which starts right after the first block's end code. That
 * final block is found by reading only the stream's last few hundred bytes: a spot where a final
 * fixed-code block starts after an end code, whose codes decode, against the rows known to be
 * there, to exactly the half's last bytes and end exactly at the stream's end. Its final bit is
 * then cleared, an empty stored block (a sync flush) brings the stream to a byte boundary, the
 * bottom half's stream follows (it refers to nothing before it), and the Adler-32s are combined.
 * Anything unexpected (another encoder, other block types, a filtered row, no such spot or more
 * than one) gives undefined, and the caller encodes the picture whole.
 */
export function joinPngHalves(top: Buffer, bottom: Buffer, topRgb: Uint8Array, width: number): Buffer | undefined {
  const a = readPng(top);
  const b = readPng(bottom);
  if (!a || !b || a.width !== width || b.width !== width || a.zlib.length < 8 || b.zlib.length < 8) return undefined;
  const rowBytes = width * 3;
  if (a.height * rowBytes !== topRgb.length) return undefined;
  const headA = a.zlib.slice(0, 2);
  const headB = b.zlib.slice(0, 6);
  // Both streams as zlib-ng's fastest level writes them with a 32 kB window (0x78 0x01; libpng asks
  // a smaller window for a small picture, and zlib-ng then codes it otherwise); the top half opens
  // with a fixed-code block that is not the last, the bottom half with a fixed-code block whose
  // first byte is its first row's filter byte, 0 (none).
  if (headA[0] !== 0x78 || headA[1] !== 0x01 || headB[0] !== 0x78 || headB[1] !== 0x01) return undefined;
  if (bitsAt(a.zlib.slice(2, 3), 0, 3) !== 0b010 || bitsAt(headB.subarray(2), 1, 2) !== 0b01 || fixedSymbol(headB.subarray(2), 3)?.symbol !== 0) return undefined;
  // The top's deflate data ends 4 bytes (its Adler-32) before its stream's end: its last bytes, where the final block is.
  const dLength = a.zlib.length - 6;
  const tailBytes = Math.min(dLength, TAIL_BYTES);
  const tail = a.zlib.slice(2 + dLength - tailBytes, 2 + dLength);
  const raw = (j: number): number => {
    const r = Math.floor(j / (rowBytes + 1));
    const c = j - r * (rowBytes + 1);
    return c === 0 ? 0 : topRgb[r * rowBytes + c - 1]!;
  };
  const rawLength = a.height * (rowBytes + 1);
  let found: { start: number; end: number } | undefined;
  const last = tailBytes * 8;
  const first = tailBytes === dLength ? 10 : 7;
  for (let p = last - 10; p >= first; p--) {
    if (bitsAt(tail, p, 3) !== 0b011 || bitsAt(tail, p - 7, 7) !== 0) continue;
    const end = finalBlockEnd(tail, p + 3, raw, rawLength);
    if (end === undefined) continue;
    if (found) return undefined; // two spots fit: which one is the block is not known
    found = { start: p, end };
  }
  if (!found) return undefined;
  // The top's blocks up to its last end code, the final bit cleared; then an empty stored block
  // (3 zero bits, zeros to the byte, LEN 0, NLEN 0xffff); the bottom's deflate data; the Adler-32.
  const keep = dLength - tailBytes + ((found.end + 3 + 7) >>> 3);
  const idatLength = 2 + keep + 4 + (b.zlib.length - 6) + 4;
  const extra = a.extra.reduce((n, c) => n + c.length, 0);
  const out = Buffer.alloc(8 + 25 + extra + 12 + idatLength + 12);
  SIGNATURE.copy(out, 0);
  let o = writeChunkHead(out, 8, 'IHDR', 13);
  a.header.copy(out, o);
  out.writeUInt32BE(a.height + b.height, o + 4);
  o = writeChunkEnd(out, o + 13, 13);
  for (const c of a.extra) o += c.copy(out, o);
  const idat = writeChunkHead(out, o, 'IDAT', idatLength);
  o = idat;
  o += a.zlib.copy(out, o, 0, 2 + Math.min(keep, dLength));
  o = idat + 2 + keep; // (bytes past the top's are zero, as are the bits after its end code, checked above)
  const startByte = idat + 2 + dLength - tailBytes + (found.start >>> 3);
  out[startByte] = out[startByte]! & ~(1 << (found.start & 7));
  o = out.writeUInt32BE(0x0000ffff, o);
  o += b.zlib.copy(out, o, 2, b.zlib.length - 4);
  o = out.writeUInt32BE(adler32Combine(a.zlib.readUInt32BE(a.zlib.length - 4), b.zlib.readUInt32BE(b.zlib.length - 4), b.height * (rowBytes + 1)), o);
  o = writeChunkEnd(out, o, idatLength);
  writeChunkEnd(out, writeChunkHead(out, o, 'IEND', 0), 0);
  return out;
}

/** The most bytes zlib-ng's fastest level leaves to the final block: what it holds back when no more input is promised (MIN_LOOKAHEAD - 1). */
const LOOKAHEAD = 261;
/** How far back from the top's deflate data's end its final block may start: LOOKAHEAD bytes, 9 bits each at most, the block's header and the end codes. */
const TAIL_BYTES = Math.ceil((LOOKAHEAD * 9 + 3 + 7 + 7) / 8) + 2;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Writes a chunk's length and type at `at`; returns where its data goes. */
function writeChunkHead(out: Buffer, at: number, type: string, length: number): number {
  out.writeUInt32BE(length, at);
  out.write(type, at + 4, 'latin1');
  return at + 8;
}

/** Writes the CRC of the chunk whose `length` bytes of data end at `at` (its type before them); returns the offset after it. */
function writeChunkEnd(out: Buffer, at: number, length: number): number {
  return out.writeUInt32BE(crc32(out.subarray(at - length - 4, at)), at);
}

/** An 8-bit RGB, non-interlaced PNG's header fields, the chunks between its header and its data, and its zlib stream (its IDAT chunks' data, not copied). */
function readPng(png: Buffer): { width: number; height: number; header: Buffer; extra: Buffer[]; zlib: Chain } | undefined {
  if (png.length < 8 + 25 || !png.subarray(0, 8).equals(SIGNATURE)) return undefined;
  let header: Buffer | undefined;
  const extra: Buffer[] = [];
  const data: Buffer[] = [];
  for (let o = 8; o + 12 <= png.length;) {
    const len = png.readUInt32BE(o);
    const type = png.toString('latin1', o + 4, o + 8);
    if (o + 12 + len > png.length) return undefined;
    if (type === 'IHDR') header = png.subarray(o + 8, o + 8 + len);
    else if (type === 'IDAT') data.push(png.subarray(o + 8, o + 8 + len));
    else if (type === 'IEND') break;
    else if (data.length === 0) extra.push(png.subarray(o, o + 12 + len));
    else return undefined; // a chunk after the data: not what this encoder writes
    o += 12 + len;
  }
  // 8 bits a sample, RGB, deflate, filter method 0, no interlace.
  if (header?.length !== 13 || header[8] !== 8 || header[9] !== 2 || header[10] !== 0 || header[11] !== 0 || header[12] !== 0) return undefined;
  return { width: header.readUInt32BE(0), height: header.readUInt32BE(4), header, extra, zlib: new Chain(data) };
}

/** `n` bits (n <= 24) from bit `at` on, the first read as the lowest (deflate's order for headers and extra bits). */
function bitsAt(d: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const k = at + i;
    if (k >>> 3 >= d.length) return -1;
    v |= ((d[k >>> 3]! >>> (k & 7)) & 1) << i;
  }
  return v;
}

/** A fixed-code literal/length symbol read at bit `at` (Huffman codes come first bit highest), and the bit after it. */
function fixedSymbol(d: Uint8Array, at: number): { symbol: number; next: number } | undefined {
  let code = 0;
  for (let i = 0; i < 9; i++) {
    const bit = bitsAt(d, at + i, 1);
    if (bit < 0) return undefined;
    code = (code << 1) | bit;
    if (i === 6 && code <= 0b0010111) return { symbol: 256 + code, next: at + 7 };
    if (i === 7 && code >= 0b00110000 && code <= 0b10111111) return { symbol: code - 0b00110000, next: at + 8 };
    if (i === 7 && code >= 0b11000000 && code <= 0b11000111) return { symbol: 280 + code - 0b11000000, next: at + 8 };
  }
  return { symbol: 144 + code - 0b110010000, next: at + 9 };
}

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/**
 * Decodes a fixed-code block's symbols from bit `at` to its end code and returns the bit after
 * that code, when they make exactly the last bytes of the raw data (`raw(j)`, `rawLength` bytes)
 * and the end code ends the stream (only zero bits after it, in its last byte); else undefined.
 */
function finalBlockEnd(d: Uint8Array, at: number, raw: (j: number) => number, rawLength: number): number | undefined {
  const ops: number[] = []; // literal: [byte, 0]; match: [length, distance]
  let produced = 0;
  let pos = at;
  for (;;) {
    const s = fixedSymbol(d, pos);
    if (!s || s.symbol > 285) return undefined;
    pos = s.next;
    if (s.symbol === 256) break;
    if (s.symbol < 256) {
      ops.push(s.symbol, 0);
      produced++;
    } else {
      const i = s.symbol - 257;
      const extra = bitsAt(d, pos, LENGTH_EXTRA[i]!);
      pos += LENGTH_EXTRA[i]!;
      const dc = bitsAt(d, pos, 5);
      if (extra < 0 || dc < 0) return undefined;
      const code = ((dc & 1) << 4) | ((dc & 2) << 2) | (dc & 4) | ((dc & 8) >>> 2) | ((dc & 16) >>> 4); // the 5 bits read highest first
      if (code > 29) return undefined;
      pos += 5;
      const dextra = bitsAt(d, pos, DIST_EXTRA[code]!);
      if (dextra < 0) return undefined;
      pos += DIST_EXTRA[code]!;
      const length = LENGTH_BASE[i]! + extra;
      ops.push(length, DIST_BASE[code]! + dextra);
      produced += length;
    }
    if (produced > Math.min(rawLength, LOOKAHEAD) || pos > d.length * 8) return undefined;
  }
  // The end code ends the stream: it ends in the last byte, and only zero bits follow it there.
  if ((pos + 7) >>> 3 !== d.length || (pos & 7) !== 0 && d[d.length - 1]! >>> (pos & 7) !== 0 || produced === 0) return undefined;
  let j = rawLength - produced;
  for (let k = 0; k < ops.length; k += 2) {
    const [v, dist] = [ops[k]!, ops[k + 1]!];
    if (dist === 0) {
      if (raw(j++) !== v) return undefined;
      continue;
    }
    if (dist > j || dist > 32768) return undefined;
    for (let n = 0; n < v; n++, j++) if (raw(j) !== raw(j - dist)) return undefined;
  }
  return pos;
}

/** A zlib stream in the pieces its IDAT chunks hold, read without joining them (a copy of megabytes). */
class Chain {
  readonly length: number;

  constructor(private readonly pieces: readonly Buffer[]) {
    this.length = pieces.reduce((n, p) => n + p.length, 0);
  }

  /** Copies the bytes from `from` to `to` into `out` at `at`; returns how many. */
  copy(out: Buffer, at: number, from = 0, to = this.length): number {
    let offset = 0;
    let n = 0;
    for (const p of this.pieces) {
      const s = Math.max(from, offset);
      const e = Math.min(to, offset + p.length);
      if (s < e) n += p.copy(out, at + n, s - offset, e - offset);
      offset += p.length;
      if (offset >= to) break;
    }
    return n;
  }

  slice(from: number, to: number): Buffer {
    const out = Buffer.alloc(to - from);
    this.copy(out, 0, from, to);
    return out;
  }

  readUInt32BE(at: number): number {
    return this.slice(at, at + 4).readUInt32BE(0);
  }
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
