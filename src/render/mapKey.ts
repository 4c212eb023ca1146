import type { MapModel } from '../engine/map/index.js';

/**
 * The cache key of a map's static layers: the caller's key (campaigns drawn from one scenario
 * share it), or one per MapModel object. Here apart from the drawing code so the main thread can
 * name a map for the render threads without loading canvas.
 */
const mapIds = new WeakMap<MapModel, number>();
let nextMapId = 1;

export function mapKey(map: MapModel, cacheKey: string | undefined): string {
  if (cacheKey !== undefined) return `k:${cacheKey}`;
  let id = mapIds.get(map);
  if (id === undefined) {
    id = nextMapId++;
    mapIds.set(map, id);
  }
  return `m:${id}`;
}

/** The layout and cache key of the static layer these options draw on. */
