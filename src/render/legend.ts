import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Terrain } from '../engine/map/mapModel.js';
import { font } from './fonts.js';
import { crossingMark, fortSymbol, markerBadge, portSymbol, terrainGlyph, townSymbol, type MarkerKind } from './glyphs.js';
import { scaleBar, type MapLayout, type Point, type Rect } from './layout.js';
import { riverWidths } from './mapLines.js';
import { INK, TERRAIN_FILL } from './palette.js';

/**
 * The map's legend: a table of entries, each a caption and the small sample drawn beside it, in
 * the order they are shown; a commander's map adds the entries only it draws. Then the scale bar.
 */
type Ctx = SKRSContext2D;
export type ViewKind = 'public' | 'commander';

/** A legend entry: a small sample drawing and its caption. */
interface LegendEntry {
  readonly label: string;
  readonly draw: (ctx: Ctx, box: Rect) => void;
}

const centreOf = (box: Rect): Point => ({ x: box.x + box.w / 2, y: box.y + box.h / 2 });

function sampleLine(ctx: Ctx, box: Rect, draw: (a: Point, b: Point) => void): void {
  draw({ x: box.x + 2, y: box.y + box.h / 2 }, { x: box.x + box.w - 2, y: box.y + box.h / 2 });
}

/** A swatch of the terrain's fill with its glyph, clipped to the box. */
function terrainSample(t: Terrain): LegendEntry['draw'] {
  const s = 20; // sample scale
  return (ctx, box) => {
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
  };
}

/** A straight stretch of river, with a crossing drawn on it when one is named. */
function riverSample(size: 'major' | 'minor', mark?: 'ford' | 'ferry' | 'bridge' | 'cataract'): LegendEntry['draw'] {
  return (ctx, box) => {
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
    if (mark) crossingMark(ctx, mark, centreOf(box), { x: 1, y: 0 }, size === 'major' ? w.outer / 2 : w.minor / 2, 17);
  };
}

function roadSample(ctx: Ctx, box: Rect): void {
  sampleLine(ctx, box, (a, b) => {
    for (const [lw, col] of [[5.5, INK.road], [2.8, INK.roadFill]] as const) {
      ctx.strokeStyle = col;
      ctx.lineWidth = lw;
      ctx.beginPath();
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
      ctx.stroke();
    }
  });
}

function trackSample(ctx: Ctx, box: Rect): void {
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
}

function channelSample(ctx: Ctx, box: Rect): void {
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
}

function mudflatSample(ctx: Ctx, box: Rect): void {
  ctx.fillStyle = TERRAIN_FILL.coast;
  ctx.fillRect(box.x, box.y, box.w, box.h);
  ctx.fillStyle = INK.mudflat;
  for (let i = 0; i < 12; i++) {
    ctx.beginPath();
    ctx.arc(box.x + 3 + ((i * 7) % (box.w - 6)), box.y + 3 + ((i * 5) % (box.h - 6)), 1, 0, Math.PI * 2);
    ctx.fill();
  }
}

