import { createCanvas, type Canvas, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import { DIRECTIONS, type Hex, hexKey, neighbour } from '../engine/hex/index.js';
import { isWater, type MapModel, type Terrain } from '../engine/map/index.js';
import { font } from './fonts.js';
import { fortSymbol, jitter, portSymbol, terrainGlyph, townSymbol } from './glyphs.js';
import {
  edgeCorners, edgeNumbers, hexCentre, hexCorners, inLayout, layoutHexes, showHexId,
  type MapLayout, type Point, type Rect,
} from './layout.js';
import { drawLegend, type ViewKind } from './legend.js';
import { drawChannels, drawCrossings, drawRivers, drawRoads, drawTracks } from './mapLines.js';
import { INK, TERRAIN_FILL } from './palette.js';

type Ctx = SKRSContext2D;

/** A label the static map wants placed; placement happens per snapshot, around the tokens. */
export interface StaticLabel {
  readonly id: string;
  readonly text: string;
  readonly kind: 'place' | 'region' | 'water';
  readonly anchor: Point;
  /** Room kept around the anchor (the symbol's radius); 0 for area labels. */
  readonly gap: number;
}

export interface StaticLayer {
  /** The layer's pixels: the layout drawn `scale` times larger (pixelSize): drawn here (buildStaticLayer), or read from its file (layerFile.ts). */
  readonly canvas: Canvas | Image;
  readonly layout: MapLayout;
  /** Pixels per layout pixel. */
  readonly scale: number;
  readonly labels: readonly StaticLabel[];
  /** Symbols labels must not cover. */
  readonly obstacles: readonly Rect[];
  /** Which hexes carry their id in this layer. */
  readonly hexIds: 'all' | 'subset' | 'none';
}

function hexPath(ctx: Ctx, c: Point, size: number): void {
  const pts = hexCorners(c, size);
  ctx.beginPath();
  pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  ctx.closePath();
}

function drawTerrain(ctx: Ctx, map: MapModel, layout: MapLayout, hexes: readonly Hex[]): void {
  const s = layout.size;
  // Fills first (slightly oversized so no hairline gaps show between hexes), then glyphs.
  for (const h of hexes) {
    const t = map.terrainAt(h) ?? 'clear';
    ctx.fillStyle = TERRAIN_FILL[t];
    hexPath(ctx, hexCentre(layout, h), s + 0.5);
    ctx.fill();
  }
  for (const h of hexes) {
    if (!map.isMudflat(h)) continue;
    const c = hexCentre(layout, h);
    ctx.fillStyle = INK.mudflat;
    for (let i = 0; i < 14; i++) {
      const a = jitter(h.q, h.r, 40 + i) * Math.PI * 2;
      const d = (0.25 + Math.abs(jitter(h.q, h.r, 80 + i)) * 1.2) * s * 0.75;
      ctx.beginPath();
      ctx.arc(c.x + Math.cos(a) * d, c.y + 0.1 * s + Math.sin(a) * d * 0.8, Math.max(0.9, 0.035 * s), 0, Math.PI * 2);
      ctx.fill();
    }
  }
  for (const h of hexes) {
    const t: Terrain = map.terrainAt(h) ?? 'clear';
    if (t === 'coast' && map.isMudflat(h)) continue;
    terrainGlyph(ctx, t, hexCentre(layout, h), s, h.q, h.r);
  }
  // grid
  ctx.strokeStyle = INK.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const h of hexes) {
    const pts = hexCorners(hexCentre(layout, h), s);
    // each hex draws its three upper/left edges; neighbours draw the others
    const p3 = pts[3] as Point;
    const p4 = pts[4] as Point;
    const p5 = pts[5] as Point;
    const p0 = pts[0] as Point;
    const p2 = pts[2] as Point;
    ctx.moveTo(p2.x, p2.y);
    ctx.lineTo(p3.x, p3.y);
    ctx.lineTo(p4.x, p4.y);
    ctx.lineTo(p5.x, p5.y);
    ctx.lineTo(p0.x, p0.y);
  }
  ctx.stroke();
  // outer edges of the last row / column are drawn by the frame
  // coastline: every edge between land and water
  ctx.strokeStyle = INK.coastline;
  ctx.lineWidth = Math.max(1.4, 0.07 * s);
  ctx.lineCap = 'round';
  ctx.beginPath();
  for (const h of hexes) {
    if (isWater(map.terrainAt(h))) continue;
    const c = hexCentre(layout, h);
    for (const d of DIRECTIONS) {
      const n = neighbour(h, d);
      if (!map.inBounds(n) || !isWater(map.terrainAt(n))) continue;
      const [a, b] = edgeCorners(c, s, d);
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
    }
  }
  ctx.stroke();
  ctx.lineCap = 'butt';
}

