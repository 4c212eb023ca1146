import { createHash } from 'node:crypto';
import { availableParallelism, totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { MapData } from '../engine/map/index.js';
import type { BattlefieldSketch, MapView } from '../engine/views/index.js';
import { keepLibvipsLoaded } from './keepLibvipsLoaded.js';
import { layerCacheDir, setLayerCacheDir } from './layerCacheDir.js';
import type { RenderMapOptions } from './renderMapOptions.js';
import type { CacheStats, RenderReply, RenderRequest } from './renderProtocol.js';
import { forgetPictures, pictureSoon, setRecentBudget, sharedPicture } from './sharedPictures.js';

/**
 * Pictures are drawn and encoded on worker threads, so the event loop of the bot (the gateway,
 * interaction replies, autocomplete) never waits on a picture. A job carries only plain data: the
 * view, the options and, the first time a worker meets a map, the map's scenario data, from which
 * the worker builds and keeps its own map model and static layers.
 *
 * Workers start on the first picture, are unreferenced while idle (they never keep the process
 * alive) and can be stopped with `closeRenderPool()`. If no worker can start, pictures are drawn
 * in this thread instead. A worker that dies while it draws (after it has answered before) is
 * replaced and its pictures are tried once more on a new one; a picture whose second try dies too
 * is refused with `RenderThreadDied` (drawing it again would only kill another thread).
 *
 * There are as many threads as cores (at most four, and fewer where memory is small), started
 * only when pictures wait: one picture at a time keeps one thread. A map goes to a thread that
 * already has its map (and so its static layer) when one is free. The same picture asked again
 * while it is drawn, or within a short while after (a busy minute where campaigns of one
 * scenario post the same map, a delivery retried after a rate limit), is drawn once: callers
 * share the bytes (`sameJob`).
 */

/** A picture was given up: the render thread died drawing it, twice. */
export class RenderThreadDied extends Error {
  constructor(cause: Error) {
    super(`the picture could not be drawn: the render thread died twice while drawing it (${cause.message})`);
    this.name = 'RenderThreadDied';
  }
}

export type PictureJob =
  | { readonly kind: 'map'; readonly key: string; readonly data: () => MapData; readonly view: MapView; readonly options: RenderMapOptions }
  | { readonly kind: 'battlefield'; readonly sketch: BattlefieldSketch };

interface Task {
  readonly job: PictureJob;
  /** Draws the picture in this thread (no worker could start). */
  readonly here: () => Promise<Buffer>;
  readonly resolve: (png: Buffer) => void;
  readonly reject: (err: Error) => void;
  /** Render threads that died holding this picture. */
  deaths: number;
}

interface Slot {
  readonly worker: Worker;
  /** Jobs sent and not answered. */
  inFlight: number;
  /** Map keys whose data this worker has. */
  readonly known: Set<string>;
  /** It answered at least once (a worker that dies before that means workers cannot start here). */
  answered: boolean;
  alive: boolean;
  /** Stops the worker after it has been idle a while. */
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * Pictures a render thread holds at once (default 1); the rest wait here. A thread starts drawing a
 * picture as soon as it gets it, so with two in hand it draws one while the previous one encodes:
 * two canvases and two copies of the pixels for the encoder (about 10 MB each for a Valormr map)
 * at a time. Measured on the busy minute of 1,000 campaigns (2 render threads, issue 25): the
 * threads' memory outside their heaps peaked at 79 MB with two in hand against 49 MB with one,
 * and the minute was not slower (it waits on Discord's rate limit, not on the threads).
 */
let perThread = 1;

/** A render thread's memory at work (its heap, code, fonts, static layers, canvases): about 100 MB. */
const THREAD_BYTES = 128 * 1024 * 1024;

/** One thread per core, at most four, and no more than a quarter of the machine's memory allows. */
function defaultThreads(): number {
  const limit = process.constrainedMemory() ?? 0;
  const memory = limit > 0 ? Math.min(limit, totalmem()) : totalmem();
  return Math.max(1, Math.min(4, availableParallelism(), Math.floor(memory / 4 / THREAD_BYTES)));
}

let threads = defaultThreads();
/** A worker idle this long is stopped, giving back its memory (static layers, its own heap). */
let idleMs = 60_000;
let inThisThread = false;
const slots: Slot[] = [];
const queue: Task[] = [];
const sent = new Map<number, { task: Task; slot: Slot }>();
const asked = new Map<number, (r: RenderReply) => void>();
let nextId = 1;
/** Render threads started since the process began. */
let started = 0;
/** Pictures drawn (or being drawn) since the process began: a drawing shared by several asks counts once, a retry after a thread died does not count again. */
let drawings = 0;
/** No idle worker is stopped before this instant (performance.now): a tick is due soon (holdRenderThreads). */
let holdUntil = 0;

/**
 * Sets the number of render threads (default: one per core, at most four, bounded by memory; 0
 * draws in this thread), the pictures each holds at once (default 1, at least 1), how long an idle
 * worker is kept (default 60 s) and the bytes of pictures drawn lately kept for a repeated ask
 * (default 2 MB; the newest is kept whatever its size).
 */
export function configureRenderPool(opts: { readonly threads?: number; readonly perThread?: number; readonly idleMs?: number; readonly layerCacheDir?: string; readonly recentBytes?: number }): void {
  if (opts.perThread !== undefined) perThread = Math.max(1, Math.floor(opts.perThread));
  if (opts.recentBytes !== undefined) setRecentBudget(opts.recentBytes);
  // Static layers on disk (layerFile.ts), for this thread and every render thread started after.
  if (opts.layerCacheDir !== undefined) setLayerCacheDir(opts.layerCacheDir);
  if (opts.threads !== undefined) {
    threads = Math.max(0, Math.floor(opts.threads));
    inThisThread = threads === 0;
  }
  if (opts.idleMs !== undefined) idleMs = Math.max(0, opts.idleMs);
}

/** How the pool stands: running workers, pictures in their hands and waiting, whether it fell back to this thread, threads started and pictures drawn so far. */
export function renderPoolState(): { readonly workers: number; readonly busy: number; readonly waiting: number; readonly inThisThread: boolean; readonly started: number; readonly drawings: number } {
  return { workers: slots.filter((s) => s.alive).length, busy: sent.size, waiting: queue.length, inThisThread, started, drawings };
}

/**
 * Draws and encodes a picture on a render thread; resolves to the PNG bytes (shared with any caller
 * asking for the same picture, sharedPictures.ts: do not write into them; each caller holds them
 * until it gives them back, pictureBytes.ts). `reuse: false` draws it anew (pre-warming a thread
 * must reach a thread).
 */
export function runPicture(job: PictureJob, here: () => Promise<Buffer>, how: { readonly reuse?: boolean } = {}): Promise<Buffer> {
  if (how.reuse === false) return drawPicture(job, here);
  return sharedPicture(sameJob(job), () => drawPicture(job, here));
}

/**
 * Starts drawing a picture that will be asked for soon (a transaction's map, drawn while the
 * transaction still writes, and asked for by its delivery after the commit), so the ask finds it
 * drawn or half drawn. Only on a render thread that has nothing else to do: when pictures already
 * wait (a busy minute), or when pictures are drawn in this thread, nothing is started and the ask
 * draws the picture in its turn, as without this.
 */
export function drawEarly(job: PictureJob, here: () => Promise<Buffer>): void {
  if (inThisThread || queue.length > 0 || sent.size > 0) return;
  pictureSoon(sameJob(job), () => drawPicture(job, here));
}

/**
 * What a picture shows, as a key: the map's key, the view and the options (a map), or the sketch.
 * Two jobs with one key draw the same bytes (drawing is deterministic), so one drawing serves both.
 */
function sameJob(job: PictureJob): string {
  const what = job.kind === 'map' ? ['map', job.key, job.view, job.options] : ['battlefield', job.sketch];
  return createHash('sha1').update(JSON.stringify(what)).digest('base64');
}

function drawPicture(job: PictureJob, here: () => Promise<Buffer>): Promise<Buffer> {
  drawings++;
  if (inThisThread) return here();
  return new Promise<Buffer>((resolve, reject) => {
    queue.push({ job, here, resolve, reject, deaths: 0 });
    dispatch();
  });
}


/**
 * Keeps the render threads (and what they hold: code, fonts, static layers) for at least `ms`
 * from now even when idle: the scheduler pre-warms a thread a minute or two before a tick is due
 * and holds it until the tick has drawn its map. After that the usual idle stop applies.
 */
export function holdRenderThreads(ms: number): void {
  holdUntil = Math.max(holdUntil, performance.now() + Math.max(0, ms));
  for (const s of slots) {
    if (!s.alive) continue;
    tellHold(s);
    if (s.inFlight === 0) idle(s);
  }
}

/** Tells a worker how long the hold lasts: it keeps its scratch canvas until then (renderWorker.ts). */
function tellHold(slot: Slot): void {
  const ms = holdUntil - performance.now();
  if (ms > 0) slot.worker.postMessage({ id: 0, kind: 'hold', ms } satisfies RenderRequest);
}

/** Tells every running worker to drop its cached static layers, and forgets the pictures drawn lately or ahead. */
export function clearWorkerCaches(): void {
  forgetPictures();
  for (const s of slots) if (s.alive) s.worker.postMessage({ id: 0, kind: 'clear' } satisfies RenderRequest);
}

/** The static-layer caches of the running workers, added up. */
export async function workerCacheStats(): Promise<CacheStats> {
  const all = await Promise.all(slots.filter((s) => s.alive).map((s) => new Promise<RenderReply>((resolve) => {
    const id = nextId++;
    s.worker.ref();
    asked.set(id, (reply) => {
      if (s.inFlight === 0) s.worker.unref();
      resolve(reply);
    });
    s.worker.postMessage({ id, kind: 'stats' } satisfies RenderRequest);
  })));
  const add = (k: keyof CacheStats): number => all.reduce((sum, r) => sum + (r.stats?.[k] ?? 0), 0);
  return {
    entries: add('entries'), bytes: add('bytes'), threadHeapBytes: add('threadHeapBytes'), threadExternalBytes: add('threadExternalBytes'),
    scratchBytes: add('scratchBytes'), idlePasses: add('idlePasses'),
  };
}

/**
 * Stops the render threads once their current pictures are done (pictures still waiting are
 * refused). Rendering afterwards starts new workers.
 */
export async function closeRenderPool(): Promise<void> {
  holdUntil = 0;
  for (const t of queue.splice(0)) t.reject(new Error('the render pool was closed'));
  const closing = slots.splice(0);
  await Promise.all(closing.map(async (s) => {
    clearTimeout(s.idleTimer);
    while (s.alive && s.inFlight > 0) {
      await new Promise((r) => {
        s.worker.once('message', r);
        s.worker.once('exit', r);
      });
    }
    s.alive = false;
    await s.worker.terminate();
  }));
}

function dispatch(): void {
  while (queue.length > 0) {
    const task = queue[0] as Task;
    const slot = freeSlot(task.job.kind === 'map' ? task.job.key : undefined);
    if (!slot) return;
    queue.shift();
    send(slot, task);
  }
}

/**
 * An idle worker (one that has this map first), else a new one while the pool may grow, else the
 * least busy with room (one that has this map first).
 */
function freeSlot(mapKey: string | undefined): Slot | undefined {
  let best: Slot | undefined;
  const better = (s: Slot): boolean => !best || s.inFlight < best.inFlight
    || (s.inFlight === best.inFlight && mapKey !== undefined && s.known.has(mapKey) && !best.known.has(mapKey));
  for (const s of slots) if (s.alive && s.inFlight < perThread && better(s)) best = s;
  if (best?.inFlight === 0) return best;
  if (slots.length < threads) return start() ?? best;
  return best;
}

function send(slot: Slot, task: Task): void {
  const id = nextId++;
  const { job } = task;
  let request: RenderRequest;
  if (job.kind === 'map') {
    const first = !slot.known.has(job.key);
    slot.known.add(job.key);
    request = { id, kind: 'map', key: job.key, view: job.view, options: job.options, ...(first ? { data: job.data() } : {}) };
  } else {
    request = { id, kind: 'battlefield', sketch: job.sketch };
  }
  sent.set(id, { task, slot });
  clearTimeout(slot.idleTimer);
  if (slot.inFlight++ === 0) slot.worker.ref();
  slot.worker.postMessage(request);
}

function start(): Slot | undefined {
  let worker: Worker;
  try {
    keepLibvipsLoaded();
    worker = newWorker();
  } catch {
    fallBackToThisThread();
    return undefined;
  }
  started++;
  const slot: Slot = { worker, inFlight: 0, known: new Set(), answered: false, alive: true, idleTimer: undefined };
  worker.unref();
  worker.on('message', (reply: RenderReply) => onReply(slot, reply));
  worker.on('error', (err) => onDeath(slot, err));
  worker.on('exit', (code) => {
    if (slot.alive) onDeath(slot, new Error(`a render worker stopped (exit code ${code})`));
  });
  slots.push(slot);
  tellHold(slot);
  return slot;
}

/**
 * From source (TypeScript run by tsx or vitest) the worker is loaded through a small boot file
 * that registers tsx in the worker thread; compiled, the worker is plain JavaScript.
 */
function newWorker(): Worker {
  const here = import.meta.url;
  const workerData = { layerCacheDir: layerCacheDir() };
  if (here.endsWith('.ts')) return new Worker(new URL('./renderWorkerBoot.mjs', here), { execArgv: [], workerData });
  return new Worker(new URL('./renderWorker.js', here), { workerData });
}

function onReply(slot: Slot, reply: RenderReply): void {
  slot.answered = true;
  const question = asked.get(reply.id);
  if (question) {
    asked.delete(reply.id);
    question(reply);
    return;
  }
  const entry = sent.get(reply.id);
  if (!entry) return;
  sent.delete(reply.id);
  if (--slot.inFlight === 0) idle(slot);
  const { task } = entry;
  if (reply.needMap && task.job.kind === 'map') {
    // The worker let this map go (it keeps a bounded number): send its data again.
    slot.known.delete(task.job.key);
    queue.unshift(task);
  } else if (reply.error !== undefined) {
    task.reject(new Error(reply.error));
  } else if (reply.png) {
    task.resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength));
  } else {
    task.reject(new Error('a render worker answered without a picture'));
  }
  dispatch();
}

/** Unreferences an idle worker (it never keeps the process alive) and stops it if it stays idle. */
function idle(slot: Slot): void {
  slot.worker.unref();
  clearTimeout(slot.idleTimer);
  slot.idleTimer = setTimeout(() => {
    if (!slot.alive || slot.inFlight > 0) return;
    if (performance.now() < holdUntil) {
      idle(slot);
      return;
    }
    slot.alive = false;
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    void slot.worker.terminate();
  }, Math.max(idleMs, holdUntil - performance.now()));
  slot.idleTimer.unref();
}

function onDeath(slot: Slot, err: Error): void {
  if (!slot.alive) return;
  slot.alive = false;
  clearTimeout(slot.idleTimer);
  const i = slots.indexOf(slot);
  if (i >= 0) slots.splice(i, 1);
  const lost = [...sent].filter(([, e]) => e.slot === slot);
  // A picture already tried on a thread that died is given up; any other gets one more try.
  let hadRetry = false;
  for (const [id, { task }] of lost) {
    sent.delete(id);
    if (task.deaths > 0) {
      hadRetry = true;
      task.reject(new RenderThreadDied(err));
      continue;
    }
    if (slot.answered) task.deaths++;
    queue.unshift(task);
  }
  // A thread that died before its first answer, holding no retried picture: threads cannot start here.
  if (!slot.answered && !hadRetry) fallBackToThisThread();
  dispatch();
}

/** Ends every render thread at once, as a crash would, with its pictures in hand (tests of the retry). */
export function crashRenderThreads(): void {
  for (const s of slots) void s.worker.terminate();
}

/** No worker can run here: draw every picture, waiting or to come, in this thread. */
function fallBackToThisThread(): void {
  inThisThread = true;
  for (const t of queue.splice(0)) t.here().then(t.resolve, t.reject);
}
