import { parentPort, workerData } from 'node:worker_threads';
import { buildMap, type MapModel } from '../engine/map/index.js';
import { renderBattlefieldHere } from './battlefield.js';
import { setLayerCacheDir } from './layerCacheDir.js';
import { clearRenderCache, renderCacheStatsHere, renderMapHere } from './renderMap.js';
import type { RenderReply, RenderRequest } from './renderProtocol.js';
import { lowerThisThreadPriority } from './threadPriority.js';

/**
 * A render thread: draws and encodes the pictures the pool sends (see renderPool.ts). It keeps the
 * map models it built from the data the pool sent once per map, a bounded number of them, and
 * asks for the data again for a map it let go.
 */
const port = parentPort;
if (!port) throw new Error('renderWorker.ts runs as a worker thread (see renderPool.ts)');

setLayerCacheDir((workerData as { layerCacheDir?: string } | null)?.layerCacheDir);
// Pictures give way to the event loop (interactions, heartbeats, ticks) when cores are short.
lowerThisThreadPriority();

const MAX_MODELS = 16;
const models = new Map<string, MapModel>();

function modelFor(key: string, data: Parameters<typeof buildMap>[0] | undefined): MapModel | undefined {
  const hit = models.get(key);
  if (hit) {
    models.delete(key);
    models.set(key, hit);
    return hit;
  }
  if (!data) return undefined;
  const map = buildMap(data);
  models.set(key, map);
  for (const k of models.keys()) {
    if (models.size <= MAX_MODELS) break;
    models.delete(k);
  }
  return map;
}

/** Answers with the PNG moved (not copied) to the main thread. */
function answerPicture(id: number, png: Buffer): void {
  const bytes = new Uint8Array(png);
  port?.postMessage({ id, png: bytes } satisfies RenderReply, [bytes.buffer]);
}

async function handle(req: RenderRequest): Promise<void> {
  switch (req.kind) {
    case 'map': {
      const map = modelFor(req.key, req.data);
      if (!map) {
        port?.postMessage({ id: req.id, needMap: true } satisfies RenderReply);
        return;
      }
      answerPicture(req.id, await renderMapHere(map, req.view, { ...req.options, cacheKey: req.key }));
      return;
    }
    case 'battlefield':
      answerPicture(req.id, await renderBattlefieldHere(req.sketch));
      return;
    case 'clear':
      clearRenderCache();
      return;
    case 'stats':
      port?.postMessage({ id: req.id, stats: renderCacheStatsHere() } satisfies RenderReply);
      return;
  }
}

port.on('message', (req: RenderRequest) => {
  handle(req).catch((err: unknown) => {
    if (req.id !== 0) port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) } satisfies RenderReply);
  });
});
