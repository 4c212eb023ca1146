import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexDistance } from '../../src/engine/hex/distance.js';
import { formatHex, hexToOffset, offsetToHex, parseHex } from '../../src/engine/hex/hexId.js';
import { hexLine } from '../../src/engine/hex/line.js';
import { DIRECTION_VECTORS, DIRECTIONS } from '../../src/engine/hex/hex.js';
import { directionTo, neighbours } from '../../src/engine/hex/neighbours.js';
import { hexRing, hexSpiral } from '../../src/engine/hex/ring.js';

const id = (s: string) => {
  const h = parseHex(s);
  if (!h) throw new Error(`bad id ${s}`);
  return h;
};
const ids = (hs: { q: number; r: number }[]) => hs.map((h) => formatHex(h)).sort();

describe('RULINGS 1: CCRR hex ids, flat-top, even columns half a hex lower', () => {
  it('GIVEN 0712 WHEN parsed THEN it is column 7 row 12 and formats back', () => {
    expect(hexToOffset(id('0712'))).toEqual({ col: 7, row: 12 });
    expect(formatHex(id('0712'))).toBe('0712');
  });

  it('round-trips every id of a 40 x 30 map', () => {
    for (let col = 1; col <= 40; col++) {
      for (let row = 1; row <= 30; row++) expect(hexToOffset(offsetToHex({ col, row }))).toEqual({ col, row });
    }
  });

  it('GIVEN an odd column WHEN listing neighbours THEN the side neighbours are one row up and the same row', () => {
    // Column 7 is odd (higher); its neighbours in columns 6 and 8 (lower) are rows 11 and 12.
    expect(ids(neighbours(id('0712')))).toEqual(['0611', '0612', '0711', '0713', '0811', '0812']);
  });

  it('GIVEN an even column WHEN listing neighbours THEN the side neighbours are the same row and one row down', () => {
    expect(ids(neighbours(id('0812')))).toEqual(['0712', '0713', '0811', '0813', '0912', '0913']);
  });

  it('measures distance in hex steps', () => {
    expect(hexDistance(id('0712'), id('0712'))).toBe(0);
    expect(hexDistance(id('0712'), id('0812'))).toBe(1);
    expect(hexDistance(id('0101'), id('0105'))).toBe(4);
    expect(hexDistance(id('0101'), id('0501'))).toBe(4);
    expect(hexDistance(id('0101'), id('0502'))).toBe(4);
    expect(hexDistance(id('0101'), id('0503'))).toBe(4);
    expect(hexDistance(id('0101'), id('0504'))).toBe(5);
  });

  it('draws a line of adjacent hexes from end to end', () => {
    const line = hexLine(id('0101'), id('0605'));
    expect(line).toHaveLength(hexDistance(id('0101'), id('0605')) + 1);
    expect(formatHex(line[0]!)).toBe('0101');
    expect(formatHex(line[line.length - 1]!)).toBe('0605');
    for (let i = 1; i < line.length; i++) expect(hexDistance(line[i - 1]!, line[i]!)).toBe(1);
  });

  it('builds rings of 6k hexes at distance k, and spirals of 1 + 3k(k+1)', () => {
    const c = id('1010');
    for (const k of [1, 2, 3]) {
      const ring = hexRing(c, k);
      expect(ring).toHaveLength(6 * k);
      expect(new Set(ring.map((h) => `${h.q},${h.r}`)).size).toBe(6 * k);
      for (const h of ring) expect(hexDistance(c, h)).toBe(k);
    }
    expect(hexSpiral(c, 2)).toHaveLength(19);
    expect(ids(hexRing(c, 1))).toEqual(ids(neighbours(c)));
  });

  it('names the edge between neighbours and nothing for hexes further apart', () => {
    expect(directionTo(id('0712'), id('0711'))).toBe('n');
    expect(directionTo(id('0712'), id('0812'))).toBe('se');
    expect(directionTo(id('0712'), id('0714'))).toBeUndefined();
  });

  it('GIVEN any two hexes (near each other or not) THEN the edge named is the direction whose offset leads from one to the other, and none when no offset does', () => {
    const coord = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -500, max: 500 }), fc.constantFrom(0.5, -0, Number.NaN));
    const hex = fc.record({ q: coord, r: coord });
    const offset = fc.record({ q: fc.integer({ min: -2, max: 2 }), r: fc.integer({ min: -2, max: 2 }) });
    // The second hex anywhere, or a step or two from the first.
    const pair = fc.tuple(hex, fc.oneof(hex.map((h) => ({ far: h })), offset.map((o) => ({ by: o })))).map(([a, b]) => [a, 'far' in b ? b.far : { q: a.q + b.by.q, r: a.r + b.by.r }] as const);
    fc.assert(fc.property(pair, ([a, b]) => {
      const searched = DIRECTIONS.find((d) => DIRECTION_VECTORS[d].q === b.q - a.q && DIRECTION_VECTORS[d].r === b.r - a.r);
      expect(directionTo(a, b)).toBe(searched);
    }), { numRuns: 500 });
    for (const h of neighbours(id('0712'))) expect(directionTo(id('0712'), h)).toBeDefined();
  });

  it('refuses text that is not a hex id', () => {
    for (const bad of ['712', 'A712', '07-12', '0000', '12345']) expect(parseHex(bad)).toBeUndefined();
    expect(hexToOffset(parseHex('101099')!)).toEqual({ col: 101, row: 99 });
  });
});
