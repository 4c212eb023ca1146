import { type Direction, type Hex, DIRECTIONS, hexToOffset, offsetToHex, hexRound, hexSpiral } from '../engine/hex/index.js';

/**
 * Pure layout: where hexes, bands and labels go on the picture. No canvas here, so everything is
 * unit-tested with plain numbers.
 */
export const SQRT3 = Math.sqrt(3);

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface MapLayout {
  /** Hex radius in pixels (centre to corner); a hex is 2*size wide and sqrt(3)*size high. */
  readonly size: number;
  /** Whole picture. */
  readonly width: number;
  readonly height: number;
  readonly title: Rect;
  /** Area holding the hexes (clipped). */
  readonly map: Rect;
  /** Width of the band around the map where column and row numbers are printed. */
  readonly edge: number;
  readonly legend: Rect;
  /** Pixel position of the centre of axial hex (0, 0). */
  readonly originX: number;
  readonly originY: number;
  /** Offset (1-based) columns and rows drawn. */
  readonly colMin: number;
  readonly colMax: number;
  readonly rowMin: number;
  readonly rowMax: number;
  readonly zoomed: boolean;
  /** Legend grid: cells per row and cell size. */
  readonly legendColumns: number;
  readonly legendCell: { readonly w: number; readonly h: number };
}

export interface LayoutOptions {
  /** Width of the whole-map picture (default 1,600 px). */
  readonly width?: number;
  readonly around?: Hex;
  readonly radius?: number;
  /** Number of legend entries, to size the legend band. */
  readonly legendEntries?: number;
}

const TITLE_HEIGHT = 58;
const MARGIN = 14;
/** The band for column and row numbers around the hexes, as printed hex maps have. */
const EDGE = 20;
const LEGEND_CELL = { w: 152, h: 24 } as const;
const LEGEND_PAD = 12;
/** Extra room under the legend grid for the scale bar. */
const LEGEND_FOOT = 30;
const ZOOM_TARGET_WIDTH = 1200;
const ZOOM_MIN_SIZE = 30;
const ZOOM_MAX_SIZE = 64;
const MIN_PICTURE_WIDTH = 900;

/** Width and height of a block of hexes, in hex radii (flat-top, odd columns shifted down). */
export function blockExtent(cols: number, rows: number): { w: number; h: number } {
  return { w: 1.5 * (cols - 1) + 2, h: SQRT3 * (rows + (cols > 1 ? 0.5 : 0)) };
}

/** Legend band height for a picture of `width` px with `entries` legend cells. */
function legendHeight(width: number, entries: number): { height: number; columns: number } {
  const columns = Math.max(1, Math.floor((width - 2 * MARGIN - 2 * LEGEND_PAD) / LEGEND_CELL.w));
  const rows = Math.ceil(entries / columns);
  return { height: rows * LEGEND_CELL.h + 2 * LEGEND_PAD + LEGEND_FOOT, columns };
}

/**
 * The layout of a map picture: the whole map about `width` px wide, or, with `around` and
 * `radius`, the block of hexes around one hex drawn with bigger hexes.
 */
