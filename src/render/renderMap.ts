import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { MapModel } from '../engine/map/index.js';
import type { MapView } from '../engine/views/index.js';
import { encodePng } from './encodePng.js';
import { readLayerFile, writeLayerFile } from './layerFile.js';
import { ensureFonts } from './fonts.js';
import { computeLayout } from './layout.js';
import { drawOverlay } from './overlay.js';
import { mapKey } from './mapKey.js';
import { clearWorkerCaches, workerCacheStats } from './renderPool.js';
import type { CacheStats } from './renderProtocol.js';
import { legendEntryCount, type ViewKind } from './legend.js';
import { buildStaticLayer, type StaticLayer } from './staticLayer.js';
import { clearLabelSprites } from './labelSprites.js';
import { clearTokenSprites } from './tokenSprites.js';
import type { RenderMapOptions } from './renderMapOptions.js';

export type { RenderMapOptions };

/**
 * Static layers (terrain, rivers, roads, crossings, symbols, hex ids, legend) are drawn once per
 * map and picture variant and kept in a small least-recently-used cache bounded by pixel memory.
 * A snapshot copies the cached layer and draws only the title, labels and tokens on top.
 */
const CACHE_BUDGET_BYTES = 64 * 1024 * 1024;
const cache = new Map<string, { layer: StaticLayer; bytes: number }>();
let cachedBytes = 0;
function layerSpec(map: MapModel, opts: RenderMapOptions, kind: ViewKind): { key: string; hexIds: 'all' | 'subset' | 'none'; scale: number; kept: boolean; layout: () => StaticLayer['layout'] } {
  const hexIds = opts.hexIds ?? 'all';
  const zoom = opts.around ? `${opts.around.q},${opts.around.r},${opts.radius ?? 5}` : 'full';
  const scale = opts.scale ?? 1;
  if (!(scale > 0 && scale <= 8)) throw new Error(`a map picture's scale must be above 0 and at most 8, not ${scale}`);
  return {
    key: `${mapKey(map, opts.cacheKey)}|${opts.width ?? 1600}${scale === 1 ? '' : `x${scale}`}|${zoom}|${hexIds}|${kind}`,
    hexIds,
    scale,
    // Whole-map layers of a content-addressed map (the campaign's key) are kept on disk too;
    // zooms are small and many, and a MapModel object's key means nothing to another thread.
    kept: opts.cacheKey !== undefined && !opts.around,
    layout: () => computeLayout(map.width, map.height, {
      ...(opts.width !== undefined ? { width: opts.width } : {}),
      ...(opts.around ? { around: opts.around, radius: opts.radius ?? 5 } : {}),
      legendEntries: legendEntryCount(kind),
    }),
  };
}

/**
 * The static layer for a picture, from the cache, its file, or drawn (then its file is being
 * written: `written` resolves once it is, or was given up).
 */
function staticLayerFor(map: MapModel, opts: RenderMapOptions, kind: ViewKind): { readonly layer: StaticLayer; readonly written?: Promise<void> } {
  ensureFonts();
  const { key, hexIds, scale, kept, layout: layoutOf } = layerSpec(map, opts, kind);
  const hit = cache.get(key);
  if (hit) {
    // refresh its place in the LRU order
    cache.delete(key);
    cache.set(key, hit);
    return { layer: hit.layer };
  }
  const layout = layoutOf();
  let layer = kept ? readLayerFile(key, layout, scale) : undefined;
  let written: Promise<void> | undefined;
  if (!layer) {
    const built = buildStaticLayer(map, layout, { hexIds, kind, scale });
    if (kept) written = writeLayerFile(key, built);
    layer = built;
  }
  const bytes = layer.canvas.width * layer.canvas.height * 4;
  cache.set(key, { layer, bytes });
  cachedBytes += bytes;
  for (const [k, v] of cache) {
    if (cachedBytes <= CACHE_BUDGET_BYTES || k === key) break;
    cache.delete(k);
    cachedBytes -= v.bytes;
  }
  return written ? { layer, written } : { layer };
}

/** Forgets every cached static layer, in this thread and in the render threads (tests, or after a referee edits a map). */
export function clearRenderCache(): void {
  cache.clear();
  cachedBytes = 0;
  clearTokenSprites();
  clearLabelSprites();
  clearWorkerCaches();
}

/** The static layers cached in this thread, and the scratch canvases it holds. */
export function renderCacheStatsHere(): CacheStats {
  return { entries: cache.size, bytes: cachedBytes, scratchBytes: scratchBytes() };
}

