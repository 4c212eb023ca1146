import type { Point, Rect } from './layout.js';
import { overlapArea, RectIndex } from './rectIndex.js';

/**
 * Where labels go: around their anchors, clear of tokens, symbols and each other, highest
 * priority first. Pure (no canvas), so it is tested with plain numbers.
 */

export function rectsOverlap(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
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
  /**
   * Spots this label keeps off when it can (the map's hex ids around a route's step): each counts
   * as an obstacle for this label only, so a spot over none of them wins, and failing that the one
   * that covers least.
   */
  readonly shun?: readonly Rect[];
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
  const taken = new RectIndex(CELL_PX);
  for (const o of obstacles) taken.add(o);
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
      const shunned = shunCost(c, req.shun);
      if (best && shunned >= best.cost) continue;
      // A spot no cheaper than the best so far is not counted to the end.
      const cost = shunned + taken.overlap(grow(c, Math.max(pad, req.padX ?? 0)), best ? best.cost - shunned : undefined);
      if (cost === 0) {
        chosen = c;
        break;
      }
      if (!best || cost < best.cost) best = { rect: c, cost };
    }
    if (chosen) {
      placed.push({ id: req.id, rect: chosen, overlaps: false });
      taken.add(chosen);
    } else if (req.required) {
      const rect = best?.rect ?? cands[0];
      if (rect) {
        placed.push({ id: req.id, rect, overlaps: true });
        taken.add(rect);
      }
    }
  }
  return placed;
}

/** How much of the spots a label shuns a candidate covers (0 when it shuns none). */
function shunCost(c: Rect, shun: readonly Rect[] | undefined): number {
  let n = 0;
  if (shun) for (const r of shun) n += overlapArea(c, r);
  return n;
}

/** The grid's cell: about a token label's width on a whole-map picture. */
const CELL_PX = 48;