interface Symbols {
  readonly labels: StaticLabel[];
  readonly obstacles: Rect[];
}

function drawSymbols(ctx: Ctx, map: MapModel, layout: MapLayout): Symbols {
  const s = layout.size;
  const labels: StaticLabel[] = [];
  const obstacles: Rect[] = [];
  const names = new Set<string>();
  const visible = (id: string): Hex | undefined => {
    const h = map.parse(id);
    return h && inLayout(layout, h) ? h : undefined;
  };
  const symbolRadius = Math.max(7, 0.34 * s);
  const add = (h: Hex, name: string, r: number): void => {
    const c = hexCentre(layout, h);
    obstacles.push({ x: c.x - r, y: c.y - r, w: 2 * r, h: 2 * r });
    if (names.has(name.toLowerCase())) return;
    names.add(name.toLowerCase());
    labels.push({ id: `place:${hexKey(h)}:${name}`, text: name, kind: 'place', anchor: c, gap: r + 2 });
  };
  for (const p of map.data.ports) {
    const h = visible(p.hex);
    if (!h) continue;
    const c = hexCentre(layout, h);
    const hasOther = map.townAt(h) !== undefined || map.fortificationAt(h) !== undefined;
    // a port that is also a town shows its anchor beside the town
    portSymbol(ctx, hasOther ? { x: c.x + 0.45 * s, y: c.y - 0.1 * s } : c, s);
    add(h, p.name, symbolRadius);
  }
  for (const t of map.data.towns) {
    const h = visible(t.hex);
    if (!h) continue;
    townSymbol(ctx, hexCentre(layout, h), s);
    add(h, t.name, symbolRadius);
  }
  for (const f of map.data.fortifications) {
    const h = visible(f.hex);
    if (!h) continue;
    fortSymbol(ctx, hexCentre(layout, h), s, f.kind);
    add(h, f.name, f.kind === 'citadel' ? Math.max(10, 0.48 * s) : symbolRadius);
  }
  for (const l of map.data.labels) {
    const h = visible(l.hex);
    if (!h) continue;
    const c = hexCentre(layout, h);
    if (l.kind === 'place') {
      // a place label repeating a town, port or fortification name (here or next door) is dropped
      if (names.has(l.text.toLowerCase())) continue;
      names.add(l.text.toLowerCase());
      labels.push({ id: `label:${hexKey(h)}:${l.text}`, text: l.text, kind: 'place', anchor: c, gap: 4 });
    } else {
      labels.push({ id: `label:${hexKey(h)}:${l.text}`, text: l.text, kind: l.kind, anchor: c, gap: 0 });
    }
  }
  return { labels, obstacles };
}

/** Where a hex's id is printed: its centre, its font size (the text is centred there). */
export function hexIdSpot(layout: Pick<MapLayout, 'size' | 'originX' | 'originY'>, h: Hex): { at: Point; px: number } {
  const c = hexCentre(layout, h);
  return { at: { x: c.x, y: c.y - 0.64 * layout.size }, px: Math.max(8.5, Math.min(13, 0.34 * layout.size)) };
}

/**
 * Whether ids fit between their neighbours: ids of one row stand two columns (3 sizes) apart in
 * either mode, and need a gap of half their height between them to read as separate numbers. On a
 * big map drawn small (100 columns in 1,600 px) six-digit ids would run into one line of digits:
 * noise that also costs encode time; the edge numbers still give every column and row.
 */