function commanderSample(ctx: Ctx, box: Rect): void {
  ctx.fillStyle = '#8a6d3b';
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.arc(box.x + box.w / 2, box.y + box.h / 2, 8, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
}

function markerSample(kind: MarkerKind): LegendEntry['draw'] {
  return (ctx, box) => markerBadge(ctx, kind, centreOf(box), 7);
}

/** One of the viewer's own armies: the ring that shows its strength around a token. */
function ownSample(ctx: Ctx, box: Rect): void {
  const c = centreOf(box);
  ctx.strokeStyle = INK.own;
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.arc(c.x, c.y, 9, 0, Math.PI * 2);
  ctx.stroke();
  ctx.fillStyle = '#8a6d3b';
  ctx.beginPath();
  ctx.arc(c.x, c.y, 6.5, 0, Math.PI * 2);
  ctx.fill();
}

/** An ordered march: a dashed line ending in an arrowhead. */
function ordersSample(ctx: Ctx, box: Rect): void {
  sampleLine(ctx, box, (a, b) => {
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
  });
}

function estimateSample(ctx: Ctx, box: Rect): void {
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
}

/** Every map's legend, in reading order. */
const LEGEND: readonly LegendEntry[] = [
  { label: 'Clear', draw: terrainSample('clear') },
  { label: 'Forest', draw: terrainSample('forest') },
  { label: 'Hills', draw: terrainSample('hill') },
  { label: 'Mountains', draw: terrainSample('mountain') },
  { label: 'Swamp', draw: terrainSample('swamp') },
  { label: 'Coast', draw: terrainSample('coast') },
  { label: 'Open sea', draw: terrainSample('sea') },
  { label: 'Road', draw: roadSample },
  { label: 'Track', draw: trackSample },
  { label: 'Major river', draw: riverSample('major') },
  { label: 'Minor river', draw: riverSample('minor') },
  { label: 'Bridge', draw: riverSample('major', 'bridge') },
  { label: 'Ferry', draw: riverSample('major', 'ferry') },
  { label: 'Ford', draw: riverSample('minor', 'ford') },
  { label: 'Cataract', draw: riverSample('major', 'cataract') },
  { label: 'Channel', draw: channelSample },
  { label: 'Mud flat', draw: mudflatSample },
  { label: 'Town', draw: (ctx, box) => townSymbol(ctx, centreOf(box), 22) },
  { label: 'Port', draw: (ctx, box) => portSymbol(ctx, centreOf(box), 22) },
  { label: 'Citadel', draw: (ctx, box) => fortSymbol(ctx, { x: box.x + box.w / 2, y: box.y + box.h / 2 - 2 }, 24, 'citadel') },
  { label: 'Keep', draw: (ctx, box) => fortSymbol(ctx, { x: box.x + box.w / 2, y: box.y + box.h / 2 - 1 }, 24, 'keep') },
  { label: 'Commander', draw: commanderSample },
  { label: 'In contact', draw: markerSample('contact') },
  { label: 'In battle', draw: markerSample('battle') },
  { label: 'Unformed', draw: markerSample('unformed') },
  { label: 'Fatigued', draw: markerSample('fatigued') },
  { label: 'Embarked', draw: markerSample('embarked') },
];

/** What only a commander's map draws: own armies' strength, ordered marches, private estimates. */
const COMMANDER_LEGEND: readonly LegendEntry[] = [
  { label: 'Yours (strength)', draw: ownSample },
  { label: 'Orders: day, half', draw: ordersSample },
  { label: 'Your estimate', draw: estimateSample },
];

function legendEntries(kind: ViewKind): readonly LegendEntry[] {
  return kind === 'commander' ? [...LEGEND, ...COMMANDER_LEGEND] : LEGEND;
}

/** Number of legend cells for a view kind (the layout sizes the legend band from it). */
export function legendEntryCount(kind: ViewKind): number {
  return legendEntries(kind).length;
}

/** The legend band: its frame, the entries in a grid, and the scale bar. */
export function drawLegend(ctx: Ctx, layout: MapLayout, kind: ViewKind): void {
  const r = layout.legend;
  ctx.fillStyle = INK.legendBg;
  ctx.strokeStyle = INK.legendBorder;
  ctx.lineWidth = 1;
  ctx.fillRect(r.x, r.y, r.w, r.h);
  ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
  drawEntries(ctx, layout, legendEntries(kind));
  drawScaleBar(ctx, layout);
}

const LEGEND_PAD = 12;

function drawEntries(ctx: Ctx, layout: MapLayout, entries: readonly LegendEntry[]): void {
  const r = layout.legend;
  const cell = layout.legendCell;
  const cols = layout.legendColumns;
  const gridW = cols * cell.w;
  const x0 = r.x + Math.max(LEGEND_PAD, (r.w - gridW) / 2);
  ctx.textBaseline = 'middle';
  entries.forEach((e, i) => {
    const cx = x0 + (i % cols) * cell.w;
    const cy = r.y + LEGEND_PAD + Math.floor(i / cols) * cell.h;
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
}

/** The scale bar, bottom left: alternating steps of 18 or 6 miles, and its caption. */
function drawScaleBar(ctx: Ctx, layout: MapLayout): void {
  const r = layout.legend;
  const bar = scaleBar(layout.size, Math.min(320, r.w / 3));
  const bx = r.x + LEGEND_PAD + 4;
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
