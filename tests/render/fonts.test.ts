import { createCanvas } from '@napi-rs/canvas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ensureFonts, font, measure } from '../../src/render/fonts.js';

/** A width measured the plain way: a fresh context, its font set, `measureText`. */
function fresh(text: string, f: string): number {
  const ctx = createCanvas(8, 8).getContext('2d');
  ctx.font = f;
  return ctx.measureText(text).width;
}

describe('measured widths (kept by font and text)', () => {
  it('GIVEN any text in any of our fonts WHEN measured, again, and on another context left in another font THEN every width is the plain measure', () => {
    ensureFonts();
    const a = createCanvas(8, 8).getContext('2d');
    const b = createCanvas(8, 8).getContext('2d');
    const anyFont = fc.record({ px: fc.integer({ min: 60, max: 400 }).map((n) => n / 10), family: fc.constantFrom('serif' as const, 'sans' as const), weight: fc.constantFrom(400, 600, 700), italic: fc.boolean() })
      .map((o) => font(o.px, o.family, { weight: o.weight, italic: o.italic }));
    // Short texts from a few letters, so the same text comes back in another font and the same font with another text.
    const text = fc.oneof(fc.stringMatching(/^[A-Za-z0-9 %]{0,12}$/), fc.constantFrom('Army 12', 'Commander 7', 'courier to 0913', 'W', 'WWW', 'iii', ''), fc.string({ maxLength: 20 }));
    fc.assert(fc.property(fc.array(fc.tuple(text, anyFont), { minLength: 1, maxLength: 30 }), fc.string(), (pairs, other) => {
      for (const [t, f] of pairs) {
        const want = fresh(t, f);
        expect(measure(a, t, f)).toBe(want);
        b.font = font(30, 'serif', { weight: 700 });
        b.measureText(other);
        expect(measure(b, t, f)).toBe(want);
      }
    }), { numRuns: 60 });
  });
});
