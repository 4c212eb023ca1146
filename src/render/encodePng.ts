import type { Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';

// libvips keeps recent operations in a cache; a picture fed raw pixels never repeats one, so it only holds memory.
sharp.cache(false);

/**
 * zlib effort for map and sketch PNGs: level 1 with no adaptive filtering. Measured on the full
 * Valormr map (CPU time, sharp fed the raw pixels): about half of level 2's time for a file about
 * 3 % larger; the canvas's own encoder (fixed level, adaptive filters) takes 4-5 times as long, and
 * palette PNG or WebP 5-20 times (a lossy WebP also blurs the hex ids).
 *
 * What else was tried for issue 25 (1600 x 1604 map, CPU medians and minimums side by side at
 * load 8-25, so ratios only): sharp's libvips carries zlib-ng, whose level 1 is 1.8 times as
 * fast as node's own zlib (Chromium's) at level 1 on the same filtered rows (21 against 38 ms),
 * and no strategy (RLE, filtered, Huffman only) or filter (None, Sub, Up) closes the gap; a PNG writer in JavaScript that codes runs
 * of the left pixel and the pixel above as deflate matches (branch s12-encode-runpng: exact, 1 %
 * smaller) costs as much CPU as this; an indexed-colour PNG cannot be exact (the drawn map has
 * 31,507 colours: antialiasing); WebP lossless at effort 0 is about 10 times slower; keeping the
 * alpha channel saves 5-10 % CPU for a file 10 % larger. The deflate itself is most of the
 * encode (level 0 costs a quarter to 40 % of level 1), and a blank compresses in a fraction of a map's
 * time, so the snapshot stays several times a blank's encode with any lossless encoder here.
 *
 * Not encoding again what has not changed was tried too (bench/bandedPng.ts, `npm run bench --
 * --bands`, exact: tests/render/bandedPng.test.ts): the map in bands of 8-32 rows, each band its own
 * piece of the zlib stream, the static layer's bands compressed once and reused where the picture's
 * band equals the layer's. The overlay (title, tokens, routes and the place labels placed around
 * them every picture) touches 55 % of the Valormr snapshot's rows, so 62 % of 8-row bands (68 % of
 * 16, 75 % of 32) are compressed again. And the pieces came from node's zlib, 1.8 times this
 * encoder's cost (sharp's zlib-ng ends its stream with a final block holding data: see below for
 * the one way found to join such streams). Measured alternated at load 17 (CPU medians): the
 * banded writer 53 / 57 / 43 ms for 8 / 16 / 32 rows against 29 / 35 / 29 ms here, wall 49 / 76 / 45
 * against 31 / 44 / 29 ms; every band compressed (a layer met for the first time) 61-86 ms. Files
 * 6-8 % smaller (node's zlib compresses better at level 1). So sharp stays.
 *
 * Compressing a map's top and bottom rows at once on two libuv threads, then joining the two
 * PNGs, was built and measured too (branch s18-pic800, src/render/pngJoin.ts there: zlib-ng's
 * fastest level writes two fixed-code blocks, the final one holding the last few hundred bytes, so
 * the top's final block can be found by decoding only its stream's last bytes against the rows
 * known to be there, made non-final, and followed by the bottom's stream; exact, a property over
 * pictures and cuts). Where a second core is idle an 800-army map compressed in 33-47 ms wall
 * against 48-65 (+3 ms CPU); but the render section's snapshot at rest took 69.5 / 50.1 ms with it
 * against 48.1 / 45.3 without (the join and a second wake-up of the niced render thread), 142-164
 * against 91-101 at load 10-13, and tick maps in halves raised rss100Mb 190 -> 202 MB. Not kept.
 *
 * The alpha is dropped here (`rgbInPlace`), not by libvips's `removeAlpha`: sharp fed the RGB
 * bytes compresses them as before (the same file, byte for byte), without the extra pipeline stage
 * (libvips ran it on a second thread beside the PNG writer). Render section alternated with the
 * tree before, medians: at load 1-4.4 (10 pairs) snapshotEncodeCpuMs 35.9 -> 33.7 ms but
 * snapshotMs 51.9 -> 53.3 ms (no wall gain at rest: the packing is serial where the libvips stage
 * overlapped the writer on the second core); at load 8.5-10.8 (3 pairs) snapshotMs 90 -> 73 ms.
 *
 * Other formats, measured for issue 25 on the posted map at load 0.3-4 (CPU of the encode alone,
 * the blank's beside it, the file): sharp WebP lossless effort 0 346 ms (blank 48), near-lossless
 * 236 ms, lossy q95 effort 0 199 ms (blank 91, 588 kB), smartSubsample 759 ms; the canvas's own
 * WebP q100 180 ms (blank 20), q90-95 367-427 ms; the canvas's own PNG 250 ms; JPEG q92 60 ms
 * (742 kB; it and the lossy WebPs keep the text legible at 4x but blur it and lose thin colours,
 * the trees' red-brown trunks, to chroma subsampling); palette PNG 419 ms; @napi-rs/image's PNG (Rust png crate,
 * fdeflate, RGBA only) 35-61 ms for 1.7-2.1 MB. None beats this encoder (35-57 ms in the same runs)
 * on time and size together, so the map stays
 * a PNG; sharp's deflate of the RGB bytes alone is 21 ms CPU against 5.5 ms for a blank's, so no
 * lossless encoder here reaches 3x the blank.
 */
const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const;

/**
 * Encodes a drawn canvas as a lossless PNG through libvips (sharp), fed the canvas's raw pixels.
 * An opaque picture (a map: its static layer covers the whole picture) is written as RGB, without
 * an alpha channel: a quarter fewer bytes to compress, and a smaller file. A picture with
 * transparent or translucent pixels keeps straight (not premultiplied) alpha, exactly as the
 * canvas's own PNG encoder writes it. Either way the decoded pixels are identical to
 * `canvas.encode('png')`'s. `opaque: true` promises every pixel is opaque (the alpha is dropped
 * unread): only for a canvas whose first drawing covered it with opaque paint.
 */
export async function encodePng(canvas: Canvas, opts: { readonly opaque?: boolean } = {}): Promise<Buffer> {
  const { width, height } = canvas;
  // The canvas keeps premultiplied pixels; where every pixel is opaque they equal the straight
  // ones, and reading them skips getImageData's conversion and 10 MB copy. A caller that drew
  // over an opaque background (`opaque`: a map, drawn over its static layer) skips the scan.
  const raw = canvas.data();
  if (opts.opaque === true || allOpaque(raw)) return encodeRgbPng(rgbInPlace(raw), width, height);
  const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  return sharp(pixels, { raw: { width, height, channels: 4 } }).png(PNG_OPTIONS).toBuffer();
}

/** Encodes packed RGB pixels (`rgbInPlace`), `width` x `height`, as a PNG with the settings above. */
export function encodeRgbPng(rgb: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(rgb, { raw: { width, height, channels: 3 } }).png(PNG_OPTIONS).toBuffer();
}

/**
 * Packs RGBA pixels into RGB in place (each pixel's alpha dropped, the rest moved down) and returns
 * the RGB part, a view of the same memory: `canvas.data()` is the canvas's pixels copied for us, so
 * overwriting it costs no second 8-10 MB buffer. Cheaper than libvips's own `removeAlpha` (an
 * extra pipeline stage before the PNG writer): CPU and wall of the whole encode, alternated, in the
 * comment at the top. Four pixels (four 32-bit words, little-endian R, G, B, A bytes) become three
 * words; a word is only written after every word at or below it was read.
 */
export function rgbInPlace(rgba: Uint8Array): Uint8Array {
  const pixels = rgba.length >>> 2;
  const whole = pixels - (pixels & 3);
  let out = 0;
  if (rgba.byteOffset % 4 === 0 && LITTLE_ENDIAN) {
    const words = new Uint32Array(rgba.buffer, rgba.byteOffset, pixels);
    for (let i = 0; i < whole; i += 4) {
      const p0 = words[i]!;
      const p1 = words[i + 1]!;
      const p2 = words[i + 2]!;
      const p3 = words[i + 3]!;
      words[out] = (p0 & 0xffffff) | (p1 << 24);
      words[out + 1] = ((p1 >>> 8) & 0xffff) | (p2 << 16);
      words[out + 2] = ((p2 >>> 16) & 0xff) | (p3 << 8);
      out += 3;
    }
    out *= 4;
  }
  // The pixels left (fewer than four, or all of them where words cannot be used), byte by byte.
  for (let i = (out / 3) * 4; i < pixels * 4; i += 4) {
    rgba[out++] = rgba[i]!;
    rgba[out++] = rgba[i + 1]!;
    rgba[out++] = rgba[i + 2]!;
  }
  return rgba.subarray(0, pixels * 3);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function allOpaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}
