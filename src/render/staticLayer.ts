import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { DIRECTIONS, type Hex } from '../engine/hex/hex.js';
import { hexKey, parseHex } from '../engine/hex/hexId.js';
import { neighbour } from '../engine/hex/neighbours.js';
import { isWater, type MapModel, type Terrain } from '../engine/map/mapModel.js';
import { font } from './fonts.js';
import { crossingMark, fortSymbol, jitter, markerBadge, portSymbol, terrainGlyph, townSymbol, type MarkerKind } from './glyphs.js';
import {
  edgeCorners, edgeMidpoint, edgeNumbers, hexCentre, hexCorners, inLayout, layoutHexes, riverCurve, scaleBar, showHexId,
  type MapLayout, type Point, type Rect,
} from './layout.js';
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
  readonly canvas: Canvas;
  readonly layout: MapLayout;
  readonly labels: readonly StaticLabel[];
  /** Symbols labels must not cover. */
  readonly obstacles: readonly Rect[];
  /** Which hexes carry their id in this layer. */
  readonly hexIds: 'all' | 'subset' | 'none';
}

export type ViewKind = 'public' | 'commander';

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

function riverWidths(s: number): { outer: number; inner: number; minor: number } {
  const outer = Math.max(6, 0.34 * s);
  return { outer, inner: outer - 2 * Math.max(1.3, 0.06 * s), minor: Math.max(1.8, 0.09 * s) };
}

function drawRivers(ctx: Ctx, map: MapModel, layout: MapLayout, hexes: readonly Hex[]): void {
  const s = layout.size;
  const w = riverWidths(s);
  const rivers = hexes.flatMap((h) => {
    const r = map.riverAt(h);
    return r ? [{ h, r, curve: riverCurve(hexCentre(layout, h), s, r.entry, r.exit) }] : [];
  });
  const stroke = (size: 'major' | 'minor', width: number, colour: string): void => {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    for (const { r, curve } of rivers) {
      if (r.size !== size) continue;
      ctx.moveTo(curve.from.x, curve.from.y);
      ctx.quadraticCurveTo(curve.control.x, curve.control.y, curve.to.x, curve.to.y);
    }
    ctx.stroke();
  };
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  stroke('major', w.outer, INK.riverBank);
  stroke('minor', w.minor, INK.riverMinor);
  stroke('major', w.inner, INK.riverWater);
  ctx.lineCap = 'butt';
  for (const { r, curve } of rivers) {
    const half = r.size === 'major' ? w.outer / 2 : w.minor / 2;
    if (r.cataract) crossingMark(ctx, 'cataract', curve.mid, curve.dir, half, s);
  }
}

function drawCrossings(ctx: Ctx, map: MapModel, layout: MapLayout, hexes: readonly Hex[]): void {
  const s = layout.size;
  const w = riverWidths(s);
  for (const h of hexes) {
    const r = map.riverAt(h);
    if (!r?.crossing) continue;
    const curve = riverCurve(hexCentre(layout, h), s, r.entry, r.exit);
    const half = r.size === 'major' ? w.outer / 2 : w.minor / 2;
    crossingMark(ctx, r.crossing, curve.mid, curve.dir, half, s);
  }
}

function pathCentres(map: MapModel, layout: MapLayout, ids: readonly string[]): Point[] {
  return ids.flatMap((id) => {
    const h = map.parse(id);
    return h ? [hexCentre(layout, h)] : [];
  });
}

function drawRoads(ctx: Ctx, map: MapModel, layout: MapLayout): void {
  const s = layout.size;
  const outer = Math.max(4.5, 0.2 * s);
  const inner = outer - 2 * Math.max(1.2, 0.055 * s);
  const lines = map.data.roads.map((p) => pathCentres(map, layout, p));
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const [width, colour] of [[outer, INK.road], [inner, INK.roadFill]] as const) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    for (const pts of lines) {
      pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
    }
    ctx.stroke();
  }
  ctx.lineCap = 'butt';
}

function drawTracks(ctx: Ctx, map: MapModel, layout: MapLayout): void {
  const s = layout.size;
  const spacing = Math.max(6, 0.3 * s);
  const arm = Math.max(2, 0.085 * s);
  ctx.strokeStyle = INK.track;
  ctx.lineWidth = Math.max(1.2, 0.05 * s);
  ctx.beginPath();
  for (const path of map.data.tracks) {
    const pts = pathCentres(map, layout, path);
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1] as Point;
      const b = pts[i] as Point;
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      const n = Math.max(1, Math.round(len / spacing));
      const ux = (b.x - a.x) / len;
      const uy = (b.y - a.y) / len;
      // crosses at 45 degrees to the line
      const d1 = { x: (ux - uy) * Math.SQRT1_2 * arm, y: (uy + ux) * Math.SQRT1_2 * arm };
      const d2 = { x: (ux + uy) * Math.SQRT1_2 * arm, y: (uy - ux) * Math.SQRT1_2 * arm };
      for (let k = 0; k < n; k++) {
        const t = (k + 0.5) / n;
        const m = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
        ctx.moveTo(m.x - d1.x, m.y - d1.y);
        ctx.lineTo(m.x + d1.x, m.y + d1.y);
        ctx.moveTo(m.x - d2.x, m.y - d2.y);
        ctx.lineTo(m.x + d2.x, m.y + d2.y);
      }
    }
  }
  ctx.stroke();
}

