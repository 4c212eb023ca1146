import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { buildMap, type MapModel } from '../engine/map/index.js';
import { renderBattlefieldHere } from './battlefield.js';
import { setLayerCacheDir } from './layerCacheDir.js';
import { clearRenderCache, releaseScratch, renderCacheStatsHere, renderMapHere } from './renderMap.js';
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
let idleTimer: NodeJS.Timeout | undefined;
/** Pictures finished since the last collection. */
let sinceCollect = 0;
/** Until then (performance.now of this thread) the scratch canvas is kept even when idle: a tick is due (the pool's holdRenderThreads). */
let holdUntil = 0;
/** The last message ended with a full collection (nothing to collect again until the next picture). */
let justCollected = false;
/** Idle passes run so far (the stats report it; tests wait on it). */
let idlePasses = 0;
/** How long the thread has nothing in hand before its idle pass. */
const IDLE_PASS_MS = 25;
/**
 * In a long burst (a busy minute: the thread is never idle for minutes) the thread collects after
 * this many pictures anyway, so their left-behind pixels (about 10 MB each) do not pile up to what
 * V8 waits for (measured: a render thread's share of the busy minute's resident memory). A
 * collection of this thread's small heap costs a few ms against about 50 ms a picture.
 */
const COLLECT_EVERY = 3;

/**
 * After every message: a full collection once COLLECT_EVERY pictures were finished since the last
 * one, else a young-generation collection (about a millisecond): the pixels' copy a finished
 * picture handed the encoder is young, so the scavenge gives its 10 MB back at once instead of at
 * the next full collection (measured on the busy minute of 1,000 campaigns: the two render threads
 * held 45-79 MB of such copies between full collections). Then, once nothing is in hand, the idle
 * pass is due IDLE_PASS_MS later (a burst of pictures reaches it once, after its last picture).
 */
function afterMessage(): void {
  justCollected = false;
  if (collect) {
    if (++sinceCollect >= COLLECT_EVERY) {
      sinceCollect = 0;
      justCollected = true;
      collect();
    } else {
      collect({ type: 'minor' });
    }
  }
  if (inHand > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(idlePass, IDLE_PASS_MS);
  idleTimer.unref();
}

/**
 * The thread has had nothing to draw for a moment: it lets go of its scratch canvas (unless held
 * for a due tick: then at the hold's end) and collects, so what the last picture left goes back
 * at once, after the answer was sent, and no picture waits for it. Measured for issue 25 (100
 * Valormr campaigns, a map each, the process's resident memory right after the last picture,
 * rss100Mb): the scratch canvas held about 20 MB of it. A picture after a pause draws on a new
 * canvas: 7-12 ms more CPU drawn alone in one thread (its first drawing into fresh pages), but no
 * difference measured on this thread (pictures 100 ms apart, 6 pairs alternated with the tree
 * before: median CPU 37.0 against 38.4 ms; docs/architecture.md); the pictures of a burst reuse
 * it. While held (the scheduler's pre-warm before a due tick) the canvas is kept, so the scheduled
 * tick's picture draws on it as before.
 */
function idlePass(): void {
  if (inHand > 0) return;
  idlePasses++;
  const heldFor = holdUntil - performance.now();
  if (heldFor > 0) {
    // Held: the canvas stays; a collection only if the last message did not just run a full one.
    if (!justCollected) collect?.();
    justCollected = true;
    sinceCollect = 0;
    idleTimer = setTimeout(idlePass, heldFor);
    idleTimer.unref();
    return;
  }
  releaseScratch();
  // The canvas goes back with its wrapper, at this collection.
  collect?.();
  justCollected = true;
  sinceCollect = 0;
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

/** A request that is a job for this thread: a hold is no job (the message handler takes it first). */
type Job = Exclude<RenderRequest, { readonly kind: 'hold' }>;

async function handle(req: Job): Promise<void> {
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
      port?.postMessage({ id: req.id, stats: { ...renderCacheStatsHere(), threadHeapBytes: heapTotal, threadExternalBytes: external, idlePasses } } satisfies RenderReply);
      return;
    }
  }
}

/** Keeps the scratch canvas `ms` from now even when idle (a tick is due: the pool's holdRenderThreads). */
function hold(ms: number): void {
  holdUntil = Math.max(holdUntil, performance.now() + ms);
}

port.on('message', (req: RenderRequest) => {
  // A hold is no picture: it leaves the collections as they were (no count, no pass).
  if (req.kind === 'hold') {
    hold(req.ms);
    return;
  }
  inHand++;
  handle(req)
    .catch((err: unknown) => {
      if (req.id !== 0) port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) } satisfies RenderReply);
    })
    .finally(() => {
      inHand--;
      afterMessage();
    });
});
