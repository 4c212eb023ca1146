import type { SKRSContext2D } from '@napi-rs/canvas';
import { font } from './fonts.js';
import type { Point } from './layout.js';
import { INK } from './palette.js';

/** The badges on a token's rim that say what state its army is in (the map and its legend draw them). */
type Ctx = SKRSContext2D;

export type MarkerKind = 'contact' | 'battle' | 'unformed' | 'fatigued' | 'embarked';

const MARKER_COLOUR: Readonly<Record<MarkerKind, string>> = {
  contact: INK.contact,
  battle: INK.battle,
  unformed: INK.unformed,
  fatigued: INK.fatigued,
  embarked: INK.embarked,
};

/** A token marker: a small round badge with a sign (! contact, crossed swords battle, U, Z, boat). */
export function markerBadge(ctx: Ctx, kind: MarkerKind, c: Point, r: number): void {
  ctx.fillStyle = MARKER_COLOUR[kind];
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.arc(c.x, c.y, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  ctx.strokeStyle = '#ffffff';
  ctx.fillStyle = '#ffffff';
  ctx.lineWidth = Math.max(1.3, r * 0.28);
  ctx.lineCap = 'round';
  const u = r * 0.5;
  switch (kind) {
    case 'battle':
      ctx.beginPath();
      ctx.moveTo(c.x - u, c.y - u);
      ctx.lineTo(c.x + u, c.y + u);
      ctx.moveTo(c.x + u, c.y - u);
      ctx.lineTo(c.x - u, c.y + u);
      ctx.moveTo(c.x - u * 1.05, c.y + u * 0.35);
      ctx.lineTo(c.x - u * 0.35, c.y + u * 1.05);
      ctx.moveTo(c.x + u * 1.05, c.y + u * 0.35);
      ctx.lineTo(c.x + u * 0.35, c.y + u * 1.05);
      ctx.stroke();
      break;
    case 'contact':
      ctx.beginPath();
      ctx.moveTo(c.x, c.y - u * 1.1);
      ctx.lineTo(c.x, c.y + u * 0.25);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(c.x, c.y + u * 0.95, r * 0.14, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'embarked':
      ctx.beginPath();
      ctx.moveTo(c.x - u * 1.2, c.y);
      ctx.lineTo(c.x + u * 1.2, c.y);
      ctx.lineTo(c.x + u * 0.7, c.y + u * 0.8);
      ctx.lineTo(c.x - u * 0.7, c.y + u * 0.8);
      ctx.closePath();
      ctx.fill();
      ctx.beginPath();
      ctx.moveTo(c.x, c.y);
      ctx.lineTo(c.x, c.y - u * 1.2);
      ctx.stroke();
      break;
    default: {
      ctx.font = font(r * 1.35, 'sans', { weight: 700 });
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(kind === 'unformed' ? 'U' : 'Z', c.x, c.y + r * 0.05);
    }
  }
  ctx.lineCap = 'butt';
}
