import type { SKRSContext2D } from '@napi-rs/canvas';
import { hexKey } from '../engine/hex/index.js';
import type { MapToken } from '../engine/views/index.js';
import { font } from './fonts.js';
import { markerBadge, type MarkerKind } from './markerBadge.js';
import { drawRememberedRing, isRemembered, knowledgeAlpha } from './knowledgeMarks.js';
import { hexCentre, inLayout, type MapLayout, type Point, type Rect } from './layout.js';
import { INK } from './palette.js';

/** Army tokens on the map: where each stands, the box it covers, and how it is drawn. */
type Ctx = SKRSContext2D;

/** Geometry of tokens at a given hex size. */
export function tokenRadius(size: number): number {
  return Math.max(11.5, 0.42 * size);
}

export function badgeRadius(size: number): number {
  return Math.max(6.3, 0.2 * size);
}

const MARKER_ANGLES: Readonly<Record<MarkerKind, number>> = {
  contact: -135,
  battle: -45,
  fatigued: 45,
  unformed: 135,
  embarked: 180,
};

function markersOf(t: MapToken): MarkerKind[] {
  const out: MarkerKind[] = [];
  if (t.flags.inContact) out.push('contact');
  if (t.flags.inBattle) out.push('battle');
  if (t.flags.unformed) out.push('unformed');
  if (t.flags.fatigued) out.push('fatigued');
  if (t.flags.embarked) out.push('embarked');
  return out;
}

/** Where each token is drawn: its hex centre, or side by side when several share a hex. */
export function tokenPositions(layout: MapLayout, tokens: readonly MapToken[]): Map<string, Point> {
  const byHex = new Map<string, MapToken[]>();
  for (const t of tokens) {
    if (!inLayout(layout, t.hex)) continue;
    const k = hexKey(t.hex);
    const group = byHex.get(k);
    if (group) group.push(t);
    else byHex.set(k, [t]);
  }
  const out = new Map<string, Point>();
  for (const group of byHex.values()) {
    const first = group[0];
    if (!first) continue;
    const c = hexCentre(layout, first.hex);
    const step = Math.min(tokenRadius(layout.size) * 1.5, (layout.size * 1.4) / group.length);
    group.forEach((t, i) => out.set(t.armyId, { x: c.x + (i - (group.length - 1) / 2) * step, y: c.y }));
  }
  return out;
}

/** The pixel box a token (with its markers) covers: what labels must keep clear of. */
export function tokenBox(p: Point, size: number): Rect {
  const r = tokenRadius(size) + badgeRadius(size) * 1.1;
  return { x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r };
}

/** The letters on a token's disc: the first letters of the label's first two words (or a one-word label's first two letters). */
export function tokenInitials(label: string): string {
  const words = label.trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return ((words[0]?.[0] ?? '') + (words[1]?.[0] ?? '')).toUpperCase();
  const w = words[0] ?? '?';
  return (w[0] ?? '?').toUpperCase() + (w[1] ?? '').toLowerCase();
}

function darken(hex: string, k: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const f = (v: number): number => Math.max(0, Math.min(255, Math.round(v * k)));
  return `rgb(${f((n >> 16) & 255)}, ${f((n >> 8) & 255)}, ${f(n & 255)})`;
}

/** A token: the rings of own, contact and battle, the disc with its initials, and its marker badges; faded when remembered (fog). */
export function drawToken(ctx: Ctx, t: MapToken, p: Point, size: number): void {
  const r = tokenRadius(size);
  // Fog of war: a token known from an old sighting is faded and ringed (knowledgeMarks.ts).
  ctx.save();
  ctx.globalAlpha = knowledgeAlpha(t);
  if (isRemembered(t)) drawRememberedRing(ctx, p, r);
  if (t.own) {
    ctx.fillStyle = 'rgba(242, 194, 48, 0.35)';
    ctx.beginPath();
    ctx.arc(p.x, p.y, r + 8.5, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = INK.own;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(p.x, p.y, r + 6, 0, Math.PI * 2);
    ctx.stroke();
  }
  // contact and battle also ring the token, so they read at the whole-map scale
  if (t.flags.inBattle || t.flags.inContact) {
    ctx.strokeStyle = t.flags.inBattle ? INK.battle : INK.contact;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(p.x, p.y, r + 2.8, 0, Math.PI * 2);
    ctx.stroke();
  }
  // soft shadow
  ctx.fillStyle = 'rgba(0, 0, 0, 0.25)';
  ctx.beginPath();
  ctx.arc(p.x + 1.2, p.y + 1.8, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = t.colour;
  ctx.beginPath();
  ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = Math.max(1.8, 0.08 * size);
  ctx.stroke();
  ctx.strokeStyle = darken(t.colour, 0.55);
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.arc(p.x, p.y, r + Math.max(0.9, 0.04 * size), 0, Math.PI * 2);
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.font = font(Math.max(9, r * 0.95), 'sans', { weight: 700 });
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(tokenInitials(t.label), p.x, p.y + r * 0.04);
  const br = badgeRadius(size);
  for (const m of markersOf(t)) {
    const a = (MARKER_ANGLES[m] * Math.PI) / 180;
    markerBadge(ctx, m, { x: p.x + Math.cos(a) * (r + br * 0.45), y: p.y + Math.sin(a) * (r + br * 0.45) }, br);
  }
  ctx.restore();
}
