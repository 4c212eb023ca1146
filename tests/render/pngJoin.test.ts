import { readFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import sharp, { type PngOptions } from 'sharp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMap } from '../../src/engine/map/mapModel.js';
import { validateScenario } from '../../src/engine/campaign/validateScenario.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { publicMapView } from '../../src/engine/views/mapView.js';
import { encodePng, rgbInPlace } from '../../src/render/encodePng.js';
import { joinPngHalves } from '../../src/render/pngJoin.js';
import { renderMapCanvas } from '../../src/render/renderMap.js';

/** The encoder's settings for a map (src/render/encodePng.ts PNG_OPTIONS). */
const MAP_PNG = { compressionLevel: 1, adaptiveFiltering: false } as const;

function encodeRows(rgb: Uint8Array, width: number, height: number, png: PngOptions = MAP_PNG): Promise<Buffer> {
  return sharp(rgb, { raw: { width, height, channels: 3 } }).png(png).toBuffer();
}

/** The two halves encoded apart (the top `cut` rows, the rest) and joined. */
async function joined(rgb: Uint8Array, width: number, height: number, cut: number, png?: PngOptions): Promise<Buffer | undefined> {
  const top = rgb.subarray(0, cut * width * 3);
  const [a, b] = await Promise.all([encodeRows(top, width, cut, png), encodeRows(rgb.subarray(cut * width * 3), width, height - cut, png)]);
  return joinPngHalves(a, b, top, width);
}

async function decoded(png: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** Pixels with runs, repeats and noise, as a map has (paper, hex edges, labels), from a seed. */
function picture(width: number, height: number, seed: number, noise: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  let s = seed >>> 0;
  const next = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s >>> 8;
  };
  const palette = [[244, 236, 216], [40, 60, 140], [180, 40, 40], [90, 140, 60], [0, 0, 0], [255, 255, 255]];
  for (let i = 0; i < width * height;) {
    const run = 1 + (next() % 40);
    const c = palette[next() % palette.length]!;
    for (let k = 0; k < run && i < width * height; k++, i++) {
      const wobble = next() % 100 < noise ? next() % 256 : -1;
      rgb.set(wobble >= 0 ? [wobble, c[1]!, c[2]!] : c, i * 3);
    }
  }
  return rgb;
}

describe('joinPngHalves (two halves compressed at once, one PNG)', () => {
  let runs = 0;
  let bigRuns = 0;
  let joinedRuns = 0;
  it('PROPERTY: for any opaque picture and any cut, the halves are joined into a PNG that decodes to exactly the picture, or not at all; halves of over 16 kB each mostly join, smaller ones never', async () => {
    await fc.assert(fc.asyncProperty(
      // Sizes unbiased (fast-check leans to small ones): about a fifth of the pictures have two halves over 16 kB.
      fc.noBias(fc.integer({ min: 1, max: 400 })), fc.noBias(fc.integer({ min: 2, max: 200 })), fc.integer(), fc.integer({ min: 0, max: 100 }), fc.noBias(fc.integer({ min: 1, max: 199 })),
      async (width, height, seed, noise, at) => {
        runs++;
        const rgb = picture(width, height, seed, noise);
        const cut = Math.min(height - 1, at);
        const png = await joined(rgb, width, height, cut);
        // For a half of up to 16 kB of rows libpng asks zlib-ng for a smaller window (while the rows and
        // 262 bytes fit in half of it), and zlib-ng then codes them otherwise: never joined. Above, a
        // picture is not joined when two spots fit as the top's final block.
        const big = Math.min(cut, height - cut) * (width * 3 + 1) + 262 > 16384;
        if (!big) expect(png).toBeUndefined();
        if (big) bigRuns++;
        if (!png) return;
        joinedRuns++;
        const out = await decoded(png);
        expect([out.width, out.height]).toEqual([width, height]);
        expect(out.data.equals(Buffer.from(rgb))).toBe(true);
      },
    ), { numRuns: 80 });
    // Random noise lets two spots fit now and then; most big halves still join.
    expect(joinedRuns).toBeGreaterThan(bigRuns / 2);
    expect(runs).toBe(80);
  });

  it('GIVEN the full public Valormr map WHEN its halves are joined THEN it decodes to the canvas\'s pixels, and encodePng with halves gives the same pixels as without', async () => {
    const check = validateScenario(JSON.parse(readFileSync(new URL('../../assets/scenarios/valormr.json', import.meta.url), 'utf8')));
    if (!check.ok) throw new Error('the shipped scenario does not validate');
    const state = newCampaign({ id: 'c', name: 'Valormr', scenario: check.scenario, seed: 1 });
    const canvas = renderMapCanvas(buildMap(check.scenario.map), publicMapView(state), { title: { campaign: 'Valormr', time: 'Day 1, morning', weather: 'Clear' }, hexIds: 'subset' });
    const { width, height } = canvas;
    const rgb = rgbInPlace(canvas.data());
    const png = await joined(rgb, width, height, height >>> 1);
    expect(png).toBeDefined();
    expect((await decoded(png!)).data.equals(Buffer.from(rgb))).toBe(true);
    const [whole, halves] = await Promise.all([encodePng(canvas, { opaque: true }), encodePng(canvas, { opaque: true, halves: 'always' })]);
    expect(halves.equals(whole)).toBe(false); // two streams joined, not one
    expect((await decoded(halves)).data.equals((await decoded(whole)).data)).toBe(true);
  });

  it('GIVEN halves written otherwise (zlib-ng\'s slower levels, with codes of their own; the canvas\'s own encoder) WHEN joined THEN nothing is joined (the caller compresses the picture whole)', async () => {
    const [width, height, cut] = [256, 200, 100];
    const rgb = picture(width, height, 7, 30);
    expect(await joined(rgb, width, height, cut)).toBeDefined();
    expect(await joined(rgb, width, height, cut, { compressionLevel: 6, adaptiveFiltering: false })).toBeUndefined();
    const canvas = createCanvas(width, cut);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#f4ecd8';
    ctx.fillRect(0, 0, width, cut);
    ctx.fillStyle = '#283c8c';
    ctx.fillRect(5, 5, 30, 8);
    const skia = await canvas.encode('png');
    const bottom = await encodeRows(rgb.subarray(cut * width * 3), width, height - cut);
    expect(joinPngHalves(skia, bottom, rgbInPlace(canvas.data()), width)).toBeUndefined();
  });
});
