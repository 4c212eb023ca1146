import { type Canvas, createCanvas, type DOMMatrix, type SKRSContext2D } from '@napi-rs/canvas';
import type { Rect } from './layout.js';
import { measure } from './fonts.js';
import { INK } from './palette.js';
import { onlyScalesAndMoves, PixelCopies } from './tokenSprites.js';

/**
 * Army labels (the boxed names beside tokens) drawn once and copied. On an 800-army map the 800
 * boxes (a translucent rounded fill, its border, one to three lines of text) were the overlay's
 * largest part: ~35-50 ms CPU a picture of the canvas's calls and rasterising, against ~3-8 ms for
 * as many `drawImage` copies. A label's pixels depend only on what `spriteKey` lists (its lines,
 * own or not, its border, its size and the pixel scale), and a campaign's labels read the same from
 * tick to tick (the commander's name), so each label is drawn once on a small transparent canvas
 * kept by the render thread and copied by the next pictures. A box always stands on whole pixels
 * (`snapToPixels`, drawn in full or copied), so the copy is exact, never resampled; source-over
 * compositing is associative, so a copy reads as the label drawn in full, within 8-bit rounding
 * (tests/render/labelSprites.test.ts). Only a picture with many labels (SPRITES_FROM) keeps
 * sprites: a map of a few dozen armies (Valormr) draws its labels as before and keeps nothing.
 */

type Ctx = SKRSContext2D;

/** A boxed label: its lines (text, font, colour), whether it is the viewer's own army's, its border colour. */
export interface BoxedLabel {
  readonly lines: readonly { readonly text: string; readonly font: string; readonly colour: string }[];
  readonly own: boolean;
  readonly border?: string | undefined;
}

/** A picture with at least this many boxed labels copies them from sprites (fewer: drawn in full, nothing kept). */
export const SPRITES_FROM = 150;
/** Pixel bytes of sprites a render thread keeps (800 labels at scale 1 are ~11 MB); cleared when full. */
const BUDGET_BYTES = 16 * 1024 * 1024;

interface Sprite {
  readonly canvas: Canvas;
  /** Device pixels left and right of the box on the sprite (its margin, and text spilling past the box). */
  readonly padX: number;
}

const sprites = new Map<string, Sprite>();
let keptBytes = 0;

export function roundRect(ctx: Ctx, r: Rect, rad: number): void {
  ctx.beginPath();
  ctx.moveTo(r.x + rad, r.y);
  ctx.arcTo(r.x + r.w, r.y, r.x + r.w, r.y + r.h, rad);
  ctx.arcTo(r.x + r.w, r.y + r.h, r.x, r.y + r.h, rad);
  ctx.arcTo(r.x, r.y + r.h, r.x, r.y, rad);
  ctx.arcTo(r.x, r.y, r.x + r.w, r.y, rad);
  ctx.closePath();
}

/** The border's width: the own army's label is ringed thicker. */
function borderWidth(l: BoxedLabel): number {
  return l.own ? 2.5 : 1.5;
}

/** Draws the label's box and lines with its top-left corner at `r`. */
function drawBoxedLabel(ctx: Ctx, r: Rect, l: BoxedLabel): void {
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const cx = r.x + r.w / 2;
  ctx.fillStyle = 'rgba(255, 253, 246, 0.93)';
  roundRect(ctx, r, 3);
  ctx.fill();
  ctx.strokeStyle = l.own ? INK.own : (l.border ?? INK.symbol);
  ctx.lineWidth = borderWidth(l);
  ctx.stroke();
  const lh = (r.h - 4) / l.lines.length;
  l.lines.forEach((line, i) => {
    ctx.font = line.font;
    ctx.fillStyle = line.colour;
    ctx.fillText(line.text, cx, r.y + 2 + lh * (i + 0.5) + 0.5);
  });
}

/**
 * `r` moved (by under half a pixel) so that its corner stands on a whole pixel of the canvas under
 * transform `m`; unchanged when the context rotates or skews.
 */
function snapToPixels(r: Rect, m: DOMMatrix): Rect {
  if (!onlyScalesAndMoves(m)) return r;
  return { x: (Math.round(r.x * m.a + m.e) - m.e) / m.a, y: (Math.round(r.y * m.d + m.f) - m.f) / m.d, w: r.w, h: r.h };
}

/** Everything `drawBoxedLabel` reads, with the pixel scale: two labels with one key have the same pixels. */
function spriteKey(r: Rect, l: BoxedLabel, scale: number): string {
  return [scale, r.w, r.h, l.own, l.border ?? '', ...l.lines.flatMap((line) => [line.text, line.font, line.colour])].join('\u0000');
}

/** Device pixels around the box a sprite keeps: half the border, its antialiasing, one more. */
function margin(l: BoxedLabel, scale: number): number {
  return Math.ceil((borderWidth(l) / 2 + 1) * scale) + 1;
}

/**
 * Draws label `l` in box `r` (context units), its corner put on a whole pixel: copied from its
 * sprite when `useSprites` and the context only scales and moves, else drawn in full. `copies`:
 * the picture's copier (tokenSprites.ts), holding the context's transform read once for a
 * picture's many labels; the caller puts the context back with its `userSpace()` after its run of
 * labels. Without one, the context is left as found.
 */
export function blitBoxedLabel(ctx: Ctx, r: Rect, l: BoxedLabel, useSprites: boolean, copies?: PixelCopies): void {
  const c = copies ?? new PixelCopies(ctx);
  const m = c.m;
  const at = snapToPixels(r, m);
  if (!useSprites || !onlyScalesAndMoves(m)) {
    c.userSpace();
    drawBoxedLabel(ctx, at, l);
    return;
  }
  const scale = m.a;
  const pad = margin(l, scale);
  const key = spriteKey(r, l, scale);
  let sprite = sprites.get(key);
  if (!sprite) {
    // A line wider than its box (never in a picture: the box is sized to its widest line) would
    // spill over both sides: the sprite keeps that too.
    const spill = Math.max(0, ...l.lines.map((line) => Math.ceil(((measure(ctx, line.text, line.font) - r.w) / 2) * scale) + 1));
    const padX = pad + spill;
    const canvas = createCanvas(Math.ceil(r.w * scale) + 2 * padX, Math.ceil(r.h * scale) + 2 * pad);
    const sctx = canvas.getContext('2d');
    sctx.setTransform(scale, 0, 0, scale, padX, pad);
    drawBoxedLabel(sctx, { x: 0, y: 0, w: r.w, h: r.h }, l);
    const bytes = canvas.width * canvas.height * 4;
    if (keptBytes + bytes > BUDGET_BYTES) clearLabelSprites();
    sprite = { canvas, padX };
    sprites.set(key, sprite);
    keptBytes += bytes;
  }
  c.copy(sprite.canvas, Math.round(at.x * m.a + m.e) - sprite.padX, Math.round(at.y * m.d + m.f) - pad);
  if (!copies) c.userSpace();
}

/** Forgets this thread's label sprites (tests, a cleared render cache). */
export function clearLabelSprites(): void {
  sprites.clear();
  keptBytes = 0;
}
