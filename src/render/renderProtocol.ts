import type { MapData } from '../engine/map/index.js';
import type { BattlefieldSketch } from '../engine/views/index.js';
import type { MapView } from '../engine/views/index.js';
import type { RenderMapOptions } from './renderMapOptions.js';

/** What the render pool (renderPool.ts) and its threads (renderWorker.ts) say to each other. */

export interface CacheStats {
  readonly entries: number;
  readonly bytes: number;
  /** The render threads' own V8 heaps and the memory outside them their objects hold (pixel copies), in bytes (diagnosis: bench/memoryBreakdown.mjs). */
  readonly threadHeapBytes?: number;
  readonly threadExternalBytes?: number;
  /** Pixels of the scratch canvases the threads keep for their next picture (renderMap.ts), in bytes. */
  readonly scratchBytes?: number;
  /** Times the threads went idle and let go of what a burst reuses (renderWorker.ts; tests wait on it). */
  readonly idlePasses?: number;
}

/** A job as a worker receives it. `id` 0 asks for no answer. */
export type RenderRequest =
  | { readonly id: number; readonly kind: 'map'; readonly key: string; readonly data?: MapData; readonly view: MapView; readonly options: RenderMapOptions }
  | { readonly id: number; readonly kind: 'battlefield'; readonly sketch: BattlefieldSketch }
  | { readonly id: number; readonly kind: 'clear' }
  | { readonly id: number; readonly kind: 'stats' }
  /** Keep what the next picture reuses for `ms` from now even when idle: a tick is due (holdRenderThreads). */
  | { readonly id: number; readonly kind: 'hold'; readonly ms: number };

/** A worker's answer: the PNG, the cache figures, "send me the map data", or what went wrong. */
export interface RenderReply {
  readonly id: number;
  readonly png?: Uint8Array;
  readonly stats?: CacheStats;
  readonly needMap?: boolean;
  readonly error?: string;
}
