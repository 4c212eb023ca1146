/**
 * SHA-256 (FIPS 180-4) of an ASCII string, as 64 lowercase hex digits. The dice draw their numbers
 * from it (a die is a piece of the hash of the period's seed and the draw's number), so a player
 * can check any die with `sha256sum` and nothing of ours. Pure: the engine may not use node:crypto.
 * The tests compare it with node:crypto on many inputs.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** The message padded to whole 64-byte blocks: the bytes, 0x80, zeros, the bit length (big-endian). */
function padded(text: string): Uint8Array {
  const n = text.length;
  const total = Math.ceil((n + 9) / 64) * 64;
  const bytes = new Uint8Array(total);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) throw new Error('sha256: ASCII text only');
    bytes[i] = c;
  }
  bytes[n] = 0x80;
  const bits = n * 8;
  const view = new DataView(bytes.buffer);
  view.setUint32(total - 8, Math.floor(bits / 0x100000000));
  view.setUint32(total - 4, bits >>> 0);
  return bytes;
}

function compress(h: Uint32Array, w: Uint32Array): void {
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15] as number;
    const b = w[i - 2] as number;
    const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
    const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) >>> 0;
  }
  let a = h[0] as number;
  let b = h[1] as number;
  let c = h[2] as number;
  let d = h[3] as number;
  let e = h[4] as number;
  let f = h[5] as number;
  let g = h[6] as number;
  let hh = h[7] as number;
  for (let i = 0; i < 64; i++) {
    const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K[i] as number) + (w[i] as number)) >>> 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) >>> 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) >>> 0;
  }
  const out = [a, b, c, d, e, f, g, hh];
  for (let i = 0; i < 8; i++) h[i] = ((h[i] as number) + (out[i] as number)) >>> 0;
}

/** The SHA-256 digest as eight 32-bit words. */
export function sha256Words(text: string): Uint32Array {
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const bytes = padded(text);
  const view = new DataView(bytes.buffer);
  const w = new Uint32Array(64);
  for (let off = 0; off < bytes.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    compress(h, w);
  }
  return h;
}

/** SHA-256 of an ASCII string, as 64 lowercase hex digits (what `printf %s TEXT | sha256sum` prints). */
export function sha256Hex(text: string): string {
  return [...sha256Words(text)].map((x) => x.toString(16).padStart(8, '0')).join('');
}
