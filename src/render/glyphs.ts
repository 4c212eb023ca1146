import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Terrain } from '../engine/map/index.js';
import { INK } from './palette.js';
import type { Point } from './layout.js';
import { font } from './fonts.js';

/**
 * Small drawings shared by the map and its legend: terrain glyphs, feature symbols, river
 * crossing marks and token markers. Each takes a centre and a scale `s` (a hex radius in px).
 */
type Ctx = SKRSContext2D;

/** A small deterministic jitter per hex, so glyphs do not look stamped. */
export function jitter(q: number, r: number, k: number): number {
  let h = (Math.imul(q, 73856093) ^ Math.imul(r, 19349663) ^ Math.imul(k, 83492791)) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
  return ((h ^ (h >>> 15)) >>> 0) / 4294967296 - 0.5;
}

function tree(ctx: Ctx, x: number, y: number, s: number): void {
  const rr = 0.15 * s;
  ctx.strokeStyle = INK.trunk;
  ctx.lineWidth = Math.max(1, 0.045 * s);
  ctx.beginPath();
  ctx.moveTo(x, y + rr * 0.6);
  ctx.lineTo(x, y + rr * 1.7);
  ctx.stroke();
  ctx.fillStyle = INK.treeLight;
  ctx.strokeStyle = INK.tree;
  ctx.lineWidth = Math.max(1, 0.04 * s);
  ctx.beginPath();
  ctx.arc(x, y, rr, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
}

function hump(ctx: Ctx, x: number, y: number, s: number): void {
  const w = 0.28 * s;
  ctx.strokeStyle = INK.hill;
  ctx.lineWidth = Math.max(1.2, 0.06 * s);
  ctx.beginPath();
  ctx.moveTo(x - w, y);
  ctx.bezierCurveTo(x - w * 0.6, y - w * 1.05, x + w * 0.6, y - w * 1.05, x + w, y);
  ctx.stroke();
  // two short hachures under the crest
  ctx.lineWidth = Math.max(0.8, 0.035 * s);
  ctx.beginPath();
  ctx.moveTo(x - w * 0.15, y - w * 0.45);
  ctx.lineTo(x - w * 0.25, y - w * 0.1);
  ctx.moveTo(x + w * 0.25, y - w * 0.4);
  ctx.lineTo(x + w * 0.15, y - w * 0.05);
  ctx.stroke();
}

function peak(ctx: Ctx, x: number, y: number, s: number, k: number): void {
  const w = 0.27 * s * k;
  const h = 0.5 * s * k;
  ctx.fillStyle = INK.mountainShade;
  ctx.beginPath();
  ctx.moveTo(x, y - h);
  ctx.lineTo(x + w, y);
  ctx.lineTo(x, y);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = INK.snow;
  ctx.beginPath();
  ctx.moveTo(x, y - h);
  ctx.lineTo(x + w * 0.3, y - h * 0.7);
  ctx.lineTo(x, y - h * 0.62);
  ctx.lineTo(x - w * 0.3, y - h * 0.7);
  ctx.closePath();
  ctx.fill();
  ctx.strokeStyle = INK.mountain;
  ctx.lineWidth = Math.max(1.2, 0.055 * s);
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(x - w, y);
  ctx.lineTo(x, y - h);
  ctx.lineTo(x + w, y);
  ctx.stroke();
}

function tuft(ctx: Ctx, x: number, y: number, s: number): void {
  const h = 0.2 * s;
  ctx.strokeStyle = INK.swampWater;
  ctx.lineWidth = Math.max(1, 0.04 * s);
  ctx.beginPath();
  ctx.moveTo(x - h * 1.1, y + 1);
  ctx.lineTo(x + h * 1.1, y + 1);
  ctx.stroke();
  ctx.strokeStyle = INK.swamp;
  ctx.lineWidth = Math.max(1, 0.04 * s);
  ctx.beginPath();
  for (const dx of [-0.55, 0, 0.55]) {
    ctx.moveTo(x + dx * h * 0.4, y - 1);
    ctx.lineTo(x + dx * h, y - h * (dx === 0 ? 1 : 0.75));
  }
  ctx.stroke();
}

function ripple(ctx: Ctx, x: number, y: number, s: number, colour: string): void {
  const w = 0.16 * s;
  ctx.strokeStyle = colour;
  ctx.lineWidth = Math.max(1, 0.04 * s);
  ctx.beginPath();
  ctx.moveTo(x - w * 1.5, y);
  ctx.quadraticCurveTo(x - w * 0.75, y - w * 0.6, x, y);
  ctx.quadraticCurveTo(x + w * 0.75, y + w * 0.6, x + w * 1.5, y);
  ctx.stroke();
}

/**
 * The terrain glyph of one hex, centred on `c` (leaving the top of the hex free for its id).
 * `q`, `r` only seed the jitter.
 */
export function terrainGlyph(ctx: Ctx, t: Terrain, c: Point, s: number, q = 0, r = 0): void {
  const j = (k: number): number => jitter(q, r, k) * 0.12 * s;
  switch (t) {
    case 'forest':
      tree(ctx, c.x - 0.36 * s + j(1), c.y + 0.22 * s + j(2), s);
      tree(ctx, c.x + 0.34 * s + j(3), c.y + 0.2 * s + j(4), s);
      tree(ctx, c.x - 0.02 * s + j(5), c.y - 0.14 * s + j(6), s);
      tree(ctx, c.x + 0.02 * s + j(7), c.y + 0.5 * s, s * 0.85);
      break;
    case 'hill':
      hump(ctx, c.x - 0.26 * s + j(1), c.y + 0.28 * s + j(2), s);
      hump(ctx, c.x + 0.28 * s + j(3), c.y + 0.05 * s + j(4), s);
      break;
    case 'mountain':
      peak(ctx, c.x - 0.24 * s + j(1), c.y + 0.42 * s, s, 0.9);
      peak(ctx, c.x + 0.2 * s + j(2), c.y + 0.35 * s, s, 1.15);
      break;
    case 'swamp':
      tuft(ctx, c.x - 0.35 * s + j(1), c.y + 0.1 * s + j(2), s);
      tuft(ctx, c.x + 0.32 * s + j(3), c.y + 0.02 * s + j(4), s);
      tuft(ctx, c.x + j(5), c.y + 0.45 * s, s);
      break;
    case 'coast':
      ripple(ctx, c.x - 0.25 * s + j(1), c.y + 0.15 * s + j(2), s, INK.ripple);
      ripple(ctx, c.x + 0.22 * s + j(3), c.y + 0.45 * s + j(4), s, INK.ripple);
      break;
    case 'sea':
      ripple(ctx, c.x + j(1) * 2, c.y + 0.25 * s + j(2) * 2, s, INK.rippleSea);
      break;
    case 'clear':
      break;
  }
}

/** A town: a small block with a roof. */
export function townSymbol(ctx: Ctx, c: Point, s: number): void {
  const w = Math.max(6, 0.3 * s);
  ctx.fillStyle = INK.town;
  ctx.strokeStyle = INK.symbol;
  ctx.lineWidth = 1.2;
  ctx.beginPath();
  ctx.rect(c.x - w / 2, c.y - w / 2, w, w);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = '#f1e3c6';
  ctx.fillRect(c.x - w / 6, c.y, w / 3, w / 2);
}

/** The Citadel (three towers) or the Keep (one tower); `fort` is a small star fort. */
export function fortSymbol(ctx: Ctx, c: Point, s: number, kind: string): void {
  ctx.fillStyle = INK.fortStone;
  ctx.strokeStyle = '#231c16';
  ctx.lineWidth = 1.3;
  ctx.lineJoin = 'miter';
  if (kind === 'citadel') {
    const u = Math.max(3, 0.12 * s);
    const base = c.y + 2.2 * u;
    ctx.beginPath();
    // curtain wall with three towers, crenellated
    const towers = [-2.4, 0, 2.4];
    ctx.moveTo(c.x - 3.4 * u, base);
    ctx.lineTo(c.x - 3.4 * u, base - 2.4 * u);
    for (const tx of towers) {
      const h = tx === 0 ? 4.6 : 3.6;
      const left = c.x + (tx - 1) * u;
      const right = c.x + (tx + 1) * u;
      ctx.lineTo(left, base - 2.4 * u);
      ctx.lineTo(left, base - h * u);
      ctx.lineTo(left + 0.6 * u, base - h * u);
      ctx.lineTo(left + 0.6 * u, base - (h - 0.5) * u);
      ctx.lineTo(right - 0.6 * u, base - (h - 0.5) * u);
      ctx.lineTo(right - 0.6 * u, base - h * u);
      ctx.lineTo(right, base - h * u);
      ctx.lineTo(right, base - 2.4 * u);
    }
    ctx.lineTo(c.x + 3.4 * u, base - 2.4 * u);
    ctx.lineTo(c.x + 3.4 * u, base);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#231c16';
    ctx.beginPath();
    ctx.arc(c.x, base, 0.75 * u, Math.PI, 0);
    ctx.fill();
    return;
  }
  if (kind === 'keep') {
    const u = Math.max(3, 0.11 * s);
    const base = c.y + 2 * u;
    ctx.beginPath();
    ctx.moveTo(c.x - 1.6 * u, base);
    ctx.lineTo(c.x - 1.6 * u, base - 4 * u);
    ctx.lineTo(c.x - 0.9 * u, base - 4 * u);
    ctx.lineTo(c.x - 0.9 * u, base - 3.4 * u);
    ctx.lineTo(c.x - 0.35 * u, base - 3.4 * u);
    ctx.lineTo(c.x - 0.35 * u, base - 4 * u);
    ctx.lineTo(c.x + 0.35 * u, base - 4 * u);
    ctx.lineTo(c.x + 0.35 * u, base - 3.4 * u);
    ctx.lineTo(c.x + 0.9 * u, base - 3.4 * u);
    ctx.lineTo(c.x + 0.9 * u, base - 4 * u);
    ctx.lineTo(c.x + 1.6 * u, base - 4 * u);
    ctx.lineTo(c.x + 1.6 * u, base);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#231c16';
    ctx.fillRect(c.x - 0.3 * u, base - 2.6 * u, 0.6 * u, 0.9 * u);
    return;
  }
  const u = Math.max(4, 0.2 * s);
  ctx.beginPath();
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 === 0 ? u : u * 0.5;
    ctx.lineTo(c.x + rr * Math.cos(a), c.y + rr * Math.sin(a));
  }
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
}

