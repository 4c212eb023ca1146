import type { SKRSContext2D } from '@napi-rs/canvas';
import { DIRECTIONS, type Hex } from '../engine/hex/hex.js';
import { hexKey, parseHex } from '../engine/hex/hexId.js';
import { neighbour } from '../engine/hex/neighbours.js';
import type { MapModel } from '../engine/map/mapModel.js';
import { crossingMark } from './glyphs.js';
import { edgeMidpoint, hexCentre, riverCurve, type MapLayout, type Point } from './layout.js';
import { INK } from './palette.js';

/** The lines over the terrain of the static map: rivers and their crossings, channels, tracks and roads. */
type Ctx = SKRSContext2D;

/** Stroke widths of a major river (banks, water) and a minor one, for a hex size. */
export function riverWidths(s: number): { outer: number; inner: number; minor: number } {
  const outer = Math.max(6, 0.34 * s);
  return { outer, inner: outer - 2 * Math.max(1.3, 0.06 * s), minor: Math.max(1.8, 0.09 * s) };
}

export function drawRivers(ctx: Ctx, map: MapModel, layout: MapLayout, hexes: readonly Hex[]): void {
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

export function drawCrossings(ctx: Ctx, map: MapModel, layout: MapLayout, hexes: readonly Hex[]): void {
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

export function drawRoads(ctx: Ctx, map: MapModel, layout: MapLayout): void {
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

export function drawTracks(ctx: Ctx, map: MapModel, layout: MapLayout): void {
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

export function drawChannels(ctx: Ctx, map: MapModel, layout: MapLayout): void {
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
