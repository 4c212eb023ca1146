import { describe, expect, it } from 'vitest';
import { buildMap } from '../../src/engine/map/mapModel.js';
import { ensureFonts, font } from '../../src/render/fonts.js';
import { computeLayout } from '../../src/render/layout.js';
import { buildStaticLayer, hexIdSpot, hexIdsFit } from '../../src/render/staticLayer.js';
import { createCanvas } from '@napi-rs/canvas';

/** A plain map of `n` x `n` clear hexes (four-digit ids), drawn `width` px wide. */
function layerPixels(n: number, width: number, hexIds: 'subset' | 'all' | 'none'): Buffer {
  const map = buildMap({
    width: n, height: n, terrain: Array.from({ length: n }, () => 'c'.repeat(n)),
    roads: [], tracks: [], rivers: [], ports: [], channels: [], mudflats: [], towns: [], fortifications: [], regions: [], labels: [],
  });
  const layout = computeLayout(n, n, { width, legendEntries: 0 });
  return buildStaticLayer(map, layout, { hexIds, kind: 'public' }).canvas.data();
}

function idWidth(size: number): { px: number; width: number } {
  ensureFonts();
  const px = hexIdSpot({ size, originX: 0, originY: 0 }, { q: 0, r: 0 }).px;
  const ctx = createCanvas(10, 10).getContext('2d');
  ctx.font = font(px, 'sans', { weight: 600 });
  return { px, width: ctx.measureText('0000').width };
}

describe('hex ids only where they can be read', () => {
  it('GIVEN a 40 x 40 map drawn 500 px wide (hexes too small for their ids) WHEN its static layer is drawn THEN it carries no id, pixel for pixel the layer drawn without ids', () => {
    const size = computeLayout(40, 40, { width: 500, legendEntries: 0 }).size;
    const { px, width } = idWidth(size);
    expect(hexIdsFit({ size }, px, width)).toBe(false);
    const none = layerPixels(40, 500, 'none');
    expect(layerPixels(40, 500, 'subset').equals(none)).toBe(true);
    expect(layerPixels(40, 500, 'all').equals(none)).toBe(true);
  });

  it('GIVEN the same map drawn 1,600 px wide (room for the ids) WHEN drawn THEN ids are printed, with a gap of at least half their height between two of one row', () => {
    const size = computeLayout(40, 40, { width: 1600, legendEntries: 0 }).size;
    const { px, width } = idWidth(size);
    expect(hexIdsFit({ size }, px, width)).toBe(true);
    expect(3 * size - width).toBeGreaterThanOrEqual(px / 2);
    expect(layerPixels(40, 1600, 'subset').equals(layerPixels(40, 1600, 'none'))).toBe(false);
  });
});
