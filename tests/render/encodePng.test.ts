import { readFileSync } from 'node:fs';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMap } from '../../src/engine/map/mapModel.js';
import { validateScenario } from '../../src/engine/scenario/validateScenario.js';
import { newCampaign } from '../../src/engine/state/newCampaign.js';
import { publicMapView } from '../../src/engine/views/mapView.js';
import { renderBattlefieldCanvas } from '../../src/render/battlefield.js';
import { adler32Combine, encodePng, opaquePng } from '../../src/render/encodePng.js';
import { renderMapCanvas } from '../../src/render/renderMap.js';

/** Decoded RGBA pixels of a PNG (one decoder for both encodings). */
async function pixels(png: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** Encodes with the canvas's own encoder (the old path) and with encodePng; returns both. */
async function both(canvas: Canvas): Promise<{ fast: Buffer; skia: Buffer }> {
  return { fast: await encodePng(canvas), skia: await canvas.encode('png') };
}

async function expectSamePixels(canvas: Canvas): Promise<{ fast: Buffer; skia: Buffer }> {
  const out = await both(canvas);
  expect(out.fast.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a'); // a PNG file
  const [a, b] = await Promise.all([pixels(out.fast), pixels(out.skia)]);
  expect([a.width, a.height]).toEqual([canvas.width, canvas.height]);
  expect([b.width, b.height]).toEqual([canvas.width, canvas.height]);
  expect(a.data.equals(b.data)).toBe(true);
  return out;
}

function valormr(): { canvas: Canvas } {
  const check = validateScenario(JSON.parse(readFileSync(new URL('../../assets/scenarios/valormr.json', import.meta.url), 'utf8')));
  if (!check.ok) throw new Error('the shipped scenario does not validate');
  const map = buildMap(check.scenario.map);
  const state = newCampaign({ id: 'c', name: 'Valormr', scenario: check.scenario, seed: 1 });
  const canvas = renderMapCanvas(map, publicMapView(state), { title: { campaign: 'Valormr', time: 'Day 1, morning', weather: 'Clear' }, hexIds: 'subset' });
  return { canvas };
}

/** The IDAT data of a PNG (every IDAT chunk, joined). */
function idatOf(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

/** Adler-32 as zlib defines it, byte by byte (the reference). */
function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

describe('encodePng (opaque pictures in bands through node\'s zlib; translucent ones through sharp)', () => {
  it('GIVEN the full public Valormr map WHEN encoded THEN the decoded pixels equal the canvas encoder\'s AND the file is smaller AND its one zlib stream passes zlib\'s own checks (the bands\' Adler-32 combined)', async () => {
    const { canvas } = valormr();
    const { fast, skia } = await expectSamePixels(canvas);
    expect(fast.length).toBeLessThan(skia.length);
    const rows = inflateSync(idatOf(fast)); // throws on a wrong Adler-32 or a broken stream
    expect(rows.length).toBe((canvas.width * 4 + 1) * canvas.height);
    expect(await sharp(fast).metadata()).toMatchObject({ width: canvas.width, height: canvas.height, channels: 4 });
  });

  it('GIVEN any two byte strings THEN the combined Adler-32 is the Adler-32 of both in turn', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 70_000 }), (a, b) => {
      const both = new Uint8Array(a.length + b.length);
      both.set(a);
      both.set(b, a.length);
      expect(adler32Combine(adler32(a), adler32(b), b.length)).toBe(adler32(both));
    }), { numRuns: 60 });
  });

  it('GIVEN opaque pictures of any size, from one row to more rows than bands WHEN encoded THEN zlib and sharp read back exactly the pixels', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 23 }), fc.integer(), async (width, height, seed) => {
      const rgba = new Uint8Array(width * height * 4);
      let x = seed | 0;
      for (let i = 0; i < rgba.length; i++) {
        x = (Math.imul(x, 1103515245) + 12345) | 0;
        rgba[i] = i % 4 === 3 ? 255 : (x >>> 16) & 255;
      }
      const png = await opaquePng(rgba, width, height);
      expect(inflateSync(idatOf(png)).length).toBe((width * 4 + 1) * height);
      const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect(Buffer.from(data).equals(Buffer.from(rgba))).toBe(true);
    }), { numRuns: 40 });
  });

  it('GIVEN a battlefield sketch WHEN encoded THEN the decoded pixels equal the canvas encoder\'s', async () => {
    await expectSamePixels(renderBattlefieldCanvas({
      title: 'Terrain at 0608', nearSide: 'Arn', farSide: 'Mordred',
      cards: [
        { row: 'near', column: 'centre', card: 'pond', orientation: 0 },
        { row: 'far', column: 'left', card: 'hill', orientation: 90, placedBy: 'Mordred' },
        { row: 'middle', column: 'right', card: 'river', orientation: 270 },
      ],
    }));
  });

  it('GIVEN translucent and transparent pixels WHEN encoded THEN the alpha and colours survive exactly (straight alpha, as the canvas writes it)', async () => {
    const canvas = createCanvas(64, 32);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = 'rgba(200, 100, 50, 0.5)';
    ctx.fillRect(0, 0, 40, 20);
    ctx.fillStyle = 'rgba(20, 180, 240, 0.13)';
    ctx.beginPath();
    ctx.arc(40, 16, 14, 0, Math.PI * 2);
    ctx.fill();
    const { fast } = await expectSamePixels(canvas);
    expect((await sharp(fast).metadata()).hasAlpha).toBe(true);
  });
});