/** A port: an anchor. */
export function portSymbol(ctx: Ctx, c: Point, s: number): void {
  const u = Math.max(4, 0.2 * s);
  ctx.strokeStyle = '#1d3f58';
  ctx.lineWidth = Math.max(1.4, 0.06 * s);
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.arc(c.x, c.y - u * 0.85, u * 0.22, 0, Math.PI * 2);
  ctx.moveTo(c.x, c.y - u * 0.63);
  ctx.lineTo(c.x, c.y + u);
  ctx.moveTo(c.x - u * 0.45, c.y - u * 0.35);
  ctx.lineTo(c.x + u * 0.45, c.y - u * 0.35);
  ctx.moveTo(c.x - u * 0.8, c.y + u * 0.35);
  ctx.quadraticCurveTo(c.x - u * 0.7, c.y + u, c.x, c.y + u);
  ctx.quadraticCurveTo(c.x + u * 0.7, c.y + u, c.x + u * 0.8, c.y + u * 0.35);
  ctx.stroke();
  ctx.lineCap = 'butt';
}

/**
 * Crossing marks drawn on a river at `c`, where the river flows along the unit vector `dir`.
 * `half` is half the river's drawn width.
 */
export function crossingMark(ctx: Ctx, kind: 'ford' | 'ferry' | 'bridge' | 'cataract', c: Point, dir: Point, half: number, s: number): void {
  const n = { x: -dir.y, y: dir.x };
  const off = half + Math.max(3, 0.12 * s);
  ctx.lineCap = 'round';
  if (kind === 'ferry') {
    ctx.fillStyle = INK.symbol;
    for (const k of [-1, 1]) {
      ctx.beginPath();
      ctx.arc(c.x + n.x * off * k, c.y + n.y * off * k, Math.max(2, 0.075 * s), 0, Math.PI * 2);
      ctx.fill();
    }
  } else if (kind === 'ford') {
    // two carets, one each side, pointing at the ford
    const a = Math.max(3, 0.13 * s);
    ctx.strokeStyle = INK.symbol;
    ctx.lineWidth = Math.max(1.4, 0.055 * s);
    ctx.lineJoin = 'miter';
    for (const k of [-1, 1]) {
      const tip = { x: c.x + n.x * off * k, y: c.y + n.y * off * k };
      const back = { x: tip.x + n.x * a * k, y: tip.y + n.y * a * k };
      ctx.beginPath();
      ctx.moveTo(back.x + dir.x * a * 0.8, back.y + dir.y * a * 0.8);
      ctx.lineTo(tip.x, tip.y);
      ctx.lineTo(back.x - dir.x * a * 0.8, back.y - dir.y * a * 0.8);
      ctx.stroke();
    }
  } else if (kind === 'bridge') {
    // an arc over the river: an arched deck (double line, like a road) from bank to bank
    const span = off + Math.max(2, 0.06 * s);
    const bulge = Math.max(2.5, 0.12 * s);
    const p0 = { x: c.x - n.x * span, y: c.y - n.y * span };
    const p1 = { x: c.x + n.x * span, y: c.y + n.y * span };
    const ctl = { x: c.x - dir.x * bulge, y: c.y - dir.y * bulge };
    const deck = Math.max(4.5, 0.2 * s);
    const arc = (): void => {
      ctx.beginPath();
      ctx.moveTo(p0.x, p0.y);
      ctx.quadraticCurveTo(ctl.x, ctl.y, p1.x, p1.y);
      ctx.stroke();
    };
    ctx.lineCap = 'butt';
    ctx.strokeStyle = INK.road;
    ctx.lineWidth = deck;
    arc();
    ctx.strokeStyle = INK.roadFill;
    ctx.lineWidth = deck - 2 * Math.max(1.2, 0.055 * s);
    arc();
    // abutments: short splayed wings at both ends
    ctx.strokeStyle = INK.road;
    ctx.lineWidth = Math.max(1.2, 0.055 * s);
    ctx.beginPath();
    for (const k of [-1, 1]) {
      const e = k < 0 ? p0 : p1;
      for (const j of [-1, 1]) {
        const side = { x: e.x + dir.x * (deck / 2) * j, y: e.y + dir.y * (deck / 2) * j };
        ctx.moveTo(side.x, side.y);
        ctx.lineTo(side.x + (n.x * k + dir.x * j) * deck * 0.45, side.y + (n.y * k + dir.y * j) * deck * 0.45);
      }
    }
    ctx.stroke();
  } else {
    // cataract: bars across the river
    const len = half + Math.max(3, 0.1 * s);
    const gap = Math.max(3, 0.12 * s);
    ctx.strokeStyle = '#18344a';
    ctx.lineWidth = Math.max(1.6, 0.06 * s);
    ctx.beginPath();
    for (const k of [-1, 0, 1]) {
      const m = { x: c.x + dir.x * gap * k, y: c.y + dir.y * gap * k };
      ctx.moveTo(m.x - n.x * len, m.y - n.y * len);
      ctx.lineTo(m.x + n.x * len, m.y + n.y * len);
    }
    ctx.stroke();
  }
  ctx.lineCap = 'butt';
}

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
