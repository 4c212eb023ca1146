import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapToken } from '../../src/engine/views/mapView.js';
import { ensureFonts } from '../../src/render/fonts.js';
import { blitToken, clearTokenSprites, PixelCopies } from '../../src/render/tokenSprites.js';
import { drawToken } from '../../src/render/tokens.js';
import { patternedGround } from './fixtures.js';

/*
 * A token copied from its sprite must look as the token drawn in full: the same pixels, up to the
 * rounding of compositing in two steps (source-over is associative; each step rounds to 8 bits, a
 * faded token's sprite is translucent: up to 5 levels measured, 8 allowed; a sprite one pixel off or
 * its alpha applied twice differs by far more).
 * Checked on a patterned opaque ground (as the map is), at a centre on whole pixels (where the copy
 * does not move it), at the scales a snapshot uses, for any look: flags, own, age, colour, label.
 */

const W = 160;
const H = 160;

function ground(): Canvas {
  return patternedGround(W, H);
}

const flags = fc.record({ inContact: fc.boolean(), inBattle: fc.boolean(), unformed: fc.boolean(), fatigued: fc.boolean(), embarked: fc.boolean() });
const token = fc.record({
  flags,
  own: fc.boolean(),
  age: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
  colour: fc.constantFrom('#b03030', '#3050b0', '#2e7d32', '#f0f0f0'),
  label: fc.constantFrom('Army 12', 'Hadewych', 'Sir Aldric of Mere', 'x'),
}).map(({ flags: f, own, age, colour, label }): MapToken => ({
  armyId: 'a1', label, name: label, sideId: 's', sideName: 'S', colour, hex: { q: 0, r: 0 }, flags: f, own,
  ...(age !== undefined ? { seen: { how: 'contact' as const, ageHalves: age } } : {}),
}));

function pixels(draw: (ctx: SKRSContext2D) => void): Uint8ClampedArray {
  const c = ground();
  const ctx = c.getContext('2d');
  draw(ctx);
  return ctx.getImageData(0, 0, W, H).data;
}

describe('token sprites', () => {
  beforeAll(() => ensureFonts());

  it('GIVEN any token look and a snapshot scale WHEN the token is copied from its sprite THEN its pixels are those of the token drawn in full, within rounding', () => {
    fc.assert(fc.property(token, fc.constantFrom(0.5, 1, 2), fc.constantFrom(24, 30, 40), (t, scale, size) => {
      clearTokenSprites();
      const p = { x: 80 / scale, y: 80 / scale };
      const at = (f: typeof drawToken) => pixels((ctx) => {
        ctx.scale(scale, scale);
        f(ctx, t, p, size);
      });
      const full = at(drawToken);
      // The first token of a look in a picture is drawn in full; the next ones are copies of its sprite.
      const met = new Set<string>();
      expect(at((c, tk, q, z) => blitToken(c, tk, q, z, met))).toEqual(full);
      const copied = at((c, tk, q, z) => blitToken(c, tk, q, z, met));
      // Copied again from the kept sprite (another picture, its first token of the look drawn already): the same.
      const again = at((c, tk, q, z) => blitToken(c, tk, q, z, met));
      let worst = 0;
      for (let i = 0; i < full.length; i++) worst = Math.max(worst, Math.abs((full[i] ?? 0) - (copied[i] ?? 0)));
      expect(worst).toBeLessThanOrEqual(8);
      expect(again).toEqual(copied);
    }), { numRuns: 15 });
  });

  it('GIVEN a run of tokens sharing one copier (a picture) WHEN they are drawn THEN the pixels and the context after are those of each token drawn with a copier of its own', () => {
    // A picture's copier leaves the context on device pixels between copies; a token drawn in full
    // in the middle of the run (a new look) must still be drawn at the context's transform and alpha.
    // Two looks at most, so that most tokens of the run are copies of a look met before.
    const place = fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 10, max: 150 }), fc.integer({ min: 10, max: 150 }));
    fc.assert(fc.property(fc.array(token, { minLength: 1, maxLength: 2 }), fc.array(place, { minLength: 3, maxLength: 6 }),
      fc.constantFrom(1, 2), fc.constantFrom(1, 0.6), (looks, places, scale, alpha) => {
        const run = places.map(([i, x, y]) => [looks[i % looks.length] as MapToken, x, y] as const);
        clearTokenSprites();
        let after: unknown[] = [];
        const draw = (shared: boolean) => pixels((ctx) => {
          ctx.translate(3, 5);
          ctx.scale(scale, scale);
          ctx.globalAlpha = alpha;
          const met = new Set<string>();
          const copies = shared ? new PixelCopies(ctx) : undefined;
          for (const [t, x, y] of run) blitToken(ctx, t, { x: x / scale, y: y / scale }, 30, met, copies);
          copies?.userSpace();
          const m = ctx.getTransform();
          after = [m.a, m.b, m.c, m.d, m.e, m.f, ctx.globalAlpha];
        });
        const alone = draw(false);
        const aloneAfter = after;
        expect(draw(true)).toEqual(alone);
        expect(after).toEqual(aloneAfter);
        expect(aloneAfter).toEqual([scale, 0, 0, scale, 3, 5, alpha]);
      }), { numRuns: 10 });
  });

  it('GIVEN a context that rotates WHEN a token is drawn THEN it is drawn in full (a sprite is copied on whole pixels only)', () => {
    const t: MapToken = { armyId: 'a1', label: 'Army 1', name: 'Army 1', sideId: 's', sideName: 'S', colour: '#b03030', hex: { q: 0, r: 0 }, flags: { inContact: true, inBattle: false, unformed: false, fatigued: false, embarked: false } };
    const turned = (f: typeof drawToken) => pixels((ctx) => {
      ctx.translate(80, 80);
      ctx.rotate(0.3);
      f(ctx, t, { x: 0, y: 0 }, 30);
    });
    const met = new Set<string>();
    turned((c, tk, q, z) => blitToken(c, tk, q, z, met));
    expect(turned((c, tk, q, z) => blitToken(c, tk, q, z, met))).toEqual(turned(drawToken));
  });
});
