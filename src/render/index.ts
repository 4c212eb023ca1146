import type { MapModel } from '../engine/map/index.js';
import type { BattlefieldSketch, MapView } from '../engine/views/index.js';
import { mapKey } from './mapKey.js';
import type { AnimationOptions } from './animate.js';
import type { RenderMapOptions } from './renderMapOptions.js';
import { configureRenderPool, drawEarly, runPicture, type PictureJob } from './renderPool.js';

/**
 * Map and battlefield pictures, drawn and encoded on render threads (renderPool.ts) so the bot's
 * event loop never waits on one. This thread sends plain data and loads the drawing code (canvas,
 * fonts) only if no render thread can start and it must draw itself.
 */
export async function renderMap(map: MapModel, view: MapView, options: RenderMapOptions, how: { readonly reuse?: boolean } = {}): Promise<Buffer> {
  return runPicture(...mapJob(map, view, options), how);
}

export async function renderBattlefield(sketch: BattlefieldSketch): Promise<Buffer> {
  return runPicture(...battlefieldJob(sketch));
}

/**
 * Starts drawing a map or battlefield picture that `renderMap` / `renderBattlefield` will be asked
 * for soon, when a render thread is free (renderPool.ts drawEarly): the ask then finds it drawn.
 */
export function drawMapEarly(map: MapModel, view: MapView, options: RenderMapOptions): void {
  drawEarly(...mapJob(map, view, options));
}

export function drawBattlefieldEarly(sketch: BattlefieldSketch): void {
  drawEarly(...battlefieldJob(sketch));
}

function mapJob(map: MapModel, view: MapView, options: RenderMapOptions): [PictureJob, () => Promise<Buffer>] {
  return [{ kind: 'map', key: mapKey(map, options.cacheKey), data: () => map.data, view, options },
    async () => (await import('./renderMap.js')).renderMapHere(map, view, options)];
}

function battlefieldJob(sketch: BattlefieldSketch): [PictureJob, () => Promise<Buffer>] {
  return [{ kind: 'battlefield', sketch }, async () => (await import('./battlefield.js')).renderBattlefieldHere(sketch)];
}

export { closeRenderPool, holdRenderThreads, RenderThreadDied } from './renderPool.js';
export { releasePicture } from './pictureBytes.js';

/** Keeps the static layers of map pictures on disk in this folder (layerFile.ts; created when first written). */
export function keepLayersIn(dir: string): void {
  configureRenderPool({ layerCacheDir: dir });
}
/**
 * The time-lapse and the campaign book's maps (animate.ts): libvips is loaded only when one is
 * made, and encodes on its own threads.
 */
export async function animatedWebp(frames: readonly Buffer[], opts: AnimationOptions): Promise<Buffer> {
  return (await import('./animate.js')).animatedWebp(frames, opts);
}

export async function stillWebp(picture: Buffer): Promise<Buffer> {
  return (await import('./animate.js')).stillWebp(picture);
}
