import { type Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
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

function spriteOf(t: MapToken, size: number, scale: number): Sprite {
  const key = spriteKey(t, size, scale);
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
 * only scales and moves (a snapshot does), else drawn in full.
 */
export function blitToken(ctx: SKRSContext2D, t: MapToken, p: Point, size: number): void {
  const m = ctx.getTransform();
  if (m.b !== 0 || m.c !== 0 || m.a !== m.d || m.a <= 0) {
    drawToken(ctx, t, p, size);
    return;
  }
  const sprite = spriteOf(t, size, m.a);
  const x = Math.round(p.x * m.a + m.e) - sprite.centre;
  const y = Math.round(p.y * m.d + m.f) - sprite.centre;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.drawImage(sprite.canvas, x, y);
  ctx.restore();
}

/** Forgets the sprites of this thread (tests). */
export function clearTokenSprites(): void {
  sprites.clear();
}
