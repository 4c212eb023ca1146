import { inflateSync } from 'node:zlib';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import sharp from 'sharp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adler32Combine, encodeBands, idatData, layerBands } from '../../bench/bandedPng.js';

/**
 * The banded PNG writer measured by `npm run bench -- --bands` (not the bot's encoder: it costs
 * 1.5-1.8x sharp's CPU, see src/render/encodePng.ts). Its figures mean something only if its files
 * are exact, so: any size, band height and overlay, decoded by sharp and by node's inflate of the
 * joined IDAT data, equals the drawn pixels; a layer of another size, or a kept chunk damaged in
 * memory, is never used.
 */

function rgbOf(rgba: Uint8Array): Buffer {
  const out = Buffer.alloc((rgba.length / 4) * 3);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    out[o] = rgba[i] as number;
    out[o + 1] = rgba[i + 1] as number;
    out[o + 2] = rgba[i + 2] as number;
  }
  return out;
}

/** Both decoders agree with the drawn pixels. */
async function expectExact(png: Buffer, rgba: Uint8Array, width: number, height: number): Promise<void> {
  const want = rgbOf(rgba);
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height, info.channels]).toEqual([width, height, 3]);
  expect(data.equals(want)).toBe(true);
  const raw = inflateSync(idatData(png)); // checks the Adler-32 too
  const stride = width * 3 + 1;
  expect(raw.length).toBe(height * stride);
  for (let y = 0; y < height; y++) {
    expect(raw[y * stride]).toBe(0);
    expect(raw.subarray(y * stride + 1, (y + 1) * stride).equals(want.subarray(y * width * 3, (y + 1) * width * 3))).toBe(true);
  }
}

const colour = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }));

describe('the banded PNG writer (bench/bandedPng.ts)', () => {
  it('PROPERTY: over a static layer, any size, band height and overlay (none, some bands, every band, the first and last rows) decodes exactly, picture after picture', async () => {
    const mark = fc.record({ x: fc.integer({ min: -4, max: 40 }), y: fc.integer({ min: -4, max: 40 }), w: fc.integer({ min: 1, max: 40 }), h: fc.integer({ min: 1, max: 12 }), c: colour });
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 37 }), fc.integer({ min: 1, max: 41 }), fc.integer({ min: 1, max: 9 }), colour,
      fc.array(fc.array(mark, { maxLength: 5 }), { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean(),
      async (width, height, rows, paper, pictures, firstRow, lastRow) => {
        const canvas = createCanvas(width, height);
        const ctx = canvas.getContext('2d');
        const paint = (c: readonly number[]): string => `rgb(${c.join(',')})`;
        // the static layer: paper and a few stripes (different bands differ)
        ctx.fillStyle = paint(paper);
        ctx.fillRect(0, 0, width, height);
        for (let y = 0; y < height; y += 5) {
          ctx.fillStyle = paint([(paper[0] + y * 7) % 256, paper[1], (paper[2] + y) % 256]);
          ctx.fillRect(0, y, Math.max(1, width >> 1), 2);
        }
        const layer = layerBands(canvas.data(), width, height, rows);
        const base = canvas.data();
        for (const marks of pictures) {
          ctx.putImageData(new ImageData(new Uint8ClampedArray(base), width, height), 0, 0);
          for (const m of marks) {
            ctx.fillStyle = paint(m.c);
            ctx.fillRect(m.x, m.y, m.w, m.h);
          }
          ctx.fillStyle = '#102030';
          if (firstRow) ctx.fillRect(0, 0, 1, 1);
          if (lastRow) ctx.fillRect(width - 1, height - 1, 1, 1);
          const rgba = canvas.data();
          await expectExact(await encodeBands(rgba, width, height, layer), rgba, width, height);
          await expectExact(await encodeBands(rgba, width, height), rgba, width, height);
        }
      },
    ), { numRuns: 25 });
  });

  it('GIVEN a kept chunk damaged in memory, or a layer of another size WHEN a picture is encoded THEN neither is used and the file is exact', async () => {
    const width = 9;
    const height = 10;
    const rgba = Buffer.alloc(width * height * 4, 255);
    for (let i = 0; i < rgba.length; i += 4) rgba[i] = (i * 13) & 255;
    const layer = layerBands(rgba, width, height, 3);
    await expectExact(await encodeBands(rgba, width, height, layer), rgba, width, height);
    expect(layer.bands.every((b) => b !== undefined)).toBe(true);
    const kept = layer.bands[1];
    if (!kept) throw new Error('band 1 was not kept');
    const at = kept.chunk.length - 6; // a byte of its deflate data
    kept.chunk.writeUInt8((kept.chunk.readUInt8(at) ^ 0xff) & 0xff, at);
    await expectExact(await encodeBands(rgba, width, height, layer), rgba, width, height);
    expect(layer.bands[1]).not.toBe(kept);
    // a layer of another size: its pixels and chunks are not this picture's
    const other = layerBands(Buffer.alloc(width * (height + 1) * 4, 0), width, height + 1, 3);
    await expectExact(await encodeBands(rgba, width, height, other), rgba, width, height);
    expect(other.bands.every((b) => b === undefined)).toBe(true);
  });

  it('PROPERTY: adler32Combine of two parts equals the Adler-32 of the whole (zlib\'s arithmetic)', () => {
    const adler = (b: Uint8Array): number => {
      let a = 1;
      let s = 0;
      for (const x of b) {
        a = (a + x) % 65521;
        s = (s + a) % 65521;
      }
      return ((s << 16) | a) >>> 0;
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 70000 }), (x, y) => {
      expect(adler32Combine(adler(x), adler(y), y.length)).toBe(adler(Buffer.concat([x, y])));
    }), { numRuns: 40 });
  });
});
