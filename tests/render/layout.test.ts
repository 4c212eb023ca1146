import { describe, expect, it } from 'vitest';
import { DIRECTIONS } from '../../src/engine/hex/hex.js';
import { formatHex, offsetToHex } from '../../src/engine/hex/hexId.js';
import { neighbour } from '../../src/engine/hex/neighbours.js';
import { hexSpiral } from '../../src/engine/hex/ring.js';
import {
  SQRT3, blockExtent, computeLayout, edgeMidpoint, edgeNumbers, hexCentre, hexCorners, layoutHexes, pixelToHex,
  riverCurve, scaleBar, showHexId, type Rect,
} from '../../src/render/layout.js';
import { placeLabels, rectsOverlap, type LabelRequest } from '../../src/render/placeLabels.js';
import { battlefieldCells, fitCaption, quarterTurns } from '../../src/render/battlefield.js';
import { h } from './fixtures.js';

const within = (r: Rect, x: number, y: number): boolean => x >= r.x - 1e-6 && y >= r.y - 1e-6 && x <= r.x + r.w + 1e-6 && y <= r.y + r.h + 1e-6;

describe('hex to pixel (flat-top, even columns half a hex lower)', () => {
  const layout = computeLayout(40, 30);

  it('GIVEN the whole 40x30 map WHEN laid out THEN the picture is 1,600 px wide and every hex lies inside the map area', () => {
    expect(layout.width).toBe(1600);
    expect(layout.zoomed).toBe(false);
    for (const hx of layoutHexes(layout)) {
      for (const p of hexCorners(hexCentre(layout, hx), layout.size)) expect(within(layout.map, p.x, p.y)).toBe(true);
    }
    expect(layout.map.y).toBeGreaterThanOrEqual(layout.title.h);
    expect(layout.legend.y).toBeGreaterThanOrEqual(layout.map.y + layout.map.h);
    expect(layout.height).toBeGreaterThanOrEqual(layout.legend.y + layout.legend.h);
  });

  it('GIVEN column 2 WHEN compared with column 1 THEN it sits half a hex lower (RULINGS 1)', () => {
    const a = hexCentre(layout, offsetToHex({ col: 1, row: 1 }));
    const b = hexCentre(layout, offsetToHex({ col: 2, row: 1 }));
    expect(b.x - a.x).toBeCloseTo(1.5 * layout.size);
    expect(b.y - a.y).toBeCloseTo((SQRT3 / 2) * layout.size);
  });

  it('GIVEN any hex WHEN its neighbours are placed THEN each centre is one hex width (sqrt 3 radii) away, across the named edge', () => {
    const c = h('1012');
    const pc = hexCentre(layout, c);
    for (const d of DIRECTIONS) {
      const pn = hexCentre(layout, neighbour(c, d));
      expect(Math.hypot(pn.x - pc.x, pn.y - pc.y)).toBeCloseTo(SQRT3 * layout.size);
      const m = edgeMidpoint(pc, layout.size, d);
      expect(m.x).toBeCloseTo((pc.x + pn.x) / 2);
      expect(m.y).toBeCloseTo((pc.y + pn.y) / 2);
    }
  });

  it('GIVEN every hex centre WHEN turned back into a hex THEN it is the same hex', () => {
    for (const hx of layoutHexes(layout)) expect(formatHex(pixelToHex(layout, hexCentre(layout, hx)))).toBe(formatHex(hx));
  });

  it('GIVEN a block of hexes WHEN measured THEN it is 1.5(c-1)+2 radii wide and sqrt3(r+0.5) high', () => {
    expect(blockExtent(40, 30)).toEqual({ w: 60.5, h: SQRT3 * 30.5 });
    expect(blockExtent(1, 3)).toEqual({ w: 2, h: SQRT3 * 3 });
  });
});

