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
 * picture), else drawn in full. `copies`: the picture's copier (PixelCopies), holding the context's
 * transform read once (a picture's 800 tokens: `getTransform` builds a matrix object a call); the
 * caller puts the context back with its `userSpace()` after its run of tokens. Without one, the
 * context is left as found.
 */
export function blitToken(ctx: SKRSContext2D, t: MapToken, p: Point, size: number, met: Set<string>, copies?: PixelCopies): void {
  const c = copies ?? new PixelCopies(ctx);
  const m = c.m;
  const sprite = onlyScalesAndMoves(m) ? spriteOf(t, size, m.a, met) : undefined;
  if (!sprite) {
    c.userSpace();
    drawToken(ctx, t, p, size);
    return;
  }
  c.copy(sprite.canvas, Math.round(p.x * m.a + m.e) - sprite.centre, Math.round(p.y * m.d + m.f) - sprite.centre);
  if (!copies) c.userSpace();
}

/** Whether transform `m` only scales (the same both ways) and moves: a sprite copied on whole pixels is then exact. */
export function onlyScalesAndMoves(m: DOMMatrix): boolean {
  return m.b === 0 && m.c === 0 && m.a === m.d && m.a > 0;
}

/**
 * Copies sprites onto a context's canvas pixels, unscaled and opaque as drawn. The context is put
 * on device pixels (no transform, full alpha) at the first copy of a run and left so for the copies
 * that follow; `userSpace()` puts back its transform `m` and alpha, and must be called before
 * anything else is drawn on the context (and at the end). A picture's 1,600 token and label copies
 * each paid four more canvas calls (transform and alpha set and put back round every copy: a fifth
 * of the overlay's CPU, profiled); now a run of copies pays them once. Save / restore would cost
 * more still.
 */
export class PixelCopies {
  private onPixels = false;
  private alpha = 1;

  /** `m`: the context's transform (read here unless the caller holds it). */
  constructor(private readonly ctx: SKRSContext2D, readonly m: DOMMatrix = ctx.getTransform()) {}

  /** Copies `sprite` with its corner at canvas pixel (x, y). */
  copy(sprite: Canvas, x: number, y: number): void {
    if (!this.onPixels) {
      this.alpha = this.ctx.globalAlpha;
      this.ctx.setTransform(1, 0, 0, 1, 0, 0);
      this.ctx.globalAlpha = 1;
      this.onPixels = true;
    }
    this.ctx.drawImage(sprite, x, y);
  }

  /** Puts back the context's transform and alpha after copies (nothing to do when none was made since). */
  userSpace(): void {
    if (!this.onPixels) return;
    const m = this.m;
    this.ctx.setTransform(m.a, m.b, m.c, m.d, m.e, m.f);
    this.ctx.globalAlpha = this.alpha;
    this.onPixels = false;
  }
}

/** Forgets the sprites of this thread (tests). */
export function clearTokenSprites(): void {
  sprites.clear();
}
