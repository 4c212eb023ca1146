import type { SKRSContext2D } from '@napi-rs/canvas';
import type { GameTime } from '../engine/clock/index.js';
import { formatHex, hexKey } from '../engine/hex/index.js';
import type { MapToken, MapView } from '../engine/views/index.js';
import { font } from './fonts.js';
import { markerBadge, type MarkerKind } from './glyphs.js';
import { drawRememberedRing, isRemembered, knowledgeAlpha, seenLine } from './knowledgeMarks.js';
import { hexCentre, inLayout, placeLabels, type LabelRequest, type MapLayout, type Point, type Rect } from './layout.js';
import { INK } from './palette.js';
import { hexIdSpot, type StaticLayer } from './staticLayer.js';

type Ctx = SKRSContext2D;

export interface TitleText {
  readonly campaign: string;
  readonly time: string;
  readonly weather: string;
}

/** Geometry of tokens at a given hex size. */
export function tokenRadius(size: number): number {
  return Math.max(11.5, 0.42 * size);
}

function badgeRadius(size: number): number {
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
    byHex.set(k, [...(byHex.get(k) ?? []), t]);
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

function initials(label: string): string {
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

function drawToken(ctx: Ctx, t: MapToken, p: Point, size: number): void {
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
  ctx.fillText(initials(t.label), p.x, p.y + r * 0.04);
  const br = badgeRadius(size);
  for (const m of markersOf(t)) {
    const a = (MARKER_ANGLES[m] * Math.PI) / 180;
    markerBadge(ctx, m, { x: p.x + Math.cos(a) * (r + br * 0.45), y: p.y + Math.sin(a) * (r + br * 0.45) }, br);
  }
  ctx.restore();
}

function stepColour(t: GameTime): string {
  return ['#d98c1a', '#b8571b', '#5b5bb0', '#2d2d6e'][t.half] ?? INK.path;
}

/**
 * The hex ids along the ordered routes, drawn over the route (with a halo) whether or not the map
 * prints them, so a commander reads the route hex by hex; returns where they are, which the
 * routes' tags must not cover.
 */
function drawRouteIds(ctx: Ctx, layout: MapLayout, view: MapView): Rect[] {
  const rects: Rect[] = [];
  const seen = new Set<string>();
  for (const path of view.paths) {
    for (const h of path.steps.map((st) => st.hex)) {
      const key = hexKey(h);
      if (seen.has(key) || !inLayout(layout, h)) continue;
      seen.add(key);
      const { at, px } = hexIdSpot(layout, h);
      const id = formatHex(h);
      ctx.font = font(px, 'sans', { weight: 700 });
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const w = ctx.measureText(id).width;
      ctx.lineJoin = 'round';
      ctx.strokeStyle = 'rgba(255, 250, 235, 0.95)';
      ctx.lineWidth = 3.5;
      ctx.strokeText(id, at.x, at.y);
      ctx.fillStyle = INK.path;
      ctx.fillText(id, at.x, at.y);
      rects.push({ x: at.x - w / 2 - 2, y: at.y - px / 2 - 2, w: w + 4, h: px + 4 });
    }
  }
  return rects;
}

function drawPaths(ctx: Ctx, layout: MapLayout, view: MapView, obstacles: Rect[]): LabelRequest[] {
  const s = layout.size;
  const requests: LabelRequest[] = [];
  const routeIds: Rect[] = [];
  for (const path of view.paths) {
    const pts = [path.from, ...path.steps.map((st) => st.hex)].map((h) => hexCentre(layout, h));
    if (pts.length < 2) continue;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = 'rgba(255, 250, 235, 0.85)';
    ctx.lineWidth = Math.max(5, 0.2 * s);
    ctx.beginPath();
    pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
    ctx.stroke();
    ctx.strokeStyle = INK.path;
    ctx.lineWidth = Math.max(2.2, 0.09 * s);
    ctx.setLineDash([Math.max(6, 0.25 * s), Math.max(4, 0.15 * s)]);
    ctx.beginPath();
    pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
    ctx.stroke();
    ctx.setLineDash([]);
    // arrowhead at the destination
    const b = pts[pts.length - 1] as Point;
    const a = pts[pts.length - 2] as Point;
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    const tip = { x: b.x - ux * Math.max(4, 0.16 * s), y: b.y - uy * Math.max(4, 0.16 * s) };
    const ah = Math.max(9, 0.38 * s);
    ctx.fillStyle = INK.path;
    ctx.beginPath();
    ctx.moveTo(tip.x, tip.y);
    ctx.lineTo(tip.x - ux * ah - uy * ah * 0.5, tip.y - uy * ah + ux * ah * 0.5);
    ctx.lineTo(tip.x - ux * ah + uy * ah * 0.5, tip.y - uy * ah - ux * ah * 0.5);
    ctx.closePath();
    ctx.fill();
    ctx.lineCap = 'butt';
    path.steps.forEach((st, i) => {
      const p = pts[i + 1] as Point;
      const dot = Math.max(4, 0.16 * s);
      ctx.fillStyle = stepColour(st.time);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(p.x, p.y, dot, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
      obstacles.push({ x: p.x - dot, y: p.y - dot, w: 2 * dot, h: 2 * dot });
    });
  }
  // The ids go over every route's line and dots; the tags keep off them.
  routeIds.push(...drawRouteIds(ctx, layout, view));
  obstacles.push(...routeIds);
  for (const path of view.paths) {
    const pts = [path.from, ...path.steps.map((st) => st.hex)].map((h) => hexCentre(layout, h));
    if (pts.length < 2) continue;
    path.steps.forEach((st, i) => {
      const p = pts[i + 1] as Point;
      const dot = Math.max(4, 0.16 * s);
      // One tag per run of steps in the same half period, at the run's last step; the dots carry
      // the half's colour, so every step reads as belonging to its tag.
      const next = path.steps[i + 1];
      if ((next && next.label === st.label) || !inLayout(layout, st.hex)) return;
      requests.push({
        id: `step:${path.armyId}:${i}`,
        w: measure(ctx, st.label, stepFont(s)) + 8,
        h: stepFontPx(s) + 5,
        anchor: p,
        gap: dot + 1,
        style: 'point',
        priority: 80,
        required: true,
        avoid: routeIds,
      });
    });
  }
  return requests;
}

function stepFontPx(s: number): number {
  return Math.max(10.5, Math.min(13, 0.4 * s));
}

function stepFont(s: number): string {
  return font(stepFontPx(s), 'sans', { weight: 600 });
}

function tokenFontPx(s: number): number {
  return Math.max(11.5, Math.min(16, 0.46 * s));
}

function placeFontPx(s: number): number {
  return Math.max(15.5, Math.min(21, 0.56 * s));
}

function measure(ctx: Ctx, text: string, f: string): number {
  ctx.font = f;
  return ctx.measureText(text).width;
}

function roundRect(ctx: Ctx, r: Rect, rad: number): void {
  ctx.beginPath();
  ctx.moveTo(r.x + rad, r.y);
  ctx.arcTo(r.x + r.w, r.y, r.x + r.w, r.y + r.h, rad);
  ctx.arcTo(r.x + r.w, r.y + r.h, r.x, r.y + r.h, rad);
  ctx.arcTo(r.x, r.y + r.h, r.x, r.y, rad);
  ctx.arcTo(r.x, r.y, r.x + r.w, r.y, rad);
  ctx.closePath();
}

function spaced(text: string): string {
  return text.toUpperCase().split('').join('\u200a');
}

function drawTitle(ctx: Ctx, layout: MapLayout, view: MapView, title: TitleText): void {
  const t = layout.title;
  ctx.fillStyle = INK.titleBand;
  ctx.fillRect(t.x, t.y, t.w, t.h);
  ctx.fillStyle = INK.own;
  ctx.fillRect(t.x, t.y + t.h - 3, t.w, 3);
  const mid = t.y + t.h / 2 - 1;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.fillStyle = INK.titleText;
  ctx.font = font(29, 'serif', { weight: 700 });
  const nameMax = t.w * 0.4;
  ctx.fillText(title.campaign, t.x + 18, mid, nameMax);
  let x = t.x + 18 + Math.min(nameMax, ctx.measureText(title.campaign).width) + 18;
  if (view.kind === 'commander') {
    const who = view.tokens.filter((k) => k.own).map((k) => k.label).join(', ');
    const text = `PRIVATE${who ? ` \u00b7 ${who}` : ''}`;
    ctx.font = font(13, 'sans', { weight: 700 });
    const w = ctx.measureText(text).width + 16;
    ctx.fillStyle = '#8e2a22';
    roundRect(ctx, { x, y: mid - 11, w, h: 22 }, 4);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.fillText(text, x + 8, mid + 0.5);
    x += w + 12;
  }
  ctx.textAlign = 'right';
  ctx.fillStyle = INK.titleDim;
  ctx.font = font(17, 'sans');
  const weather = title.weather;
  // the time and weather share what the name (and badge) leave, weather squeezed first
  const room = t.x + t.w - 18 - x;
  const weatherMax = Math.max(60, room * 0.5);
  ctx.fillText(weather, t.x + t.w - 18, mid, weatherMax);
  const ww = Math.min(weatherMax, ctx.measureText(weather).width);
  ctx.fillStyle = INK.titleText;
  ctx.font = font(23, 'serif', { weight: 600 });
  ctx.fillText(title.time, t.x + t.w - 18 - ww - 26, mid, Math.max(60, room - ww - 26));
}

function drawSides(ctx: Ctx, layout: MapLayout, view: MapView): void {
  const seen = new Map<string, { name: string; colour: string }>();
  for (const t of view.tokens) if (!seen.has(t.sideId)) seen.set(t.sideId, { name: t.sideName, colour: t.colour });
  const r = layout.legend;
  let x = r.x + r.w - 16;
  const y = r.y + r.h - 16;
  ctx.font = font(12.5, 'sans', { weight: 600 });
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  for (const side of [...seen.values()].reverse()) {
    ctx.fillStyle = INK.label;
    ctx.fillText(side.name, x, y);
    x -= ctx.measureText(side.name).width + 8;
    ctx.fillStyle = side.colour;
    ctx.beginPath();
    ctx.arc(x - 6, y, 6.5, 0, Math.PI * 2);
    ctx.fill();
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 1.5;
    ctx.stroke();
    x -= 28;
  }
}

interface LabelDraw {
  readonly lines: readonly { text: string; font: string; colour: string }[];
  readonly kind: 'token' | 'own' | 'step' | 'place' | 'region' | 'water' | 'courier';
  readonly border?: string;
}

/** Draws the picture's changing parts over a copy of the static layer. */
export function drawOverlay(ctx: Ctx, layer: StaticLayer, view: MapView, opts: { labels: boolean; title: TitleText }): void {
  const layout = layer.layout;
  const s = layout.size;
  drawTitle(ctx, layout, view, opts.title);
  drawSides(ctx, layout, view);
  const m = layout.map;
  ctx.save();
  ctx.beginPath();
  ctx.rect(m.x - 1, m.y - 1, m.w + 2, m.h + 2);
  ctx.clip();

  const obstacles: Rect[] = [...layer.obstacles];
  const requests: LabelRequest[] = [];
  const draws = new Map<string, LabelDraw>();
  for (const r of drawPaths(ctx, layout, view, obstacles)) {
    requests.push(r);
    const step = view.paths.find((p) => r.id.startsWith(`step:${p.armyId}:`));
    const i = Number(r.id.slice(r.id.lastIndexOf(':') + 1));
    const st = step?.steps[i];
    if (st) draws.set(r.id, { kind: 'step', lines: [{ text: st.label, font: stepFont(s), colour: '#ffffff' }], border: stepColour(st.time) });
  }

  for (const c of view.couriers) {
    if (!inLayout(layout, c.hex)) continue;
    const p = hexCentre(layout, c.hex);
    const q = { x: p.x + 0.45 * s, y: p.y - 0.35 * s };
    const w = Math.max(12, 0.45 * s);
    const h = w * 0.66;
    ctx.fillStyle = '#fffdf5';
    ctx.strokeStyle = c.colour;
    ctx.lineWidth = 2;
    ctx.fillRect(q.x - w / 2, q.y - h / 2, w, h);
    ctx.strokeRect(q.x - w / 2, q.y - h / 2, w, h);
    ctx.beginPath();
    ctx.moveTo(q.x - w / 2, q.y - h / 2);
    ctx.lineTo(q.x, q.y + h * 0.1);
    ctx.lineTo(q.x + w / 2, q.y - h / 2);
    ctx.stroke();
    obstacles.push({ x: q.x - w / 2 - 1, y: q.y - h / 2 - 1, w: w + 2, h: h + 2 });
    const f = font(Math.max(10, tokenFontPx(s) - 2), 'sans', { italic: true });
    const text = `courier to ${c.toLabel}`;
    const id = `courier:${c.id}`;
    requests.push({ id, w: measure(ctx, text, f) + 8, h: tokenFontPx(s) + 3, anchor: q, gap: w / 2 + 1, style: 'point', priority: 60, required: true });
    draws.set(id, { kind: 'courier', lines: [{ text, font: f, colour: INK.label }] });
  }

  const positions = tokenPositions(layout, view.tokens);
  const ordered = [...view.tokens].sort((a, b) => Number(a.own ?? false) - Number(b.own ?? false));
  for (const t of ordered) {
    const p = positions.get(t.armyId);
    if (p) obstacles.push(tokenBox(p, s));
  }
  for (const t of ordered) {
    const p = positions.get(t.armyId);
    if (!p) continue;
    drawToken(ctx, t, p, s);
    const fpx = tokenFontPx(s);
    const main = t.own && t.strengthPct !== undefined ? `${t.label}  ${t.strengthPct}%` : t.label;
    const lines: { text: string; font: string; colour: string }[] = [{ text: main, font: font(fpx, 'sans', { weight: 600 }), colour: INK.label }];
    if (t.estimate) lines.push({ text: t.estimate, font: font(fpx - 1, 'sans', { italic: true }), colour: '#5a3b1c' });
    const seen = seenLine(t, fpx);
    if (seen) lines.push(seen);
    const w = Math.max(...lines.map((l) => measure(ctx, l.text, l.font))) + 10;
    const id = `token:${t.armyId}`;
    requests.push({ id, w, h: lines.length * (fpx + 3) + 4, anchor: p, gap: tokenRadius(s) + 3, style: 'point', priority: t.own ? 110 : 100, required: true });
    draws.set(id, { kind: t.own ? 'own' : 'token', lines, border: t.colour });
  }

  if (opts.labels) {
    for (const l of layer.labels) {
      const px = l.kind === 'region' ? placeFontPx(s) + 3 : l.kind === 'water' ? placeFontPx(s) : placeFontPx(s) - 1;
      const f = l.kind === 'place'
        ? font(px, 'serif', { weight: 600 })
        : font(px, 'serif', { italic: true, weight: l.kind === 'region' ? 600 : 400 });
      const text = l.kind === 'region' ? spaced(l.text) : l.text;
      requests.push({
        id: l.id,
        w: measure(ctx, text, f) + 6,
        h: px + 2,
        anchor: l.anchor,
        gap: l.gap,
        style: l.kind === 'place' ? 'point' : 'area',
        priority: l.kind === 'place' ? 50 : 10,
        required: l.kind === 'place',
        ...(l.kind === 'place' ? {} : { padX: px * 1.5 }),
      });
      draws.set(l.id, { kind: l.kind, lines: [{ text, font: f, colour: l.kind === 'place' ? INK.label : l.kind === 'water' ? INK.waterLabel : INK.regionLabel }] });
    }
  }

  const placed = placeLabels(requests, obstacles, { x: m.x + 2, y: m.y + 2, w: m.w - 4, h: m.h - 4 });
  // Region and water names first, so everything else reads on top of them.
  const rank = (k: LabelDraw['kind']): number => (k === 'region' || k === 'water' ? 0 : k === 'place' ? 1 : 2);
  const sorted = placed
    .map((pl) => ({ pl, d: draws.get(pl.id) }))
    .filter((x): x is { pl: (typeof placed)[number]; d: LabelDraw } => x.d !== undefined)
    .sort((a, b) => rank(a.d.kind) - rank(b.d.kind));
  for (const { pl, d } of sorted) drawLabel(ctx, pl.rect, d);
  ctx.restore();
}

function drawLabel(ctx: Ctx, r: Rect, d: LabelDraw): void {
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const cx = r.x + r.w / 2;
  if (d.kind === 'token' || d.kind === 'own') {
    ctx.fillStyle = 'rgba(255, 253, 246, 0.93)';
    roundRect(ctx, r, 3);
    ctx.fill();
    ctx.strokeStyle = d.kind === 'own' ? INK.own : (d.border ?? INK.symbol);
    ctx.lineWidth = d.kind === 'own' ? 2.5 : 1.5;
    ctx.stroke();
    const lh = (r.h - 4) / d.lines.length;
    d.lines.forEach((l, i) => {
      ctx.font = l.font;
      ctx.fillStyle = l.colour;
      ctx.fillText(l.text, cx, r.y + 2 + lh * (i + 0.5) + 0.5);
    });
    return;
  }
  if (d.kind === 'step') {
    ctx.fillStyle = d.border ?? INK.path;
    roundRect(ctx, r, 3);
    ctx.fill();
    const l = d.lines[0];
    if (l) {
      ctx.font = l.font;
      ctx.fillStyle = l.colour;
      ctx.fillText(l.text, cx, r.y + r.h / 2 + 0.5);
    }
    return;
  }
  for (const l of d.lines) {
    ctx.font = l.font;
    ctx.lineJoin = 'round';
    ctx.strokeStyle = INK.labelHalo;
    ctx.lineWidth = d.kind === 'region' ? 3 : 3.5;
    ctx.strokeText(l.text, cx, r.y + r.h / 2 + 0.5);
    ctx.fillStyle = l.colour;
    ctx.fillText(l.text, cx, r.y + r.h / 2 + 0.5);
  }
}