describe('zoom', () => {
  it('GIVEN around 2015 radius 4 WHEN laid out THEN every hex within 4 is drawn, bigger than on the whole map', () => {
    const full = computeLayout(40, 30);
    const z = computeLayout(40, 30, { around: h('2015'), radius: 4 });
    expect(z.zoomed).toBe(true);
    expect(z.size).toBeGreaterThan(full.size);
    const drawn = new Set(layoutHexes(z).map((x) => formatHex(x)));
    for (const x of hexSpiral(h('2015'), 4)) expect(drawn.has(formatHex(x))).toBe(true);
    for (const x of layoutHexes(z)) {
      for (const p of hexCorners(hexCentre(z, x), z.size)) expect(within(z.map, p.x, p.y)).toBe(true);
    }
  });

  it('GIVEN a zoom at the map corner WHEN laid out THEN the window slides onto the map instead of shrinking', () => {
    const z = computeLayout(40, 30, { around: h('0101'), radius: 3 });
    expect(z.colMin).toBe(1);
    expect(z.rowMin).toBe(1);
    const mid = computeLayout(40, 30, { around: h('2015'), radius: 3 });
    expect(z.colMax - z.colMin).toBe(mid.colMax - mid.colMin);
  });
});

describe('hex ids', () => {
  it('GIVEN subset mode THEN every other column and row is labelled, starting with 0101', () => {
    expect(showHexId('subset', h('0101'))).toBe(true);
    expect(showHexId('subset', h('0301'))).toBe(true);
    expect(showHexId('subset', h('0201'))).toBe(false);
    expect(showHexId('subset', h('0102'))).toBe(false);
    expect(showHexId('all', h('0202'))).toBe(true);
    expect(showHexId('none', h('0101'))).toBe(false);
  });
});

describe('label placement', () => {
  const bounds: Rect = { x: 0, y: 0, w: 400, h: 300 };
  const req = (id: string, x: number, y: number, over: Partial<LabelRequest> = {}): LabelRequest => ({
    id, w: 60, h: 14, anchor: { x, y }, gap: 12, style: 'point', priority: 50, required: true, ...over,
  });

  it('GIVEN a token under the preferred spot WHEN a label is placed THEN it moves to a free spot', () => {
    const token: Rect = { x: 170, y: 110, w: 60, h: 60 }; // covers the spot below (200, 100)
    const [p] = placeLabels([req('a', 200, 100)], [token], bounds);
    expect(p?.overlaps).toBe(false);
    expect(p && rectsOverlap(p.rect, token)).toBe(false);
  });

  it('GIVEN many labels on neighbouring anchors WHEN placed THEN none overlaps another or a token', () => {
    const tokens: Rect[] = [];
    const reqs: LabelRequest[] = [];
    for (let i = 0; i < 6; i++) {
      const x = 80 + i * 45;
      tokens.push({ x: x - 10, y: 140, w: 20, h: 20 });
      reqs.push(req(`t${i}`, x, 150, { w: 40 }));
    }
    const placed = placeLabels(reqs, tokens, bounds);
    expect(placed).toHaveLength(6);
    for (const p of placed) {
      expect(p.overlaps).toBe(false);
      for (const t of tokens) expect(rectsOverlap(p.rect, t)).toBe(false);
      for (const q of placed) if (q !== p) expect(rectsOverlap(p.rect, q.rect)).toBe(false);
    }
  });

  it('GIVEN no free room WHEN placing THEN a required label is still placed and an optional one dropped', () => {
    const wall: Rect[] = [{ x: 0, y: 0, w: 400, h: 300 }];
    const placed = placeLabels([req('need', 200, 150), req('nice', 200, 150, { required: false, style: 'area' })], wall, bounds);
    expect(placed.map((p) => p.id)).toEqual(['need']);
    expect(placed[0]?.overlaps).toBe(true);
  });

  it('GIVEN two labels competing WHEN placed THEN the higher priority gets the first choice, deterministically', () => {
    const a = placeLabels([req('low', 200, 100, { priority: 1 }), req('high', 200, 100, { priority: 9 })], [], bounds);
    const b = placeLabels([req('high', 200, 100, { priority: 9 }), req('low', 200, 100, { priority: 1 })], [], bounds);
    expect(a).toEqual(b);
    expect(a[0]?.id).toBe('high');
    expect(a[0]?.rect.y).toBeGreaterThan(100); // below the anchor, the first choice
  });

  it('GIVEN a label near the picture edge WHEN placed THEN it stays inside the bounds', () => {
    const [p] = placeLabels([req('edge', 395, 295)], [], bounds);
    expect(p && within(bounds, p.rect.x, p.rect.y) && within(bounds, p.rect.x + p.rect.w, p.rect.y + p.rect.h)).toBe(true);
  });
});