export function computeLayout(mapWidth: number, mapHeight: number, opts: LayoutOptions = {}): MapLayout {
  let colMin = 1;
  let colMax = mapWidth;
  let rowMin = 1;
  let rowMax = mapHeight;
  const zoomed = opts.around !== undefined;
  if (opts.around) {
    const radius = Math.max(1, Math.floor(opts.radius ?? 5));
    const offs = hexSpiral(opts.around, radius).map(hexToOffset);
    // Columns are narrower than rows are tall: widen the block so the picture is landscape.
    const centre = hexToOffset(opts.around);
    const extra = Math.ceil(radius * 0.6);
    const shiftInto = (lo: number, hi: number, max: number): [number, number] => {
      // Near an edge, slide the window back onto the map rather than shrink it.
      const span = hi - lo;
      if (span >= max - 1) return [1, max];
      if (lo < 1) return [1, 1 + span];
      if (hi > max) return [max - span, max];
      return [lo, hi];
    };
    [colMin, colMax] = shiftInto(centre.col - radius - extra, centre.col + radius + extra, mapWidth);
    [rowMin, rowMax] = shiftInto(Math.min(...offs.map((o) => o.row)), Math.max(...offs.map((o) => o.row)), mapHeight);
    if (colMin > colMax || rowMin > rowMax) {
      colMin = 1; colMax = mapWidth; rowMin = 1; rowMax = mapHeight;
    }
  }
  const cols = colMax - colMin + 1;
  const rows = rowMax - rowMin + 1;
  const ext = blockExtent(cols, rows);
  let size: number;
  let width: number;
  if (zoomed) {
    // Never smaller than on the whole-map picture.
    const fullSize = ((opts.width ?? 1600) - 2 * (MARGIN + EDGE)) / blockExtent(mapWidth, mapHeight).w;
    size = Math.max(fullSize, Math.min(ZOOM_MAX_SIZE, Math.max(ZOOM_MIN_SIZE, (ZOOM_TARGET_WIDTH - 2 * (MARGIN + EDGE)) / ext.w)));
    width = Math.max(MIN_PICTURE_WIDTH, Math.ceil(ext.w * size + 2 * (MARGIN + EDGE)));
  } else {
    width = opts.width ?? 1600;
    size = (width - 2 * (MARGIN + EDGE)) / ext.w;
  }
  const mapW = ext.w * size;
  const mapH = ext.h * size;
  const map: Rect = { x: Math.round((width - mapW) / 2), y: TITLE_HEIGHT + MARGIN + EDGE, w: Math.ceil(mapW), h: Math.ceil(mapH) };
  const legend = legendHeight(width, opts.legendEntries ?? 24);
  const legendRect: Rect = { x: MARGIN, y: map.y + map.h + EDGE + MARGIN, w: width - 2 * MARGIN, h: legend.height };
  const height = Math.ceil(legendRect.y + legendRect.h + MARGIN);

  // Place the top-left hex of the block: its column's left corner at map.x; the top of the block
  // is the top of an upper (even zero-based) column's first row.
  const topLeft = offsetToHex({ col: colMin, row: rowMin });
  const c0 = colMin - 1;
  // When the first drawn column is a lower one, the block's top is half a hex higher than its first hex.
  const firstIsLower = (c0 & 1) === 1;
  const x0 = map.x + size;
  const y0 = map.y + (SQRT3 / 2) * size + (firstIsLower && cols > 1 ? (SQRT3 / 2) * size : 0);
  // In the zero-based offset frame, the drawn block's upper columns sit at y0 for rowMin.
  const originX = x0 - 1.5 * size * topLeft.q;
  const originY = y0 - SQRT3 * size * (topLeft.r + topLeft.q / 2);
  return {
    size,
    width,
    height,
    title: { x: 0, y: 0, w: width, h: TITLE_HEIGHT },
    map,
    edge: EDGE,
    legend: legendRect,
    originX,
    originY,
    colMin,
    colMax,
    rowMin,
    rowMax,
    zoomed,
    legendColumns: legend.columns,
    legendCell: LEGEND_CELL,
  };
}

/** A number printed on the map's edge: the column or row it names, and where its centre goes. */
export interface EdgeNumber {
  readonly text: string;
  readonly at: Point;
}

/**
 * Column numbers above and below the hexes (at each column's centre), row numbers left and right
 * (at the centre of that row's hex in the first and last column drawn), as printed hex maps
 * number their edges, so any hex's id can be read off: its column above it, its row beside it.
 */
export function edgeNumbers(layout: Pick<MapLayout, 'size' | 'originX' | 'originY' | 'map' | 'edge' | 'colMin' | 'colMax' | 'rowMin' | 'rowMax'>): EdgeNumber[] {
  const out: EdgeNumber[] = [];
  const m = layout.map;
  const pad = (n: number): string => String(n).padStart(2, '0');
  for (let col = layout.colMin; col <= layout.colMax; col++) {
    const x = hexCentre(layout, offsetToHex({ col, row: layout.rowMin })).x;
    out.push({ text: pad(col), at: { x, y: m.y - layout.edge / 2 } }, { text: pad(col), at: { x, y: m.y + m.h + layout.edge / 2 } });
  }
  for (let row = layout.rowMin; row <= layout.rowMax; row++) {
    const left = hexCentre(layout, offsetToHex({ col: layout.colMin, row }));
    const right = hexCentre(layout, offsetToHex({ col: layout.colMax, row }));
    out.push({ text: pad(row), at: { x: m.x - layout.edge / 2, y: left.y } }, { text: pad(row), at: { x: m.x + m.w + layout.edge / 2, y: right.y } });
  }
  return out;
}

/** Pixel centre of a hex. */
export function hexCentre(layout: Pick<MapLayout, 'size' | 'originX' | 'originY'>, h: Hex): Point {
  return {
    x: layout.originX + 1.5 * layout.size * h.q,
    y: layout.originY + SQRT3 * layout.size * (h.r + h.q / 2),
  };
}

