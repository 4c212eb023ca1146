import { type Canvas, createCanvas, type DOMMatrix, type SKRSContext2D } from '@napi-rs/canvas';
import type { MapToken } from '../engine/views/index.js';
import { isRemembered, knowledgeAlpha } from './knowledgeMarks.js';
import type { Point } from './layout.js';
import { badgeRadius, drawToken, tokenInitials, tokenRadius } from './tokens.js';

/**
 * Army tokens drawn once and copied: a map of 800 armies drew each token with a dozen canvas calls
 * (rings, shadow, disc, initials, badges), half the picture's overlay. A token's look depends only
 * on what `spriteKey` lists, so each look is drawn once on a small transparent canvas (a sprite)
 * at the picture's pixel scale, and every token of that look is one `drawImage` of it, placed on
 * whole pixels (a token moves by under half a pixel; the copy is exact, never resampled).
 * Source-over compositing is associative, so a token copied over the map reads as one drawn on it.
 * A sprite serves only a look met before in the same picture (its first token is drawn in full): a
 * map of a few dozen armies, each a look of its own (Valormr), is drawn as before. Sprites built
 * for every look drew its snapshot in 5.1 ms instead of 2.7 on a fresh render thread, and copying
 * them was no faster warm (CPU minima of 22 draws, load 17).
 * Sprites are kept per thread; the set is cleared when full (like the text widths, fonts.ts).
 */

interface Sprite {
  readonly canvas: Canvas;
  /** Pixels from the sprite's corner to the token's centre, in both directions. */
  readonly centre: number;
}

const sprites = new Map<string, Sprite>();
/** Looks kept: a sprite is a few kilobytes (49 x 49 pixels at scale 1). */
const SPRITES_KEPT = 256;

/** Everything `drawToken` reads of a token, with the size and the pixel scale it is drawn at. */
function spriteKey(t: MapToken, size: number, scale: number): string {
  const f = t.flags;
  return [t.colour, tokenInitials(t.label), t.own === true, f.inBattle, f.inContact, f.unformed, f.fatigued, f.embarked, knowledgeAlpha(t), isRemembered(t), size, scale].join('\u0000');
}

/** How far a token's drawing reaches from its centre: the own ring, the shadow, the marker badges (with their outline). */
function reach(size: number): number {
  return tokenRadius(size) + Math.max(10.5, badgeRadius(size) * 1.6 + 2) + 2;
}

/** The look's sprite, or undefined the first time the picture meets the look (`met`: its looks so far). */
function spriteOf(t: MapToken, size: number, scale: number, met: Set<string>): Sprite | undefined {
  const key = spriteKey(t, size, scale);
  if (!met.has(key)) {
    met.add(key);
    return undefined;
  }
  const kept = sprites.get(key);
  if (kept) return kept;
  const centre = Math.ceil(reach(size) * scale);
  const canvas = createCanvas(2 * centre + 1, 2 * centre + 1);
  const ctx = canvas.getContext('2d');
  ctx.scale(scale, scale);
  drawToken(ctx, t, { x: centre / scale, y: centre / scale }, size);
  if (sprites.size >= SPRITES_KEPT) sprites.clear();
  const sprite = { canvas, centre };
  sprites.set(key, sprite);
  return sprite;
}

/**
 * Draws token `t` centred at `p` (in the context's units): a copy of its sprite when the context
 * only scales and moves (a snapshot does) and the picture met the look before (`met`, one set a
 * picture), else drawn in full. `m`: the context's transform, when the caller holds it (a picture's
 * 800 tokens read it once: `getTransform` builds a matrix object a call, and save / restore round
 * each copy cost more than the copy; the copy now puts back the transform and alpha it changed).
 */
export function blitToken(ctx: SKRSContext2D, t: MapToken, p: Point, size: number, met: Set<string>, m: DOMMatrix = ctx.getTransform()): void {
  const sprite = onlyScalesAndMoves(m) ? spriteOf(t, size, m.a, met) : undefined;
  if (!sprite) {
    drawToken(ctx, t, p, size);
    return;
  }
  copyOnPixels(ctx, sprite.canvas, Math.round(p.x * m.a + m.e) - sprite.centre, Math.round(p.y * m.d + m.f) - sprite.centre, m);
}

/** Whether transform `m` only scales (the same both ways) and moves: a sprite copied on whole pixels is then exact. */
export function onlyScalesAndMoves(m: DOMMatrix): boolean {
  return m.b === 0 && m.c === 0 && m.a === m.d && m.a > 0;
}

/**
 * Copies `sprite` with its corner at canvas pixel (x, y), unscaled and opaque as drawn, then puts
 * back the context's transform `m` and its alpha (cheaper than save / restore round each copy).
 */
export function copyOnPixels(ctx: SKRSContext2D, sprite: Canvas, x: number, y: number, m: DOMMatrix): void {
  const alpha = ctx.globalAlpha;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.drawImage(sprite, x, y);
  ctx.setTransform(m.a, m.b, m.c, m.d, m.e, m.f);
  ctx.globalAlpha = alpha;
}

/** Forgets the sprites of this thread (tests). */
export function clearTokenSprites(): void {
  sprites.clear();
}
