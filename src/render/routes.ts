import type { SKRSContext2D } from '@napi-rs/canvas';
import type { GameTime } from '../engine/clock/index.js';
import { formatHex, type Hex, hexKey, neighbours } from '../engine/hex/index.js';
import type { MapView, OrderedPath } from '../engine/views/index.js';
import { font, measure } from './fonts.js';
import { hexCentre, inLayout, type MapLayout, type Point, type Rect, showHexId } from './layout.js';
import { INK } from './palette.js';
import type { LabelRequest } from './placeLabels.js';
import { hexIdSpot, hexIdsFit } from './staticLayer.js';

/** A commander's ordered marches on their map: route lines, step dots, the hex ids along them, and the tags of each half period. */
type Ctx = SKRSContext2D;

/** The colour of a step's half period (morning, afternoon, evening, night). */
export function stepColour(t: GameTime): string {
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

/**
 * The ordered marches: each route's line, arrowhead and step dots, then the hex ids along every
 * route over them; returns the step tags to place, which keep off those ids.
 */
export function drawPaths(ctx: Ctx, layout: MapLayout, view: MapView, obstacles: Rect[], hexIds: 'all' | 'subset' | 'none'): LabelRequest[] {
  const s = layout.size;
  for (const path of view.paths) {
    const pts = routePoints(layout, path);
    if (pts.length < 2) continue;
    drawRouteLine(ctx, pts, s);
    drawArrowhead(ctx, pts, s);
    ctx.lineCap = 'butt';
    drawStepDots(ctx, path, pts, s, obstacles);
  }
  // The ids go over every route's line and dots; the tags keep off them.
  const routeIds = drawRouteIds(ctx, layout, view);
  obstacles.push(...routeIds);
  const printed = printedIds(ctx, layout, hexIds, new Set(view.paths.flatMap((p) => p.steps.map((st) => hexKey(st.hex)))));
  return view.paths.flatMap((path) => stepTags(ctx, layout, path, routeIds, printed));
}

/**
 * Where the map prints the ids of the hexes within two of a hex (the static layer's, off the
 * routes: those are drawn over them), for a step tag to keep off: a tag over "0903" hides where
 * a commander reads the sea or coast they sail along.
 */
function printedIds(ctx: Ctx, layout: MapLayout, mode: 'all' | 'subset' | 'none', onRoute: ReadonlySet<string>): (h: Hex) => Rect[] {
  if (mode === 'none') return () => [];
  const { px } = hexIdSpot(layout, { q: 0, r: 0 });
  const idFont = font(px, 'sans', { weight: 600 });
  // Ids of one map have one length and the font's digits one width (staticLayer.ts drawHexIds): one measure.
  let w: number | undefined;
  const rectOf = (h: Hex): Rect | undefined => {
    if (onRoute.has(hexKey(h)) || !inLayout(layout, h) || !showHexId(mode, h)) return undefined;
    w ??= measure(ctx, formatHex(h), idFont);
    if (!hexIdsFit(layout, px, w)) return undefined;
    const { at } = hexIdSpot(layout, h);
    return { x: at.x - w / 2, y: at.y - px / 2, w, h: px };
  };
  return (h) => {
    const near = new Map<string, Hex>([[hexKey(h), h]]);
    for (const n of neighbours(h)) {
      near.set(hexKey(n), n);
      for (const m of neighbours(n)) near.set(hexKey(m), m);
    }
    return [...near.values()].flatMap((x) => rectOf(x) ?? []);
  };
}

function routePoints(layout: MapLayout, path: OrderedPath): Point[] {
  return [path.from, ...path.steps.map((st) => st.hex)].map((h) => hexCentre(layout, h));
}

/** A pale casing under a dashed line. */
function drawRouteLine(ctx: Ctx, pts: readonly Point[], s: number): void {
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
}

/** The arrowhead at the destination, along the last step. */
function drawArrowhead(ctx: Ctx, pts: readonly Point[], s: number): void {
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
}

/** A dot on each step in its half period's colour; labels keep off the dots. */
function drawStepDots(ctx: Ctx, path: OrderedPath, pts: readonly Point[], s: number, obstacles: Rect[]): void {
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

/**
 * One tag per run of steps in the same half period, at the run's last step; the dots carry the
 * half's colour, so every step reads as belonging to its tag.
 */
function stepTags(ctx: Ctx, layout: MapLayout, path: OrderedPath, routeIds: readonly Rect[], printed: (h: Hex) => Rect[]): LabelRequest[] {
  const s = layout.size;
  const pts = routePoints(layout, path);
  if (pts.length < 2) return [];
  return path.steps.flatMap((st, i): LabelRequest[] => {
    const p = pts[i + 1] as Point;
    const dot = Math.max(4, 0.16 * s);
    const next = path.steps[i + 1];
    if ((next && next.label === st.label) || !inLayout(layout, st.hex)) return [];
    return [{
      id: `step:${path.armyId}:${i}`,
      w: measure(ctx, st.label, stepFont(s)) + 8,
      h: stepFontPx(s) + 5,
      anchor: p,
      gap: dot + 1,
      style: 'point',
      priority: 80,
      required: true,
      avoid: routeIds,
      shun: printed(st.hex),
    }];
  });
}

function stepFontPx(s: number): number {
  return Math.max(10.5, Math.min(13, 0.4 * s));
}

export function stepFont(s: number): string {
  return font(stepFontPx(s), 'sans', { weight: 600 });
}
