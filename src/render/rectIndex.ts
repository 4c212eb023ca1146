import type { Rect } from './layout.js';

/** The area two rectangles share (0 when they only touch or lie apart). */
export function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Rectangles bucketed by a grid of square cells, so a label's candidate spot is compared with
 * what lies near it instead of with every token and label of the picture (an 800-army map has
 * ~2,000 of them; placeLabels.ts). Each rectangle keeps the index it was added with, and a query
 * sums the overlaps in that order: the same sum, bit for bit, as a walk over the whole list (a
 * rectangle that does not overlap adds 0, which leaves a sum unchanged).
 */
export class RectIndex {
  private readonly rects: Rect[] = [];
  private readonly cells = new Map<number, number[]>();
  /** Rectangles too large (or not finite) to bucket: checked by every query. */
  private readonly wide: number[] = [];
  /** The last query that met each rectangle (no rectangle counted twice). */
  private seen = new Int32Array(64);
  private query = 0;
  /** The rectangles the current query met (the first `hitCount`). */
  private hits = new Int32Array(64);
  private hitCount = 0;

  /** `linearMax`: up to this many rectangles taken, a query walks the list (LINEAR_MAX). */
  constructor(private readonly cell: number, private readonly linearMax = LINEAR_MAX) {}

  add(r: Rect): void {
    const i = this.rects.length;
    this.rects.push(r);
    if (this.seen.length <= i) {
      const grown = new Int32Array(this.seen.length * 2);
      grown.set(this.seen);
      this.seen = grown;
    }
    const span = this.span(r);
    if (!span) {
      this.wide.push(i);
      return;
    }
    for (let cy = span.y0; cy <= span.y1; cy++) {
      for (let cx = span.x0; cx <= span.x1; cx++) {
        const key = cellKey(cx, cy);
        const list = this.cells.get(key);
        if (list) list.push(i);
        else this.cells.set(key, [i]);
      }
    }
  }

  /**
   * The summed overlap area of `g` with every rectangle taken, in the order they were taken; or,
   * once that sum so far reaches `enough`, the sum so far (a caller that only wants a spot cheaper
   * than one it has: the terms are never negative, so the whole sum would not be below `enough`).
   */
  overlap(g: Rect, enough = Number.POSITIVE_INFINITY): number {
    const span = this.rects.length <= this.linearMax ? undefined : this.span(g);
    if (!span) {
      let n = 0;
      for (const t of this.rects) {
        n += overlapArea(g, t);
        if (n >= enough) return n;
      }
      return n;
    }
    this.query++;
    this.hitCount = 0;
    for (const i of this.wide) this.meet(i);
    for (let cy = span.y0; cy <= span.y1; cy++) {
      for (let cx = span.x0; cx <= span.x1; cx++) {
        const list = this.cells.get(cellKey(cx, cy));
        if (list) for (const i of list) this.meet(i);
      }
    }
    // One buffer for every query, kept in ascending order as rectangles are met (a query meets
    // about a dozen, mostly in order already): a sort of a view of it each query, or an array and a
    // comparator, were most of the query's cost (every candidate spot of every label of an 800-army map).
    const hits = this.hits;
    let n = 0;
    for (let k = 0; k < this.hitCount; k++) {
      n += overlapArea(g, this.rects[hits[k] as number] as Rect);
      if (n >= enough) return n;
    }
    return n;
  }

  private meet(i: number): void {
    if (this.seen[i] === this.query) return;
    this.seen[i] = this.query;
    if (this.hitCount === this.hits.length) {
      const grown = new Int32Array(this.hits.length * 2);
      grown.set(this.hits);
      this.hits = grown;
    }
    const hits = this.hits;
    let k = this.hitCount++;
    for (; k > 0 && (hits[k - 1] as number) > i; k--) hits[k] = hits[k - 1] as number;
    hits[k] = i;
  }

  /** The cells a rectangle touches (edges included), or undefined when it is too large or not finite to bucket. */
  private span(r: Rect): { x0: number; y0: number; x1: number; y1: number } | undefined {
    const x0 = Math.floor(r.x / this.cell);
    const y0 = Math.floor(r.y / this.cell);
    const x1 = Math.floor((r.x + r.w) / this.cell);
    const y1 = Math.floor((r.y + r.h) / this.cell);
    if (!(Number.isFinite(x0) && Number.isFinite(y0) && Number.isFinite(x1) && Number.isFinite(y1))) return undefined;
    if (x1 < x0 || y1 < y0 || (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS || Math.abs(x0) > CELL_LIMIT || Math.abs(y0) > CELL_LIMIT
      || Math.abs(x1) > CELL_LIMIT || Math.abs(y1) > CELL_LIMIT) return undefined;
    return { x0, y0, x1, y1 };
  }
}

/**
 * Up to this many rectangles taken, a query walks the whole list (the same sum, in the same order):
 * for a map of a few dozen armies (Valormr: ~400 hex-id obstacles) the grid's lookups and per-query
 * sort cost more than the walk (its snapshot was 5-10 ms slower with the grid, alternated).
 */
const LINEAR_MAX = 600;

/** Grid cells a rectangle may cover before it is kept aside as wide. */
const MAX_CELLS = 64;
/** Cell coordinates beyond this (a picture millions of pixels across) are kept aside as wide. */
const CELL_LIMIT = 1 << 20;
const cellKey = (cx: number, cy: number): number => (cx + CELL_LIMIT) * (2 * CELL_LIMIT + 1) + (cy + CELL_LIMIT);
