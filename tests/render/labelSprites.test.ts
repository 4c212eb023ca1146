import { type Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFonts, font, measure } from '../../src/render/fonts.js';
import { blitBoxedLabel, type BoxedLabel, clearLabelSprites } from '../../src/render/labelSprites.js';
import { patternedGround } from './fixtures.js';

/*
 * An army label copied from its sprite must look as the label drawn in full at the same place: the
 * same pixels, up to the rounding of compositing in two steps (the box is translucent; source-over
 * is associative, each step rounds to 8 bits: 8 levels allowed, as for token sprites; a copy one
 * pixel off, another label's sprite or a stale one differs by far more). The sprites are kept
 * between pictures, so the property draws a sequence of labels against one cache: every copy must
 * be its own label's, whatever was kept before (any text, font, colour, border, own, size or scale
 * that differs is a different sprite).
 */

// Large enough that every label stands inside it with a margin (the overlay places labels inside the map).
const W = 420;
const H = 170;
const ruler = createCanvas(1, 1).getContext('2d');

/** A patterned opaque ground (as the map is), drawn once and copied under every label. */
const pattern = patternedGround(W, H);

function ground(): Canvas {
  const c = createCanvas(W, H);
  c.getContext('2d').drawImage(pattern, 0, 0);
  return c;
}

const line = fc.record({
  text: fc.constantFrom('Commander 12', 'Hadewych', 'Sir Aldric of Mere', '~3,000 foot', 'seen 2 halves ago', 'x'),
  font: fc.constantFrom(font(15, 'sans', { weight: 600 }), font(14, 'sans', { italic: true }), font(11.5, 'sans', { weight: 600 })),
  colour: fc.constantFrom('#2b2b2b', '#5a3b1c', '#8e2a22'),
});
const label = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 3 }),
  own: fc.boolean(),
  border: fc.option(fc.constantFrom('#b03030', '#3050b0', '#2e7d32'), { nil: undefined }),
}) satisfies fc.Arbitrary<BoxedLabel>;
const placed = fc.record({
  label,
  x: fc.double({ min: 8, max: 40, noNaN: true }),
  y: fc.double({ min: 8, max: 30, noNaN: true }),
  extra: fc.double({ min: 0, max: 30, noNaN: true }),
  scale: fc.constantFrom(0.5, 1, 2),
});

function pixels(scale: number, draw: (ctx: SKRSContext2D) => void): Uint8ClampedArray {
  const c = ground();
  const ctx = c.getContext('2d');
  ctx.scale(scale, scale);
  draw(ctx);
  return ctx.getImageData(0, 0, W, H).data;
}

function worstDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return worst;
}

describe('label sprites', () => {
  beforeAll(() => ensureFonts());

  it('GIVEN any sequence of army labels drawn against one kept cache WHEN each is copied from its sprite THEN its pixels are those of that label drawn in full, within rounding', () => {
    fc.assert(fc.property(fc.array(placed, { minLength: 1, maxLength: 3 }), (labels) => {
      clearLabelSprites();
      for (const { label: l, x, y, extra, scale } of labels) {
        // Sized as the overlay sizes an army's label: its widest line and 10 px, a line's height and 3 px a line, and 4.
        const r = { x: x / scale, y: y / scale, w: Math.max(...l.lines.map((line) => measure(ruler, line.text, line.font))) + 10 + extra, h: l.lines.length * 18 + 4 };
        const full = pixels(scale, (ctx) => blitBoxedLabel(ctx, r, l, false));
        const copied = pixels(scale, (ctx) => blitBoxedLabel(ctx, r, l, true));
        // Copied again (another picture: the sprite kept): the same pixels as the first copy.
        const again = pixels(scale, (ctx) => blitBoxedLabel(ctx, r, l, true));
        expect(worstDifference(full, copied)).toBeLessThanOrEqual(8);
        expect(again).toEqual(copied);
      }
    }), { numRuns: 5 });
  });

  it('GIVEN two labels that differ only in one line\'s text WHEN both are copied from sprites THEN the second shows its own text (the cache is keyed by the text)', () => {
    clearLabelSprites();
    const r = { x: 10.3, y: 20.6, w: 100, h: 22 };
    const a: BoxedLabel = { lines: [{ text: 'Commander 12', font: font(15, 'sans', { weight: 600 }), colour: '#2b2b2b' }], own: false, border: '#b03030' };
    const b: BoxedLabel = { ...a, lines: [{ ...a.lines[0]!, text: 'Commander 13' }] };
    const draw = (l: BoxedLabel, useSprites: boolean) => pixels(1, (ctx) => blitBoxedLabel(ctx, r, l, useSprites));
    const aCopied = draw(a, true);
    const bCopied = draw(b, true);
    expect(worstDifference(aCopied, bCopied)).toBeGreaterThan(64);
    expect(worstDifference(bCopied, draw(b, false))).toBeLessThanOrEqual(8);
  });

  it('GIVEN a context that rotates WHEN a label is drawn with sprites allowed THEN it is drawn in full (a sprite is copied on whole pixels only)', () => {
    clearLabelSprites();
    const l: BoxedLabel = { lines: [{ text: 'Hadewych', font: font(15, 'sans', { weight: 600 }), colour: '#2b2b2b' }], own: true };
    const turned = (useSprites: boolean) => pixels(1, (ctx) => {
      ctx.translate(60, 20);
      ctx.rotate(0.3);
      blitBoxedLabel(ctx, { x: 0, y: 0, w: 90, h: 22 }, l, useSprites);
    });
    expect(turned(true)).toEqual(turned(false));
  });
});