describe('rivers, scale and the battlefield grid', () => {
  it('GIVEN a river entering north and leaving south-east THEN its curve runs edge middle to edge middle', () => {
    const c = { x: 100, y: 100 };
    const r = riverCurve(c, 20, 'n', 'se');
    expect(r.from).toEqual(edgeMidpoint(c, 20, 'n'));
    expect(r.to).toEqual(edgeMidpoint(c, 20, 'se'));
    expect(Math.hypot(r.dir.x, r.dir.y)).toBeCloseTo(1);
    const src = riverCurve(c, 20, undefined, 's');
    expect(src.from).toEqual(c);
  });

  it('GIVEN a hex radius THEN the scale bar is a whole number of 6-mile hexes that fits', () => {
    const s = scaleBar(20, 200);
    expect(s.miles % 6).toBe(0);
    expect(s.px).toBeLessThanOrEqual(200);
    expect(s.px).toBeCloseTo((s.miles / 6) * SQRT3 * 20);
  });

  it('GIVEN the battlefield THEN nine cells tile the table without overlap, far row on top', () => {
    const cells = battlefieldCells(960, 720);
    expect(cells.size).toBe(9);
    const all = [...cells.values()];
    const inset = (r: Rect): Rect => ({ x: r.x + 0.01, y: r.y + 0.01, w: r.w - 0.02, h: r.h - 0.02 });
    for (const a of all) for (const b of all) if (a !== b) expect(rectsOverlap(inset(a), inset(b))).toBe(false);
    expect((cells.get('far:left')?.y ?? 0)).toBeLessThan(cells.get('near:left')?.y ?? 0);
    expect(quarterTurns(270)).toBe(3);
    expect(quarterTurns(-90)).toBe(3);
    expect(quarterTurns(360)).toBe(0);
  });
});

describe('area labels', () => {
  it('GIVEN two region names side by side WHEN placed THEN they keep their horizontal air or the second is dropped', () => {
    const bounds: Rect = { x: 0, y: 0, w: 600, h: 300 };
    const area = (id: string, x: number): LabelRequest => ({
      id, w: 150, h: 18, anchor: { x, y: 150 }, gap: 0, style: 'area', priority: 10, required: false, padX: 20,
    });
    const placed = placeLabels([area('a', 200), area('b', 360)], [], bounds);
    const [a, b] = placed;
    if (a && b && Math.abs(a.rect.y - b.rect.y) < 18) {
      const gap = Math.max(b.rect.x - (a.rect.x + a.rect.w), a.rect.x - (b.rect.x + b.rect.w));
      expect(gap).toBeGreaterThanOrEqual(20);
    }
  });
});

describe('token positions', () => {
  it('GIVEN two commanders in one contested hex THEN they sit side by side inside that hex; a token off a zoom is left out', async () => {
    const { tokenPositions, tokenRadius } = await import('../../src/render/tokens.js');
    const layout = computeLayout(16, 12);
    const flags = { inContact: true, inBattle: false, unformed: false, fatigued: false, embarked: false };
    const token = (armyId: string, at: string) => ({ armyId, label: armyId, name: armyId, sideId: 's', sideName: 'S', colour: '#123456', hex: h(at), flags });
    const pos = tokenPositions(layout, [token('a', '0505'), token('b', '0505'), token('c', '0606')]);
    const a = pos.get('a');
    const b = pos.get('b');
    if (!a || !b) throw new Error('missing');
    expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(tokenRadius(layout.size));
    expect(formatHex(pixelToHex(layout, a))).toBe('0505');
    expect(formatHex(pixelToHex(layout, b))).toBe('0505');
    const zoom = computeLayout(40, 30, { around: h('3020'), radius: 2 });
    expect(tokenPositions(zoom, [token('a', '0505')]).size).toBe(0);
  });
});

