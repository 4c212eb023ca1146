import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { buildMap, type MapModel } from '../engine/map/index.js';
import { renderBattlefieldHere } from './battlefield.js';
import { setLayerCacheDir } from './layerCacheDir.js';
import { clearRenderCache, renderCacheStatsHere, renderMapHere } from './renderMap.js';
import type { RenderReply, RenderRequest } from './renderProtocol.js';
import { lowerEncoderThreads, lowerThisThreadPriority } from './threadPriority.js';

/**
 * A render thread: draws and encodes the pictures the pool sends (see renderPool.ts). It keeps the
 * map models it built from the data the pool sent once per map, a bounded number of them, and
 * asks for the data again for a map it let go.
 */
const port = parentPort;
if (!port) throw new Error('renderWorker.ts runs as a worker thread (see renderPool.ts)');

setLayerCacheDir((workerData as { layerCacheDir?: string } | null)?.layerCacheDir);
// Pictures give way to the event loop (interactions, heartbeats, ticks) when cores are short.
const niceness = lowerThisThreadPriority();

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

/**
 * The garbage collector, to call once the thread has nothing left to draw. Each picture leaves
 * about 10 MB behind: the canvas hands its pixels to the encoder as a fresh copy (`canvas.data()`)
 * held outside the JavaScript heap, which V8 collects only when that outside memory has piled up
 * (tens of MB a thread). Collecting when idle gives it back at once, after the answer is sent, so
 * no picture waits for it. (The same way test runners read a heap: the flag set at run time, the
 * function taken from a fresh context.) Undefined where the runtime refuses it.
 */
const collect = ((): ((how?: { readonly type: 'minor' | 'major' }) => void) | undefined => {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as (how?: { readonly type: 'minor' | 'major' }) => void) : undefined;
  } catch {
    return undefined;
  }
})();
let inHand = 0;
let collectTimer: NodeJS.Timeout | undefined;
/** Pictures finished since the last collection. */
let sinceCollect = 0;
/**
 * In a long burst (a busy minute: the thread is never idle for minutes) the thread collects after
 * this many pictures anyway, so their left-behind pixels (about 10 MB each) do not pile up to what
 * V8 waits for (measured: a render thread's share of the busy minute's resident memory). A
 * collection of this thread's small heap costs a few ms against about 50 ms a picture.
 */
const COLLECT_EVERY = 3;

/**
 * Collects once no picture has been asked for a moment (a burst of pictures is collected once,
 * after it), or at once when COLLECT_EVERY pictures were finished since the last collection.
 * Between those, a young-generation collection after every picture (about a millisecond): the
 * pixels' copy a finished picture handed the encoder is young, so the scavenge gives its 10 MB
 * back at once instead of at the next full collection (measured on the busy minute of 1,000
 * campaigns: the two render threads held 45-79 MB of such copies between full collections).
 */
function collectWhenIdle(): void {
  if (!collect) return;
  if (++sinceCollect >= COLLECT_EVERY) {
    sinceCollect = 0;
    collect();
    return;
  }
  collect({ type: 'minor' });
  if (inHand > 0) return;
  clearTimeout(collectTimer);
  collectTimer = setTimeout(() => {
    if (inHand > 0) return;
    sinceCollect = 0;
    collect();
  }, 25);
  collectTimer.unref();
}

/**
 * Answers with the PNG moved (not copied) to the main thread, after giving the encoder's threads
 * (libvips's, which do not inherit this thread's niceness) this thread's priority (well under a
 * millisecond: a few small reads of /proc).
 */
function answerPicture(id: number, png: Buffer): void {
  if (niceness !== undefined) lowerEncoderThreads(niceness);
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
    case 'stats': {
      // In a worker, heapTotal and external are this thread's.
      const { heapTotal, external } = process.memoryUsage();
      port?.postMessage({ id: req.id, stats: { ...renderCacheStatsHere(), threadHeapBytes: heapTotal, threadExternalBytes: external } } satisfies RenderReply);
      return;
    }
  }
}

port.on('message', (req: RenderRequest) => {
  inHand++;
  handle(req)
    .catch((err: unknown) => {
      if (req.id !== 0) port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) } satisfies RenderReply);
    })
    .finally(() => {
      inHand--;
      collectWhenIdle();
    });
});
