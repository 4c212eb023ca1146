import type { SKRSContext2D } from '@napi-rs/canvas';
import type { MapToken } from '../engine/views/index.js';
import { font } from './fonts.js';
import type { Point } from './layout.js';

/**
 * Fog of war on a commander's map: an army known only from an old sighting is drawn where it was
 * seen, faded with the age of the knowledge and ringed with a dashed line, with a line under its
 * name saying how and when it was known ("seen Day 3, evening"). An army seen now is drawn as usual.
 */

/** Opacity of a token known from a sighting this many half periods old: full now, fading to a floor after two days. */
export function knowledgeAlpha(t: MapToken): number {
  const age = t.seen?.ageHalves ?? 0;
  return age <= 0 ? 1 : Math.max(0.35, 0.85 - 0.06 * (age - 1));
}

/** Whether the token stands where it was last known rather than seen now. */
export function isRemembered(t: MapToken): boolean {
  return (t.seen?.ageHalves ?? 0) > 0;
}

/** The dashed ring around a remembered token: its position is old news. */
export function drawRememberedRing(ctx: SKRSContext2D, p: Point, r: number): void {
  ctx.save();
  ctx.globalAlpha = 0.9;
  ctx.strokeStyle = '#3b3b3b';
  ctx.lineWidth = 1.6;
  ctx.setLineDash([3.5, 3]);
  ctx.beginPath();
  ctx.arc(p.x, p.y, r + 4, 0, Math.PI * 2);
  ctx.stroke();
  ctx.restore();
}

/** The label line under a remembered token's name, if any. */
export function seenLine(t: MapToken, px: number): { text: string; font: string; colour: string } | undefined {
  if (!t.seen?.label) return undefined;
  return { text: t.seen.label, font: font(px - 1.5, 'sans', { italic: true }), colour: '#4d4d4d' };
}
