import type { SKRSContext2D } from '@napi-rs/canvas';
import type { BattlefieldCard } from '../engine/views/battlefieldSketch.js';
import { INK } from './palette.js';

/**
 * The terrain drawn on each battlefield card, one function a card, in a box centred at the origin
 * with its long side along x: `hw` and `hh` are the box's half width and half height (hw >= hh).
 * @see 001 Terrain Reconnaissance
 */
type Ctx = SKRSContext2D;
type CardArt = (ctx: Ctx, hw: number, hh: number) => void;

/** Nested contours of an irregular hill. */
function hill(ctx: Ctx, hw: number, hh: number): void {
  const rings = [[1, '#d9c089'], [0.7, '#c9a86a'], [0.42, '#b08d50']] as const;
  for (const [k, col] of rings) {
    ctx.fillStyle = col;
    ctx.strokeStyle = '#8a6a36';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(-hw * 0.85 * k, 0);
    ctx.bezierCurveTo(-hw * 0.8 * k, -hh * 0.95 * k, hw * 0.3 * k, -hh * 0.9 * k, hw * 0.85 * k, -hh * 0.1 * k);
    ctx.bezierCurveTo(hw * 0.95 * k, hh * 0.6 * k, -hw * 0.2 * k, hh * 0.95 * k, -hw * 0.85 * k, 0);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }
}

/** A ring of tree crowns over a pale green patch. */
function woods(ctx: Ctx, hw: number, hh: number): void {
  ctx.fillStyle = 'rgba(79, 122, 60, 0.25)';
  ctx.beginPath();
  ctx.ellipse(0, 0, hw * 0.9, hh * 0.85, 0, 0, Math.PI * 2);
  ctx.fill();
  const n = 11;
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 2 + 0.3;
    const rr = i % 2 === 0 ? 0.6 : 0.3;
    const x = Math.cos(a) * hw * rr;
    const y = Math.sin(a) * hh * rr;
    ctx.fillStyle = i % 3 === 0 ? '#5f8a45' : '#78a05a';
    ctx.strokeStyle = INK.tree;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(x, y, Math.min(hw, hh) * 0.22, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
}

/** Tufts of reeds over water lines on a pale blue patch. */
function marsh(ctx: Ctx, hw: number, hh: number): void {
  ctx.fillStyle = 'rgba(127, 168, 176, 0.35)';
  ctx.beginPath();
  ctx.ellipse(0, 0, hw * 0.92, hh * 0.8, 0, 0, Math.PI * 2);
  ctx.fill();
  for (let i = 0; i < 9; i++) {
    const x = ((i % 3) - 1) * hw * 0.5 + (i % 2 === 0 ? 6 : -6);
    const y = (Math.floor(i / 3) - 1) * hh * 0.45;
    ctx.strokeStyle = INK.swampWater;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x - 12, y + 2);
    ctx.lineTo(x + 12, y + 2);
    ctx.stroke();
    ctx.strokeStyle = INK.swamp;
    ctx.beginPath();
    for (const dx of [-5, 0, 5]) {
      ctx.moveTo(x + dx * 0.4, y);
      ctx.lineTo(x + dx, y - (dx === 0 ? 11 : 8));
    }
    ctx.stroke();
  }
}

/** A watercourse along the card's long side, bending once, with an arrow for its flow. */
function watercourse(kind: 'river' | 'stream'): CardArt {
  return (ctx, hw, hh) => {
    const path = (): void => {
      ctx.beginPath();
      ctx.moveTo(-hw, hh * 0.2);
      ctx.bezierCurveTo(-hw * 0.3, -hh * 0.7, hw * 0.2, hh * 0.7, hw, -hh * 0.15);
    };
    ctx.lineCap = 'butt';
    if (kind === 'river') {
      // banks, then water
      const h = hh * 2;
      ctx.strokeStyle = INK.riverBank;
      ctx.lineWidth = Math.max(16, h * 0.3);
      path();
      ctx.stroke();
      ctx.strokeStyle = '#a9d0e4';
      ctx.lineWidth = Math.max(12, h * 0.3) - 5;
      path();
      ctx.stroke();
    } else {
      ctx.strokeStyle = INK.riverMinor;
      ctx.lineWidth = 4;
      path();
      ctx.stroke();
    }
    ctx.fillStyle = INK.riverBank;
    ctx.beginPath();
    ctx.moveTo(hw - 4, -hh * 0.15);
    ctx.lineTo(hw - 16, -hh * 0.15 - 7);
    ctx.lineTo(hw - 16, -hh * 0.15 + 7);
    ctx.closePath();
    ctx.fill();
  };
}

function pond(ctx: Ctx, hw: number, hh: number): void {
  ctx.fillStyle = '#a9d0e4';
  ctx.strokeStyle = INK.riverBank;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  ctx.ellipse(0, 0, hw * 0.55, hh * 0.55, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
}

/** A zigzag floor with hachures falling into it from both sides. */
function gully(ctx: Ctx, hw: number, hh: number): void {
  ctx.strokeStyle = '#5a4026';
  ctx.lineWidth = 3;
  ctx.lineJoin = 'round';
  const pts: [number, number][] = [];
  for (let i = 0; i <= 8; i++) pts.push([-hw * 0.9 + (i / 8) * hw * 1.8, (i % 2 === 0 ? -1 : 1) * hh * 0.08]);
  ctx.beginPath();
  pts.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.stroke();
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let i = 0; i < 12; i++) {
    const x = -hw * 0.8 + (i / 11) * hw * 1.6;
    ctx.moveTo(x, -hh * 0.55);
    ctx.lineTo(x, -hh * 0.2);
    ctx.moveTo(x, hh * 0.55);
    ctx.lineTo(x, hh * 0.2);
  }
  ctx.stroke();
}

/** Scattered stones: [x, y, size] as fractions of the half box. */
const STONES: readonly (readonly [number, number, number])[] = [
  [-0.6, -0.3, 1], [-0.2, 0.35, 0.8], [0.15, -0.4, 1.1], [0.5, 0.2, 0.9], [-0.45, 0.45, 0.7], [0.7, -0.35, 0.7], [0.05, 0.05, 0.9], [-0.8, 0.05, 0.6],
];

function roughGround(ctx: Ctx, hw: number, hh: number): void {
  ctx.fillStyle = '#a3968a';
  ctx.strokeStyle = '#5e554c';
  ctx.lineWidth = 1.2;
  for (const [x, y, k] of STONES) {
    const r = Math.min(hw, hh) * 0.12 * k;
    ctx.beginPath();
    ctx.moveTo(x * hw - r, y * hh + r * 0.5);
    ctx.lineTo(x * hw - r * 0.4, y * hh - r);
    ctx.lineTo(x * hw + r * 0.8, y * hh - r * 0.6);
    ctx.lineTo(x * hw + r, y * hh + r * 0.6);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }
}

const CARD_ART: Readonly<Record<BattlefieldCard, CardArt>> = {
  hill,
  woods,
  marsh,
  river: watercourse('river'),
  stream: watercourse('stream'),
  pond,
  gully,
  roughGround,
  blank: () => undefined,
};

/** Draws one card's terrain in a w x h box centred at the origin, long side along x (w >= h). */
export function drawCardArt(ctx: Ctx, card: BattlefieldCard, w: number, h: number): void {
  CARD_ART[card](ctx, w / 2, h / 2);
}