/** The hex under a pixel. */
export function pixelToHex(layout: Pick<MapLayout, 'size' | 'originX' | 'originY'>, p: Point): Hex {
  const x = (p.x - layout.originX) / layout.size;
  const y = (p.y - layout.originY) / layout.size;
  const q = (2 / 3) * x;
  const r = (-1 / 3) * x + (SQRT3 / 3) * y;
  return hexRound(q, r);
}

/** The six corners of a flat-top hex, clockwise from the east corner. */
export function hexCorners(c: Point, size: number): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    out.push({ x: c.x + size * Math.cos(a), y: c.y + size * Math.sin(a) });
  }
  return out;
}

/** Angle (radians, screen coordinates) from a hex centre to the middle of its edge `d`. */
function edgeAngle(d: Direction): number {
  return ((DIRECTIONS.indexOf(d) * 60 - 90) * Math.PI) / 180;
}

/** Middle of edge `d` of the hex centred at `c`. */
export function edgeMidpoint(c: Point, size: number, d: Direction): Point {
  const a = edgeAngle(d);
  const k = (SQRT3 / 2) * size;
  return { x: c.x + k * Math.cos(a), y: c.y + k * Math.sin(a) };
}

/** Every hex drawn by a layout (its offset block), row by row. */
export function layoutHexes(layout: Pick<MapLayout, 'colMin' | 'colMax' | 'rowMin' | 'rowMax'>): Hex[] {
  const out: Hex[] = [];
  for (let row = layout.rowMin; row <= layout.rowMax; row++) {
    for (let col = layout.colMin; col <= layout.colMax; col++) out.push(offsetToHex({ col, row }));
  }
  return out;
}

export function inLayout(layout: Pick<MapLayout, 'colMin' | 'colMax' | 'rowMin' | 'rowMax'>, h: Hex): boolean {
  const { col, row } = hexToOffset(h);
  return col >= layout.colMin && col <= layout.colMax && row >= layout.rowMin && row <= layout.rowMax;
}

/**
 * Hex ids to print: every hex, or a readable subset (every other column and every other row, plus
 * the first of each, so a reader can count from any id to its neighbours).
 */
export function showHexId(mode: 'all' | 'subset' | 'none', h: Hex): boolean {
  if (mode === 'none') return false;
  if (mode === 'all') return true;
  const { col, row } = hexToOffset(h);
  return col % 2 === 1 && row % 2 === 1;
}

