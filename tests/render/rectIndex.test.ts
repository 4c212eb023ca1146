import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Rect } from '../../src/render/layout.js';
import { overlapArea, RectIndex } from '../../src/render/rectIndex.js';

/** What the index stands for: every rectangle's overlap, summed in the order they were added. */
const walked = (rects: readonly Rect[], g: Rect): number => rects.reduce((n, t) => n + overlapArea(g, t), 0);

/** Fractions no binary double holds exactly (n / 97): sums of their products in another order come out different. */
const odd = (max: number): fc.Arbitrary<number> => fc.integer({ min: 0, max: max * 97 }).map((n) => n / 97);
/** Label- and token-sized rectangles crowded into one corner, so a spot overlaps several and the order of the sum matters. */
const crowded = fc.record({ x: odd(90), y: odd(90), w: odd(60), h: odd(60) });
/** Anywhere on a picture, with a few wide, inverted or non-finite ones. */
const coord = fc.oneof(
  { weight: 12, arbitrary: fc.double({ min: -100, max: 1700, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e12, -1e12) },
);
const size = fc.oneof(
  { weight: 12, arbitrary: fc.double({ min: 0, max: 120, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: -50, max: 3000, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0) },
);
const rect = fc.oneof({ weight: 3, arbitrary: crowded }, { weight: 1, arbitrary: fc.record({ x: coord, y: coord, w: size, h: size }) });

describe('the grid of taken rectangles (label placement)', () => {
  it('GIVEN any rectangles added in any order WHEN a spot is asked THEN its summed overlap equals, bit for bit, a walk over every rectangle in order (the grid, the walk of a short list, and the switch between them)', () => {
    fc.assert(fc.property(fc.array(rect, { minLength: 1, maxLength: 120 }), fc.array(rect, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 60 }), (rects, queries, cell, linearMax) => {
      const index = new RectIndex(cell, linearMax);
      const added: Rect[] = [];
      // Queries between additions too: the index is asked while labels are still being placed.
      rects.forEach((r, i) => {
        index.add(r);
        added.push(r);
        const q = queries[i % queries.length] as Rect;
        expect(Object.is(index.overlap(q), walked(added, q))).toBe(true);
      });
      for (const q of queries) expect(Object.is(index.overlap(q), walked(added, q))).toBe(true);
    }), { numRuns: 300 });
  });

  it('GIVEN a bound WHEN a spot is asked THEN the sum is exact below the bound, and at or above it otherwise (never more than the whole sum)', () => {
    fc.assert(fc.property(fc.array(rect, { minLength: 1, maxLength: 120 }), fc.array(rect, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 60 }), odd(4000), (rects, queries, cell, linearMax, enough) => {
      const index = new RectIndex(cell, linearMax);
      for (const r of rects) index.add(r);
      for (const q of queries) {
        const whole = walked(rects, q);
        const bounded = index.overlap(q, enough);
        if (whole < enough) expect(Object.is(bounded, whole)).toBe(true);
        else expect(bounded >= enough && bounded <= whole).toBe(true);
      }
    }), { numRuns: 200 });
  });

  it('GIVEN two overlapping rectangles in different cells WHEN asked THEN the overlap across the cell edge is counted once', () => {
    const index = new RectIndex(10, 0);
    index.add({ x: 5, y: 5, w: 30, h: 30 });
    expect(index.overlap({ x: 0, y: 0, w: 40, h: 40 })).toBe(900);
    expect(index.overlap({ x: 34, y: 34, w: 10, h: 10 })).toBe(1);
    expect(index.overlap({ x: 35, y: 35, w: 10, h: 10 })).toBe(0);
  });
});
