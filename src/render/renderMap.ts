import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { Hex } from '../engine/hex/hex.js';
import type { MapModel } from '../engine/map/mapModel.js';
import type { MapView } from '../engine/views/mapView.js';
import { encodePng } from './encodePng.js';
import { ensureFonts } from './fonts.js';
import { computeLayout } from './layout.js';
import { drawOverlay, type TitleText } from './overlay.js';
import { buildStaticLayer, legendEntryCount, type StaticLayer, type ViewKind } from './staticLayer.js';

export interface RenderMapOptions {
  /** Zoom on the hexes within `radius` (default 5) of this hex. */
  readonly around?: Hex;
  readonly radius?: number;
  /** Place, region and water names (default true). Commander and courier labels always show. */
  readonly labels?: boolean;
  /** Hex ids on every hex, on every other column and row, or none (default: all). */
  readonly hexIds?: 'all' | 'subset' | 'none';
  readonly title: TitleText;
  /** Width of the whole-map picture (default 1,600 px). */
  readonly width?: number;
  /**
   * Shares the cached static layer between MapModel objects built from the same scenario (e.g.
   * the scenario id). Without it the cache is keyed by the MapModel object.
   */
  readonly cacheKey?: string;
}

/**
 * Static layers (terrain, rivers, roads, crossings, symbols, hex ids, legend) are drawn once per
 * map and picture variant and kept in a small least-recently-used cache bounded by pixel memory.
 * A snapshot copies the cached layer and draws only the title, labels and tokens on top.
 */
const CACHE_BUDGET_BYTES = 64 * 1024 * 1024;
const cache = new Map<string, { layer: StaticLayer; bytes: number }>();
let cachedBytes = 0;
const mapIds = new WeakMap<MapModel, number>();
let nextMapId = 1;

function mapKey(map: MapModel, cacheKey: string | undefined): string {
  if (cacheKey !== undefined) return `k:${cacheKey}`;
  let id = mapIds.get(map);
  if (id === undefined) {
    id = nextMapId++;
    mapIds.set(map, id);
  }
  return `m:${id}`;
}

function staticLayerFor(map: MapModel, opts: RenderMapOptions, kind: ViewKind): StaticLayer {
  const hexIds = opts.hexIds ?? 'all';
  const zoom = opts.around ? `${opts.around.q},${opts.around.r},${opts.radius ?? 5}` : 'full';
  const key = `${mapKey(map, opts.cacheKey)}|${opts.width ?? 1600}|${zoom}|${hexIds}|${kind}`;
  const hit = cache.get(key);
  if (hit) {
    // refresh its place in the LRU order
    cache.delete(key);
    cache.set(key, hit);
    return hit.layer;
  }
  const layout = computeLayout(map.width, map.height, {
    ...(opts.width !== undefined ? { width: opts.width } : {}),
    ...(opts.around ? { around: opts.around, radius: opts.radius ?? 5 } : {}),
    legendEntries: legendEntryCount(kind),
  });
  const layer = buildStaticLayer(map, layout, { hexIds, kind });
  const bytes = layout.width * layout.height * 4;
  cache.set(key, { layer, bytes });
  cachedBytes += bytes;
  for (const [k, v] of cache) {
    if (cachedBytes <= CACHE_BUDGET_BYTES || k === key) break;
    cache.delete(k);
    cachedBytes -= v.bytes;
  }
  return layer;
}

/** Forgets every cached static layer (tests, or after a referee edits a map). */
export function clearRenderCache(): void {
  cache.clear();
  cachedBytes = 0;
}

export function renderCacheStats(): { entries: number; bytes: number } {
  return { entries: cache.size, bytes: cachedBytes };
}

/**
 * Draws a map snapshot as a PNG: the whole map (about 1,600 px wide) or, with `around`, a zoom on
 * a region with bigger hexes. `view` decides what is shown (publicMapView or commanderMapView);
 * the renderer never sees campaign state.
 */
export async function renderMap(map: MapModel, view: MapView, options: RenderMapOptions): Promise<Buffer> {
  return encodePng(renderMapCanvas(map, view, options));
}

/** The snapshot before encoding (tests and the benchmark read its pixels). */
export function renderMapCanvas(map: MapModel, view: MapView, options: RenderMapOptions): Canvas {
  ensureFonts();
  const layer = staticLayerFor(map, options, view.kind);
  const { width, height } = layer.layout;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(layer.canvas, 0, 0);
  drawOverlay(ctx, layer, view, { labels: options.labels ?? true, title: options.title });
  return canvas;
}

/** The layout a snapshot with these options uses (for callers that map pixels back to hexes). */
export function snapshotLayout(map: MapModel, options: RenderMapOptions, kind: ViewKind = 'public'): StaticLayer['layout'] {
  ensureFonts();
  return staticLayerFor(map, options, kind).layout;
}