export function rectsOverlap(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function inside(r: Rect, bounds: Rect): boolean {
  return r.x >= bounds.x && r.y >= bounds.y && r.x + r.w <= bounds.x + bounds.w && r.y + r.h <= bounds.y + bounds.h;
}

export interface LabelRequest {
  readonly id: string;
  readonly w: number;
  readonly h: number;
  readonly anchor: Point;
  /** Distance kept from the anchor (a symbol's radius). */
  readonly gap: number;
  /** 'point': around a symbol (below first); 'area': centred on the anchor, then shifted. */
  readonly style: 'point' | 'area';
  /** Higher first. */
  readonly priority: number;
  /** Required labels are always placed (at the least-overlapping spot); others may be dropped. */
  readonly required: boolean;
  /** Horizontal room to keep clear on each side (names of areas need air to read apart). */
  readonly padX?: number;
  /** Spots this label must never cover, even as a required label (a route's own hex ids). */
  readonly avoid?: readonly Rect[];
}

export interface PlacedLabel {
  readonly id: string;
  readonly rect: Rect;
  /** True when it could not avoid every obstacle. */
  readonly overlaps: boolean;
}

function candidates(req: LabelRequest): Rect[] {
  const { x, y } = req.anchor;
  const { w, h, gap } = req;
  if (req.style === 'area') {
    const shifts = [0, -1, 1, -2, 2];
    return shifts.flatMap((s) => [
      { x: x - w / 2, y: y - h / 2 + s * h, w, h },
      { x: x - w / 2 + (s * w) / 3, y: y - h / 2, w, h },
    ]);
  }
  const d = gap * 0.72;
  return [
    { x: x - w / 2, y: y + gap, w, h }, // below
    { x: x - w / 2, y: y - gap - h, w, h }, // above
    { x: x + gap, y: y - h / 2, w, h }, // right
    { x: x - gap - w, y: y - h / 2, w, h }, // left
    { x: x + d, y: y + d, w, h }, // below right
    { x: x - d - w, y: y + d, w, h }, // below left
    { x: x + d, y: y - d - h, w, h }, // above right
    { x: x - d - w, y: y - d - h, w, h }, // above left
    { x: x - w / 2, y: y + gap + h, w, h }, // further below
    { x: x - w / 2, y: y - gap - 2 * h, w, h }, // further above
  ];
}

/**
 * Greedy label placement: labels in priority order, each at its first candidate spot that stays
 * inside `bounds` and overlaps neither an obstacle (tokens, symbols) nor a label already placed.
 * A required label that finds no free spot takes the spot with the least overlap (never one over
 * what it must `avoid`: further spots are tried first); an optional one is dropped. Labels keep `pad` px clear of each other and of obstacles. Deterministic.
 */
export function placeLabels(requests: readonly LabelRequest[], obstacles: readonly Rect[], bounds: Rect, pad = 2): PlacedLabel[] {
  const grow = (r: Rect, px: number): Rect => ({ x: r.x - px, y: r.y - pad, w: r.w + 2 * px, h: r.h + 2 * pad });
  const order = [...requests].sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const placed: PlacedLabel[] = [];
  const taken: Rect[] = [...obstacles];
  for (const req of order) {
    // A spot over a hard obstacle (a hex id the label belongs next to) is never taken; further
    // spots are tried before giving up on one.
    const hard = req.avoid ?? [];
    const near = candidates(req);
    const cands = hard.length === 0 ? near : [...near, ...candidates({ ...req, gap: req.gap * 2 + req.h }), ...candidates({ ...req, gap: req.gap * 3 + 2 * req.h })];
    let chosen: Rect | undefined;
    let best: { rect: Rect; cost: number } | undefined;
    for (const c of cands) {
      if (!inside(c, bounds)) continue;
      if (hard.some((h) => rectsOverlap(c, h))) continue;
      const g = grow(c, Math.max(pad, req.padX ?? 0));
      const cost = taken.reduce((n, t) => n + overlapArea(g, t), 0);
      if (cost === 0) {
        chosen = c;
        break;
      }
      if (!best || cost < best.cost) best = { rect: c, cost };
    }
    if (chosen) {
      placed.push({ id: req.id, rect: chosen, overlaps: false });
      taken.push(chosen);
    } else if (req.required) {
      const rect = best?.rect ?? cands[0];
      if (rect) {
        placed.push({ id: req.id, rect, overlaps: true });
        taken.push(rect);
      }
    }
  }
  return placed;
}

/** Scale bar: the largest round number of miles (6 per hex) that fits in `maxPx`. */
export function scaleBar(size: number, maxPx: number): { miles: number; px: number } {
  const pxPerMile = (SQRT3 * size) / 6; // neighbouring hex centres are 6 miles apart
  const steps = [6, 12, 18, 24, 30, 36, 48, 60, 72, 90, 120, 150, 180];
  let pick = steps[0] ?? 6;
  for (const m of steps) if (m * pxPerMile <= maxPx) pick = m;
  return { miles: pick, px: pick * pxPerMile };
}

/**
 * The curve of a river through one hex: from the middle of its entry edge to the middle of its
 * exit edge, bending through the centre (a source starts, and an inland end stops, at the
 * centre). Returns the quadratic curve and the point and flow direction where crossing marks go.
 */
export function riverCurve(c: Point, size: number, entry: Direction | undefined, exit: Direction | undefined): {
  from: Point; control: Point; to: Point; mid: Point; dir: Point;
} {
  const from = entry ? edgeMidpoint(c, size, entry) : c;
  const to = exit ? edgeMidpoint(c, size, exit) : c;
  const mid = { x: 0.25 * from.x + 0.5 * c.x + 0.25 * to.x, y: 0.25 * from.y + 0.5 * c.y + 0.25 * to.y };
  let dx = to.x - from.x;
  let dy = to.y - from.y;
  let len = Math.hypot(dx, dy);
  if (len < 1e-6) {
    dx = 1;
    dy = 0;
    len = 1;
  }
  return { from, control: c, to, mid, dir: { x: dx / len, y: dy / len } };
}

/** The two corners bounding edge `d` of a flat-top hex (see hexCorners). */
export function edgeCorners(c: Point, size: number, d: Direction): [Point, Point] {
  const k = DIRECTIONS.indexOf(d);
  const corners = hexCorners(c, size);
  return [corners[(k + 4) % 6] as Point, corners[(k + 5) % 6] as Point];
}
