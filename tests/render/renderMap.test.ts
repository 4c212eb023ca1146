import { existsSync, readFileSync } from 'node:fs';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMap, type MapModel } from '../../src/engine/map/mapModel.js';
import { validateScenario } from '../../src/engine/campaign/validateScenario.js';
import { newCampaign } from '../../src/engine/campaign/newCampaign.js';
import { commanderMapView, publicMapView, type MapView } from '../../src/engine/views/mapView.js';
import { renderBattlefield, renderMap } from '../../src/render/index.js';
import { ensureFonts, font, SANS, SERIF } from '../../src/render/fonts.js';
import { edgeNumbers, hexCentre, type Rect } from '../../src/render/layout.js';
import { tokenBox, tokenPositions, tokenRadius } from '../../src/render/tokens.js';
import { TERRAIN_FILL } from '../../src/render/palette.js';
import { clearRenderCache, renderCacheStats, snapshotLayout, type RenderMapOptions } from '../../src/render/renderMap.js';
import { h, testMap, testState } from './fixtures.js';

interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
}

async function decode(png: Buffer): Promise<Pixels> {
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

function px(p: Pixels, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * p.width + Math.round(x)) * 4;
  return [p.data[i] ?? 0, p.data[i + 1] ?? 0, p.data[i + 2] ?? 0];
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function near(a: readonly number[], b: readonly number[], tol = 12): boolean {
  return a.every((v, i) => Math.abs(v - (b[i] ?? 0)) <= tol);
}

function region(p: Pixels, r: Rect): number[] {
  const out: number[] = [];
  for (let y = Math.max(0, Math.floor(r.y)); y < Math.min(p.height, Math.ceil(r.y + r.h)); y++) {
    for (let x = Math.max(0, Math.floor(r.x)); x < Math.min(p.width, Math.ceil(r.x + r.w)); x++) {
      const i = (y * p.width + x) * 4;
      out.push(p.data[i] ?? 0, p.data[i + 1] ?? 0, p.data[i + 2] ?? 0);
    }
  }
  return out;
}

const title = { campaign: 'Test Campaign', time: 'Day 2, morning', weather: 'Clear, no wind' };

/** The token and a generous box around it (its label lies within two token widths). */
function tokenArea(map: MapModel, view: MapView, armyId: string, opts: RenderMapOptions): Rect {
  const layout = snapshotLayout(map, opts, view.kind);
  const p = tokenPositions(layout, view.tokens).get(armyId);
  if (!p) throw new Error(`no token ${armyId}`);
  const b = tokenBox(p, layout.size);
  return { x: b.x - b.w * 1.5, y: b.y - b.h * 1.5, w: b.w * 4, h: b.h * 4 };
}

describe('fonts', () => {
  it('GIVEN the shipped fonts WHEN registered THEN both families exist and draw ink', () => {
    ensureFonts();
    expect(GlobalFonts.has(SERIF)).toBe(true);
    expect(GlobalFonts.has(SANS)).toBe(true);
    const c = createCanvas(200, 40);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#000000';
    ctx.font = font(24, 'serif');
    ctx.fillText('Valormr 0712', 4, 30);
    const d = ctx.getImageData(0, 0, 200, 40).data;
    let ink = 0;
    for (let i = 3; i < d.length; i += 4) if ((d[i] ?? 0) > 128) ink++;
    expect(ink).toBeGreaterThan(100);
  });
});

describe('renderMap smoke test', () => {
  let map: MapModel;
  beforeAll(() => {
    clearRenderCache();
    map = testMap();
  });

  it('GIVEN the test map WHEN the public snapshot is rendered THEN the PNG has the layout size and known pixels have the expected colours', async () => {
    const view = publicMapView(testState());
    const png = await renderMap(map, view, { title });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const pic = await decode(png);
    const layout = snapshotLayout(map, { title });
    expect(pic.width).toBe(1600);
    expect(pic.height).toBe(layout.height);

    // a forest hex centre is green (fill or tree), unlike clear ground
    const isGreen = ([r, g, b]: [number, number, number]): boolean => g > r && g > b;
    const forest = hexCentre(layout, h('0504'));
    expect(map.terrainAt(h('0504'))).toBe('forest');
    expect(isGreen(px(pic, forest.x, forest.y))).toBe(true);
    const clear = hexCentre(layout, h('0106'));
    expect(near(px(pic, clear.x, clear.y), rgb(TERRAIN_FILL.clear))).toBe(true);
    const sea = hexCentre(layout, h('0501'));
    expect(near(px(pic, sea.x, sea.y), rgb(TERRAIN_FILL.sea))).toBe(true);

    // Arn's token, in the Forces of Law colour, below its initials
    const p = tokenPositions(layout, view.tokens).get('arn');
    expect(p).toBeDefined();
    if (!p) return;
    expect(near(px(pic, p.x, p.y + tokenRadius(layout.size) * 0.72), rgb('#2f5fb3'), 20)).toBe(true);
    // the title band is dark
    expect(px(pic, 4, 4).every((v) => v < 80)).toBe(true);
    // the column and row numbers are inked in the band around the hexes
    for (const n of edgeNumbers(layout).slice(0, 4)) {
      const ink = region(pic, { x: n.at.x - 9, y: n.at.y - 6, w: 18, h: 12 });
      let dark = 0;
      for (let i = 0; i < ink.length; i += 3) if ((ink[i] ?? 255) + (ink[i + 1] ?? 255) + (ink[i + 2] ?? 255) < 450) dark++;
      expect(dark, `edge number ${n.text}`).toBeGreaterThan(4);
    }
  });

  it('GIVEN a zoom around 0708 WHEN rendered THEN hexes are no smaller and the token still sits on its hex', async () => {
    const view = publicMapView(testState());
    const opts = { title, around: h('0708'), radius: 3 };
    const pic = await decode(await renderMap(map, view, opts));
    const layout = snapshotLayout(map, opts);
    expect(layout.size).toBeGreaterThanOrEqual(snapshotLayout(map, { title }).size);
    expect(layout.colMax - layout.colMin).toBeLessThan(map.width - 1);
    expect(pic.width).toBe(layout.width);
    const p = tokenPositions(layout, view.tokens).get('arn');
    if (!p) throw new Error('Arn is off the zoom');
    expect(near(px(pic, p.x, p.y + tokenRadius(layout.size) * 0.72), rgb('#2f5fb3'), 20)).toBe(true);
  });

  it('GIVEN the same map twice WHEN rendered THEN the static layer is drawn once and reused', async () => {
    clearRenderCache();
    const view = publicMapView(testState());
    await renderMap(map, view, { title });
    await renderMap(map, view, { title, labels: false });
    expect((await renderCacheStats()).entries).toBe(1);
    await renderMap(map, commanderMapView(testState(), ['arn']), { title });
    expect((await renderCacheStats()).entries).toBe(2);
  });
});

describe('secrecy of the public snapshot (RULINGS 6)', () => {
  it('GIVEN armies of different hidden strengths WHEN the public snapshot is rendered THEN view data and token pixels are identical', async () => {
    const map = testMap();
    const a = publicMapView(testState({ arn: 40, mordred: 40, ingegerd: 40 }));
    const b = publicMapView(testState({ arn: 4, mordred: 13, ingegerd: 27 }));
    expect(b).toEqual(a);
    const pa = await decode(await renderMap(map, a, { title }));
    const pb = await decode(await renderMap(map, b, { title }));
    for (const id of ['arn', 'mordred', 'ingegerd']) {
      const r = tokenArea(map, a, id, { title });
      expect(region(pb, r)).toEqual(region(pa, r));
    }
    expect(Buffer.from(pb.data).equals(Buffer.from(pa.data))).toBe(true);
  });

  it('GIVEN Arn\'s private view WHEN others\' strengths change THEN nothing changes; WHEN his own changes THEN his label does', async () => {
    const map = testMap();
    const base = commanderMapView(testState({ arn: 30, mordred: 40, ingegerd: 40 }), ['arn']);
    const others = commanderMapView(testState({ arn: 30, mordred: 2, ingegerd: 7 }), ['arn']);
    const own = commanderMapView(testState({ arn: 10, mordred: 40, ingegerd: 40 }), ['arn']);
    const p0 = await decode(await renderMap(map, base, { title }));
    const p1 = await decode(await renderMap(map, others, { title }));
    const p2 = await decode(await renderMap(map, own, { title }));
    expect(Buffer.from(p1.data).equals(Buffer.from(p0.data))).toBe(true);
    const r = tokenArea(map, base, 'arn', { title });
    expect(region(p2, r)).not.toEqual(region(p0, r));
  });
});

describe('battlefield sketch', () => {
  it('GIVEN placed cards WHEN rendered THEN the PNG shows the 3x3 table with the pond in water blue', async () => {
    const png = await renderBattlefield({
      title: 'Terrain at 0608',
      nearSide: 'Arn',
      farSide: 'Mordred',
      cards: [
        { row: 'near', column: 'centre', card: 'pond', orientation: 0 },
        { row: 'far', column: 'left', card: 'hill', orientation: 90, placedBy: 'Mordred' },
        { row: 'middle', column: 'right', card: 'river', orientation: 270 },
      ],
    });
    const pic = await decode(png);
    expect(pic.width).toBe(960);
    expect(pic.height).toBe(720);
    const { battlefieldCells } = await import('../../src/render/battlefield.js');
    const cell = battlefieldCells(960, 720).get('near:centre');
    if (!cell) throw new Error('no cell');
    const [r, g, b] = px(pic, cell.x + cell.w / 2, cell.y + 6 + (cell.h - 12 - 18) / 2 + 6);
    expect(b).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(150);
    expect(g).toBeGreaterThan(150);
  });
});

const SCENARIO = new URL('../../assets/scenarios/valormr.json', import.meta.url);

describe.skipIf(!existsSync(SCENARIO))('the Valormr scenario', () => {
  it('GIVEN the shipped scenario WHEN the whole map is rendered THEN it is 1,600 px wide with every commander on it', async () => {
    const check = validateScenario(JSON.parse(readFileSync(SCENARIO, 'utf8')));
    if (!check.ok) throw new Error(check.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
    const map = buildMap(check.scenario.map);
    const state = newCampaign({ id: 'c', name: 'Valormr', scenario: check.scenario, seed: 1 });
    const view = publicMapView(state);
    const pic = await decode(await renderMap(map, view, { title: { campaign: 'Valormr', time: 'Day 1, morning', weather: 'Clear' } }));
    expect(pic.width).toBe(1600);
    const layout = snapshotLayout(map, { title });
    expect(tokenPositions(layout, view.tokens).size).toBe(view.tokens.length);
  });
});