function drawChannels(ctx: Ctx, map: MapModel, layout: MapLayout): void {
  const s = layout.size;
  const ids = map.data.channels.flatMap((id) => {
    const h = parseHex(id);
    return h ? [h] : [];
  });
  const set = new Set(ids.map(hexKey));
  ctx.strokeStyle = INK.channel;
  ctx.lineWidth = Math.max(1.5, 0.065 * s);
  ctx.setLineDash([Math.max(4, 0.2 * s), Math.max(3, 0.13 * s)]);
  ctx.beginPath();
  for (const h of ids) {
    const c = hexCentre(layout, h);
    const linked = DIRECTIONS.filter((d) => set.has(hexKey(neighbour(h, d))));
    for (const d of linked) {
      const n = neighbour(h, d);
      if (hexKey(n) < hexKey(h)) continue;
      const cn = hexCentre(layout, n);
      ctx.moveTo(c.x, c.y);
      ctx.lineTo(cn.x, cn.y);
    }
    if (linked.length <= 1) {
      // an end of the channel: run on straight through the hex, towards open water or a port
      const opensOut = (d: (typeof DIRECTIONS)[number]): boolean => {
        const n = neighbour(h, d);
        const t = map.terrainAt(n);
        return t === 'sea' || (t === 'coast' && !map.isMudflat(n)) || map.portAt(n) !== undefined;
      };
      const first = linked[0];
      const ahead = first ? DIRECTIONS[(DIRECTIONS.indexOf(first) + 3) % 6] : DIRECTIONS.find(opensOut);
      const ends = first ? [ahead] : [ahead, ahead ? DIRECTIONS[(DIRECTIONS.indexOf(ahead) + 3) % 6] : undefined];
      for (const d of ends) {
        if (!d) continue;
        const m = edgeMidpoint(c, s, d);
        ctx.moveTo(c.x, c.y);
        ctx.lineTo(m.x, m.y);
      }
    }
  }
  ctx.stroke();
  ctx.setLineDash([]);
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

function drawHexIds(ctx: Ctx, map: MapModel, layout: MapLayout, hexes: readonly Hex[], mode: 'all' | 'subset' | 'none'): void {
  if (mode === 'none') return;
  const s = layout.size;
  ctx.font = font(hexIdSpot(layout, { q: 0, r: 0 }).px, 'sans', { weight: 600 });
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

/** A legend entry: a small sample drawing and its caption. */
interface LegendEntry {
  readonly label: string;
  readonly draw: (ctx: Ctx, box: Rect) => void;
}

function sampleLine(ctx: Ctx, box: Rect, draw: (a: Point, b: Point) => void): void {
  draw({ x: box.x + 2, y: box.y + box.h / 2 }, { x: box.x + box.w - 2, y: box.y + box.h / 2 });
}

function legendEntries(kind: ViewKind): LegendEntry[] {
  const s = 20; // sample scale
  const terrains: [Terrain, string][] = [
    ['clear', 'Clear'], ['forest', 'Forest'], ['hill', 'Hills'], ['mountain', 'Mountains'],
    ['swamp', 'Swamp'], ['coast', 'Coast'], ['sea', 'Open sea'],
  ];
  const out: LegendEntry[] = terrains.map(([t, label]) => ({
    label,
    draw: (ctx, box) => {
      const c = { x: box.x + box.w / 2, y: box.y + box.h / 2 + 1 };
      ctx.save();
      ctx.fillStyle = TERRAIN_FILL[t];
      ctx.strokeStyle = INK.legendBorder;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.rect(box.x, box.y, box.w, box.h);
      ctx.fill();
      ctx.stroke();
      ctx.beginPath();
      ctx.rect(box.x, box.y, box.w, box.h);
      ctx.clip();
      terrainGlyph(ctx, t, { x: c.x, y: c.y - 0.2 * s }, s * 0.9, 3, 5);
      ctx.restore();
    },
  }));
  const river = (size: 'major' | 'minor', mark?: 'ford' | 'ferry' | 'bridge' | 'cataract') => (ctx: Ctx, box: Rect): void => {
    const w = riverWidths(26);
    ctx.lineCap = 'round';
    sampleLine(ctx, box, (a, b) => {
      const strokes: [number, string][] = size === 'major' ? [[w.outer, INK.riverBank], [w.inner, INK.riverWater]] : [[w.minor, INK.riverMinor]];
      for (const [lw, col] of strokes) {
        ctx.strokeStyle = col;
        ctx.lineWidth = lw;
        ctx.beginPath();
        ctx.moveTo(a.x + 3, a.y);
        ctx.lineTo(b.x - 3, b.y);
        ctx.stroke();
      }
    });
    ctx.lineCap = 'butt';
    if (mark) crossingMark(ctx, mark, { x: box.x + box.w / 2, y: box.y + box.h / 2 }, { x: 1, y: 0 }, size === 'major' ? w.outer / 2 : w.minor / 2, 17);
  };
  out.push(
    {
      label: 'Road',
      draw: (ctx, box) => sampleLine(ctx, box, (a, b) => {
        for (const [lw, col] of [[5.5, INK.road], [2.8, INK.roadFill]] as const) {
          ctx.strokeStyle = col;
          ctx.lineWidth = lw;
          ctx.beginPath();
          ctx.moveTo(a.x, a.y);
          ctx.lineTo(b.x, b.y);
          ctx.stroke();
        }
      }),
    },
    {
      label: 'Track',
      draw: (ctx, box) => {
        ctx.strokeStyle = INK.track;
        ctx.lineWidth = 1.3;
        ctx.beginPath();
        for (let x = box.x + 5; x < box.x + box.w - 2; x += 8) {
          const y = box.y + box.h / 2;
          ctx.moveTo(x - 2.2, y - 2.2);
          ctx.lineTo(x + 2.2, y + 2.2);
          ctx.moveTo(x + 2.2, y - 2.2);
          ctx.lineTo(x - 2.2, y + 2.2);
        }
        ctx.stroke();
      },
    },
    { label: 'Major river', draw: river('major') },
    { label: 'Minor river', draw: river('minor') },
    { label: 'Bridge', draw: river('major', 'bridge') },
    { label: 'Ferry', draw: river('major', 'ferry') },
    { label: 'Ford', draw: river('minor', 'ford') },
    { label: 'Cataract', draw: river('major', 'cataract') },
    {
      label: 'Channel',
      draw: (ctx, box) => {
        ctx.fillStyle = TERRAIN_FILL.coast;
        ctx.fillRect(box.x, box.y, box.w, box.h);
        ctx.strokeStyle = INK.channel;
        ctx.lineWidth = 1.6;
        ctx.setLineDash([5, 3.5]);
        sampleLine(ctx, box, (a, b) => {
          ctx.beginPath();
          ctx.moveTo(a.x, a.y);
          ctx.lineTo(b.x, b.y);
          ctx.stroke();
        });
        ctx.setLineDash([]);
      },
    },
    {
      label: 'Mud flat',
      draw: (ctx, box) => {
        ctx.fillStyle = TERRAIN_FILL.coast;
        ctx.fillRect(box.x, box.y, box.w, box.h);
        ctx.fillStyle = INK.mudflat;
        for (let i = 0; i < 12; i++) {
          ctx.beginPath();
          ctx.arc(box.x + 3 + ((i * 7) % (box.w - 6)), box.y + 3 + ((i * 5) % (box.h - 6)), 1, 0, Math.PI * 2);
          ctx.fill();
        }
      },
    },
    { label: 'Town', draw: (ctx, box) => townSymbol(ctx, { x: box.x + box.w / 2, y: box.y + box.h / 2 }, 22) },
    { label: 'Port', draw: (ctx, box) => portSymbol(ctx, { x: box.x + box.w / 2, y: box.y + box.h / 2 }, 22) },
    { label: 'Citadel', draw: (ctx, box) => fortSymbol(ctx, { x: box.x + box.w / 2, y: box.y + box.h / 2 - 2 }, 24, 'citadel') },
    { label: 'Keep', draw: (ctx, box) => fortSymbol(ctx, { x: box.x + box.w / 2, y: box.y + box.h / 2 - 1 }, 24, 'keep') },
    {
      label: 'Commander',
      draw: (ctx, box) => {
        ctx.fillStyle = '#8a6d3b';
        ctx.strokeStyle = '#ffffff';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(box.x + box.w / 2, box.y + box.h / 2, 8, 0, Math.PI * 2);
        ctx.fill();
        ctx.stroke();
      },
    },
  );
  const markers: [MarkerKind, string][] = [
    ['contact', 'In contact'], ['battle', 'In battle'], ['unformed', 'Unformed'], ['fatigued', 'Fatigued'], ['embarked', 'Embarked'],
  ];
  for (const [k, label] of markers) {
    out.push({ label, draw: (ctx, box) => markerBadge(ctx, k, { x: box.x + box.w / 2, y: box.y + box.h / 2 }, 7) });
  }
  if (kind === 'commander') {
    out.push(
      {
        label: 'Yours (strength)',
        draw: (ctx, box) => {
          const c = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
          ctx.strokeStyle = INK.own;
          ctx.lineWidth = 3;
          ctx.beginPath();
          ctx.arc(c.x, c.y, 9, 0, Math.PI * 2);
          ctx.stroke();
          ctx.fillStyle = '#8a6d3b';
          ctx.beginPath();
          ctx.arc(c.x, c.y, 6.5, 0, Math.PI * 2);
          ctx.fill();
        },
      },
      {
        label: 'Orders: day, half',
        draw: (ctx, box) => sampleLine(ctx, box, (a, b) => {
          ctx.strokeStyle = INK.path;
          ctx.lineWidth = 2.4;
          ctx.setLineDash([6, 4]);
          ctx.beginPath();
          ctx.moveTo(a.x, a.y);
          ctx.lineTo(b.x - 4, b.y);
          ctx.stroke();
          ctx.setLineDash([]);
          ctx.fillStyle = INK.path;
          ctx.beginPath();
          ctx.moveTo(b.x, b.y);
          ctx.lineTo(b.x - 7, b.y - 4);
          ctx.lineTo(b.x - 7, b.y + 4);
          ctx.closePath();
          ctx.fill();
        }),
      },
      {
        label: 'Your estimate',
        draw: (ctx, box) => {
          ctx.strokeStyle = INK.symbol;
          ctx.lineWidth = 1;
          ctx.setLineDash([3, 2]);
          ctx.strokeRect(box.x + 2, box.y + 2, box.w - 4, box.h - 4);
          ctx.setLineDash([]);
          ctx.fillStyle = INK.symbol;
          ctx.font = font(11, 'sans', { italic: true });
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText('est.', box.x + box.w / 2, box.y + box.h / 2);
        },
      },
    );
  }
  return out;
}

/** Number of legend cells for a view kind (the layout sizes the legend band from it). */
export function legendEntryCount(kind: ViewKind): number {
  return legendEntries(kind).length;
}

function drawLegend(ctx: Ctx, layout: MapLayout, kind: ViewKind): void {
  const r = layout.legend;
  ctx.fillStyle = INK.legendBg;
  ctx.strokeStyle = INK.legendBorder;
  ctx.lineWidth = 1;
  ctx.fillRect(r.x, r.y, r.w, r.h);
  ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
  const entries = legendEntries(kind);
  const cell = layout.legendCell;
  const pad = 12;
  const cols = layout.legendColumns;
  const gridW = cols * cell.w;
  const x0 = r.x + Math.max(pad, (r.w - gridW) / 2);
  ctx.textBaseline = 'middle';
  entries.forEach((e, i) => {
    const cx = x0 + (i % cols) * cell.w;
    const cy = r.y + pad + Math.floor(i / cols) * cell.h;
    const box: Rect = { x: cx, y: cy + 3, w: 36, h: cell.h - 6 };
    ctx.save();
    e.draw(ctx, box);
    ctx.restore();
    ctx.fillStyle = INK.label;
    ctx.font = font(12.5, 'sans');
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(e.label, cx + 42, cy + cell.h / 2);
  });
  // scale bar, bottom left
  const bar = scaleBar(layout.size, Math.min(320, r.w / 3));
  const bx = r.x + pad + 4;
  const by = r.y + r.h - 14;
  const steps = bar.miles % 18 === 0 && bar.miles >= 36 ? bar.miles / 18 : bar.miles / 6;
  const stepPx = bar.px / steps;
  for (let i = 0; i < steps; i++) {
    ctx.fillStyle = i % 2 === 0 ? INK.symbol : '#ffffff';
    ctx.fillRect(bx + i * stepPx, by - 5, stepPx, 5);
  }
  ctx.strokeStyle = INK.symbol;
  ctx.lineWidth = 1;
  ctx.strokeRect(bx + 0.5, by - 5.5, bar.px, 6);
  ctx.fillStyle = INK.label;
  ctx.font = font(12, 'sans');
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(`${bar.miles} miles  (one hex = 6 miles)`, bx + bar.px + 10, by - 2);
}

/** Draws everything that does not change from tick to tick. */
export function buildStaticLayer(map: MapModel, layout: MapLayout, opts: { hexIds: 'all' | 'subset' | 'none'; kind: ViewKind }): StaticLayer {
  const canvas = createCanvas(layout.width, layout.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = INK.paper;
  ctx.fillRect(0, 0, layout.width, layout.height);
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
  return { canvas, layout, labels: symbols.labels, obstacles: symbols.obstacles, hexIds: opts.hexIds };
}
