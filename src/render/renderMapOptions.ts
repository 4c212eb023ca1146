import type { Hex } from '../engine/hex/index.js';
import type { TitleText } from './overlay.js';

/** What a map picture shows: shared by the renderer and the worker pool that runs it. */
export interface RenderMapOptions {
  /** Zoom on the hexes within `radius` (default 5) of this hex. */
  readonly around?: Hex;
  readonly radius?: number;
  /** Place, region and water names (default true). Commander and courier labels always show. */
  readonly labels?: boolean;
  /** Hex ids on every hex, on every other column and row, or none (default: all). */
  readonly hexIds?: 'all' | 'subset' | 'none';
  readonly title: TitleText;
  /** Width of the whole-map picture's layout (default 1,600 px). */
  readonly width?: number;
  /**
   * Pixels per layout pixel (default 1): the picture is the layout of `width` drawn `scale` times
   * larger (or smaller), every line and letter with it, so pictures of one layout at two scales
   * have the same aspect and show the same thing (the web page's zoom levels).
   */
  readonly scale?: number;
  /**
   * Shares the cached static layer between MapModel objects built from the same scenario (e.g.
   * the scenario id). Without it the cache is keyed by the MapModel object.
   */
  readonly cacheKey?: string;
}