describe('battlefield sketch captions', () => {
  // A fixed-width measure: 0.6 em a character.
  const measure = (text: string, px: number): number => text.length * px * 0.6;

  it('GIVEN a caption that fits THEN it is one line at 13 px', () => {
    expect(fitCaption(['Hill', 'Arn'], 300, measure)).toEqual({ px: 13, lines: ['Hill \u00b7 Arn'] });
  });

  it('GIVEN four cards in one cell THEN each caption is wrapped on up to three lines, never wider than its slot and never below 11 px', () => {
    for (const parts of [['River (270\u00b0)', 'Grunnthraesir Regiment'], ['Stream (180\u00b0)', 'Gnomes of Eglidain Burrows'], ['Open ground', 'Gnomes of Eglidain Burrows']]) {
      const c = fitCaption(parts, 90, measure);
      expect(c.px).toBeGreaterThanOrEqual(11);
      expect(c.lines.length).toBeLessThanOrEqual(3);
      for (const l of c.lines) expect(measure(l, c.px), l).toBeLessThanOrEqual(90);
      expect(c.lines[0]).toMatch(/^(River|Stream|Open)/);
    }
  });

  it('GIVEN a caption too long for three lines THEN the last line ends with an ellipsis', () => {
    const c = fitCaption(['Rough ground (90\u00b0)', 'The Very Long Army of the Eglidain Burrows'], 80, measure);
    expect(c.lines).toHaveLength(3);
    expect(c.lines.at(-1)).toMatch(/\u2026$/);
  });
});

describe('edge numbers (as printed hex maps)', () => {
  const layout = computeLayout(40, 30);

  it('GIVEN the whole map THEN every column is numbered above and below it, every row on both sides, in the band around the hexes', () => {
    const numbers = edgeNumbers(layout);
    expect(numbers).toHaveLength(2 * 40 + 2 * 30);
    const m = layout.map;
    for (const n of numbers) {
      const outside = n.at.y < m.y || n.at.y > m.y + m.h || n.at.x < m.x || n.at.x > m.x + m.w;
      expect(outside, n.text).toBe(true);
      expect(n.at.y).toBeGreaterThan(layout.title.h);
      expect(n.at.y).toBeLessThan(layout.legend.y);
    }
    // Column 17's number stands over column 17's hexes; row 12's beside the first and last column's hex of row 12.
    const col17 = numbers.filter((n) => n.text === '17' && (n.at.y < m.y || n.at.y > m.y + m.h));
    for (const n of col17) expect(n.at.x).toBeCloseTo(hexCentre(layout, offsetToHex({ col: 17, row: 5 })).x);
    const row12 = numbers.filter((n) => n.text === '12' && (n.at.x < m.x || n.at.x > m.x + m.w));
    expect(row12.map((n) => n.at.y).sort((a, b) => a - b)).toEqual([hexCentre(layout, offsetToHex({ col: 1, row: 12 })).y, hexCentre(layout, offsetToHex({ col: 40, row: 12 })).y].sort((a, b) => a - b));
  });
});

describe('route tags keep off the route\'s hex ids', () => {
  it('GIVEN a required tag whose near spots all cover ids it must avoid THEN it is placed further out, over none of them', () => {
    const anchor = { x: 500, y: 500 };
    const ids: Rect[] = [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dy) => ({ x: 500 + dx * 40 - 30, y: 500 + dy * 30 - 15, w: 60, h: 30 })));
    const [placed] = placeLabels([{ id: 'step:a:0', w: 50, h: 16, anchor, gap: 8, style: 'point', priority: 80, required: true, avoid: ids }], [], { x: 0, y: 0, w: 1000, h: 1000 });
    expect(placed).toBeDefined();
    for (const r of ids) expect(rectsOverlap(placed!.rect, r)).toBe(false);
  });
});