/** The static layers cached in this thread and in the render threads. */
export async function renderCacheStats(): Promise<CacheStats> {
  const workers = await workerCacheStats();
  return { entries: cache.size + workers.entries, bytes: cachedBytes + workers.bytes };
}

/**
 * Draws a map snapshot as a PNG: the whole map (about 1,600 px wide) or, with `around`, a zoom on
 * a region with bigger hexes. `view` decides what is shown (publicMapView or commanderMapView);
 * the renderer never sees campaign state. Drawn and encoded on a render thread (renderPool.ts):
 * the caller's event loop does not wait on it. The thread gets the map's data once per cache key
 * (`cacheKey`, else the MapModel object) and keeps its own model and static layers.
 */

/**
 * One canvas per picture size, reused by every snapshot encoded in this thread: the encoder copies
 * the pixels before it yields, so the canvas is free again at once. (A fresh 10 MB canvas per
 * picture is native memory the garbage collector does not see, and piles up between collections.)
 * A render thread lets them go once it is idle and not held for a due tick (`releaseScratch`,
 * renderWorker.ts): a burst of pictures reuses one canvas, a picture after a pause draws on a new one.
 */
const scratch = new Map<string, Canvas>();
const SCRATCH_SIZES = 4;

/**
 * Lets go of the scratch canvases (the next snapshot of each size draws on a new one). A
 * render thread calls it when idle: measured on the Valormr map, a scratch canvas that has drawn
 * and handed over pictures holds about 20 MB of resident memory (its pixels and the copy the
 * canvas keeps of them), which goes back at the next garbage collection; the first picture on a
 * new canvas draws into fresh pages (7-12 ms more CPU drawn alone in one thread; no difference
 * measured on a render thread: renderWorker.ts).
 */
export function releaseScratch(): void {
  scratch.clear();
}

/** Bytes of pixels held by the scratch canvases (4 a pixel; diagnosis and tests). */
export function scratchBytes(): number {
  let bytes = 0;
  for (const c of scratch.values()) bytes += c.width * c.height * 4;
  return bytes;
}

function scratchCanvas(width: number, height: number): Canvas {
  const key = `${width}x${height}`;
  let canvas = scratch.get(key);
  if (canvas) {
    scratch.delete(key);
  } else {
    canvas = createCanvas(width, height);
    for (const k of scratch.keys()) {
      if (scratch.size < SCRATCH_SIZES) break;
      scratch.delete(k);
    }
  }
  scratch.set(key, canvas);
  return canvas;
}

/** `renderMap` in this thread: draws with the cached static layer and encodes. */
export async function renderMapHere(map: MapModel, view: MapView, options: RenderMapOptions): Promise<Buffer> {
  const { layer, written } = staticLayerFor(map, options, view.kind);
  const canvas = scratchCanvas(layer.canvas.width, layer.canvas.height);
  drawSnapshot(canvas, layer, view, options);
  // Opaque: the static layer covers the whole picture with paper (buildStaticLayer), and
  // everything drawn over it composites source-over, so no pixel scan is needed. A layer drawn
  // for this picture is encoded for its file meanwhile (libvips's threads): the picture is
  // answered once the file is written, so a thread stopped right after does not lose it.
  const [png] = await Promise.all([encodePng(canvas, { opaque: true }), written]);
  return png;
}

/** The snapshot before encoding, on a canvas of its own, drawn in this thread (tests and the benchmark read its pixels). */
export function renderMapCanvas(map: MapModel, view: MapView, options: RenderMapOptions): Canvas {
  const { layer } = staticLayerFor(map, options, view.kind);
  const canvas = createCanvas(layer.canvas.width, layer.canvas.height);
  drawSnapshot(canvas, layer, view, options);
  return canvas;
}

/**
 * Copies the static layer (opaque, the whole picture, already at its scale) and draws the view on
 * top, at the layer's scale. The layer is copied as it is ('copy': no blending with what the
 * reused canvas held; the same pixels, as every layer pixel is opaque).
 */
function drawSnapshot(canvas: Canvas, layer: StaticLayer, view: MapView, options: RenderMapOptions): void {
  const ctx = canvas.getContext('2d');
  ctx.save();
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(layer.canvas, 0, 0);
  ctx.globalCompositeOperation = 'source-over';
  ctx.scale(layer.scale, layer.scale);
  drawOverlay(ctx, layer, view, { labels: options.labels ?? true, title: options.title });
  ctx.restore();
}

/** The layout a snapshot with these options uses (for callers that map pixels back to hexes); draws nothing. */
export function snapshotLayout(map: MapModel, options: RenderMapOptions, kind: ViewKind = 'public'): StaticLayer['layout'] {
  return layerSpec(map, options, kind).layout();
}