export function hexIdsFit(layout: Pick<MapLayout, 'size'>, px: number, widestId: number): boolean {
  return widestId + 0.5 * px <= 3 * layout.size;
}

function drawHexIds(ctx: Ctx, map: MapModel, layout: MapLayout, hexes: readonly Hex[], mode: 'all' | 'subset' | 'none'): void {
  if (mode === 'none') return;
  const s = layout.size;
  const px = hexIdSpot(layout, { q: 0, r: 0 }).px;
  ctx.font = font(px, 'sans', { weight: 600 });
  // Ids of one map have one length and the font's digits one width: the first and last tell.
  const widest = [hexes[0], hexes[hexes.length - 1]].reduce((w, h) => (h ? Math.max(w, ctx.measureText(map.format(h)).width) : w), 0);
  if (!hexIdsFit(layout, px, widest)) return;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const h of hexes) {
    if (!showHexId(mode, h)) continue;
    const c = hexCentre(layout, h);
    const t = map.terrainAt(h) ?? 'clear';
    const id = map.format(h);
    const y = c.y - 0.64 * s;
    // a halo only where a river may run under the id (a halo everywhere costs encode time)
    if (map.riverAt(h)) {
      ctx.strokeStyle = TERRAIN_FILL[t];
      ctx.lineWidth = 3;
      ctx.lineJoin = 'round';
      ctx.strokeText(id, c.x, y);
    }
    ctx.fillStyle = isWater(t) ? 'rgba(25, 62, 88, 0.62)' : INK.hexId;
    ctx.fillText(id, c.x, y);
  }
}

/** Column numbers along the top and bottom, row numbers along the sides. */
function drawEdgeNumbers(ctx: Ctx, layout: MapLayout): void {
  ctx.font = font(Math.max(10, Math.min(13, 0.36 * layout.size)), 'sans', { weight: 600 });
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = INK.hexId;
  for (const n of edgeNumbers(layout)) ctx.fillText(n.text, n.at.x, n.at.y);
}

/** A picture's size in pixels: its layout's size times its scale, rounded up. */
export function pixelSize(layout: Pick<MapLayout, 'width' | 'height'>, scale: number): { width: number; height: number } {
  return { width: Math.ceil(layout.width * scale), height: Math.ceil(layout.height * scale) };
}

/** Draws everything that does not change from tick to tick (at `scale` pixels per layout pixel). */
export function buildStaticLayer(map: MapModel, layout: MapLayout, opts: { hexIds: 'all' | 'subset' | 'none'; kind: ViewKind; scale?: number }): StaticLayer & { readonly canvas: Canvas } {
  const scale = opts.scale ?? 1;
  const px = pixelSize(layout, scale);
  const canvas = createCanvas(px.width, px.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = INK.paper;
  ctx.fillRect(0, 0, px.width, px.height);
  ctx.scale(scale, scale);
  // One extra ring of hexes (clipped) fills the jagged edges of a zoomed block.
  const hexes = layoutHexes({ colMin: layout.colMin - 1, colMax: layout.colMax + 1, rowMin: layout.rowMin - 1, rowMax: layout.rowMax + 1 })
    .filter((h) => map.inBounds(h));
  const idHexes = hexes.filter((h) => inLayout(layout, h));
  const m = layout.map;
  ctx.save();
  ctx.beginPath();
  ctx.rect(m.x - 1, m.y - 1, m.w + 2, m.h + 2);
  ctx.clip();
  drawTerrain(ctx, map, layout, hexes);
  drawChannels(ctx, map, layout);
  drawRivers(ctx, map, layout, hexes);
  drawTracks(ctx, map, layout);
  drawRoads(ctx, map, layout);
  drawCrossings(ctx, map, layout, hexes);
  drawHexIds(ctx, map, layout, idHexes, opts.hexIds);
  const symbols = drawSymbols(ctx, map, layout);
  ctx.restore();
  drawEdgeNumbers(ctx, layout);
  drawLegend(ctx, layout, opts.kind);
  return { canvas, layout, scale, labels: symbols.labels, obstacles: symbols.obstacles, hexIds: opts.hexIds };
}
