import { readFileSync } from 'node:fs';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMap } from '../../src/engine/map/mapModel.js';
import { validateScenario } from '../../src/engine/campaign/validateScenario.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { publicMapView } from '../../src/engine/views/mapView.js';
import { renderBattlefieldCanvas } from '../../src/render/battlefield.js';
import { encodePng, rgbInPlace } from '../../src/render/encodePng.js';
import { renderMapCanvas, renderMapHere } from '../../src/render/renderMap.js';
import { commanderMapView } from '../../src/engine/views/mapView.js';

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

function valormrCampaign(): { map: ReturnType<typeof buildMap>; state: ReturnType<typeof newCampaign> } {
  const check = validateScenario(JSON.parse(readFileSync(new URL('../../assets/scenarios/valormr.json', import.meta.url), 'utf8')));
  if (!check.ok) throw new Error('the shipped scenario does not validate');
  return { map: buildMap(check.scenario.map), state: newCampaign({ id: 'c', name: 'Valormr', scenario: check.scenario, seed: 1 }) };
}

function valormr(): { canvas: Canvas } {
  const { map, state } = valormrCampaign();
  const canvas = renderMapCanvas(map, publicMapView(state), { title: { campaign: 'Valormr', time: 'Day 1, morning', weather: 'Clear' }, hexIds: 'subset' });
  return { canvas };
}

describe('encodePng (sharp fed the canvas pixels)', () => {
  it('GIVEN the full public Valormr map WHEN encoded THEN the decoded pixels equal the canvas encoder\'s AND the file is smaller, an RGB picture without alpha', async () => {
    const { fast, skia } = await expectSamePixels(valormr().canvas);
    expect(fast.length).toBeLessThan(skia.length);
    const meta = await sharp(fast).metadata();
    expect([meta.channels, meta.hasAlpha]).toEqual([3, false]);
  });

  it('GIVEN maps drawn as posted (public, a commander\'s with a route, a zoom) WHEN encoded as opaque without the pixel scan THEN the decoded pixels equal the canvas encoder\'s', async () => {
    const { map, state } = valormrCampaign();
    const me = Object.values(state.armies)[0];
    if (!me) throw new Error('the scenario has no army');
    const path = [1, 2, 3].map((k) => ({ q: me.hex.q + k, r: me.hex.r })).filter((h) => map.inBounds(h));
    const ordered = { ...state, orders: { [me.id]: { armyId: me.id, kind: 'move' as const, period: 'day' as const, path, forced: false, unformed: false, save: false, givenBy: 't', givenAt: state.clock } } };
    const title = { campaign: 'Valormr', time: 'Day 1, morning', weather: 'Clear' };
    const cases = [
      { view: publicMapView(state), options: { title, hexIds: 'subset' as const } },
      { view: commanderMapView(ordered, [me.id]), options: { title, hexIds: 'subset' as const } },
      { view: publicMapView(state), options: { title, hexIds: 'all' as const, around: me.hex, radius: 4 } },
    ];
    for (const { view, options } of cases) {
      const fast = await renderMapHere(map, view, options);
      const skia = await renderMapCanvas(map, view, options).encode('png');
      const [a, b] = await Promise.all([pixels(fast), pixels(skia)]);
      expect([a.width, a.height]).toEqual([b.width, b.height]);
      expect(a.data.equals(b.data)).toBe(true);
      expect((await sharp(fast).metadata()).hasAlpha).toBe(false);
    }
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

  it('PROPERTY: for any size and any drawing, opaque or translucent, the PNG decodes to exactly the canvas\'s pixels (straight alpha), RGB where every pixel is opaque', async () => {
    const colour = fc.record({ r: fc.integer({ min: 0, max: 255 }), g: fc.integer({ min: 0, max: 255 }), b: fc.integer({ min: 0, max: 255 }), a: fc.integer({ min: 0, max: 255 }) });
    const rect = fc.record({ x: fc.integer({ min: -8, max: 48 }), y: fc.integer({ min: -8, max: 48 }), w: fc.integer({ min: 0, max: 56 }), h: fc.integer({ min: 0, max: 56 }), colour, round: fc.boolean() });
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 48 }), fc.integer({ min: 1, max: 48 }), fc.boolean(), fc.array(rect, { maxLength: 12 }),
      async (width, height, background, rects) => {
        const canvas = createCanvas(width, height);
        const ctx = canvas.getContext('2d');
        if (background) {
          ctx.fillStyle = '#f4ecd8';
          ctx.fillRect(0, 0, width, height);
        }
        for (const { x, y, w, h, colour: c, round } of rects) {
          ctx.fillStyle = `rgba(${c.r}, ${c.g}, ${c.b}, ${(c.a / 255).toFixed(3)})`;
          ctx.beginPath();
          if (round) ctx.ellipse(x, y, w / 2 + 0.5, h / 2 + 0.5, 0, 0, Math.PI * 2);
          else ctx.rect(x, y, w, h);
          ctx.fill();
        }
        const expected = Buffer.from(ctx.getImageData(0, 0, width, height).data);
        const opaque = expected.every((v, i) => i % 4 !== 3 || v === 255);
        const png = await encodePng(canvas);
        const decoded = await pixels(png);
        expect([decoded.width, decoded.height]).toEqual([width, height]);
        expect(decoded.data.equals(expected)).toBe(true);
        expect((await sharp(png).metadata()).hasAlpha).toBe(!opaque);
        if (background) {
          // the map's path: told it is opaque, the scan skipped
          const promised = await pixels(await encodePng(canvas, { opaque: true }));
          expect(promised.data.equals(expected)).toBe(true);
          // the RGB packing overwrote a copy of the pixels, never the canvas's own
          expect(Buffer.from(ctx.getImageData(0, 0, width, height).data).equals(expected)).toBe(true);
        }
      },
    ), { numRuns: 60 });
  });

  it('PROPERTY: rgbInPlace packs any RGBA bytes, at any offset in their buffer, into the same RGB as dropping every fourth byte, and leaves the bytes before them alone', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 7 }), fc.uint8Array({ maxLength: 4 * 70 }), (offset, bytes) => {
      const rgba = bytes.subarray(0, bytes.length - (bytes.length % 4));
      const expected = Uint8Array.from(rgba.filter((_, i) => i % 4 !== 3));
      const buffer = new Uint8Array(offset + rgba.length).fill(0xa5);
      buffer.set(rgba, offset);
      const rgb = rgbInPlace(buffer.subarray(offset));
      expect(rgb.buffer).toBe(buffer.buffer);
      expect(rgb.byteOffset).toBe(offset);
      expect([...rgb]).toEqual([...expected]);
      expect(buffer.subarray(0, offset).every((v) => v === 0xa5)).toBe(true);
    }), { numRuns: 300 });
  });
});
