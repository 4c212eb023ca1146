/**
 * Where a process's memory is (bench/memoryChild.mjs --breakdown): process.memoryUsage(), V8's
 * heap, and resident memory from /proc/self/smaps grouped by what is mapped (the node binary,
 * each native library, anonymous memory: the heaps of V8, glibc and the native libraries), in MB.
 * `dropEach` then drops the caches one at a time and reports what resident memory each gave back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Resident kB by mapping: each file by its name, anonymous memory as `anon`, the others by their tag ([heap], [stack]...). */
function smapsByMapping() {
  let text;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  const out = {};
  let name = 'anon';
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1] ?? '';
      name = path === '' ? 'anon' : path.startsWith('[') ? path : basename(path);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[name] = (out[name] ?? 0) + Number(rss[1]);
  }
  const top = Object.entries(out).sort((a, b) => b[1] - a[1]);
  const big = Object.fromEntries(top.filter(([, kb]) => kb >= 1024).map(([k, kb]) => [k, Math.round(kb / 102.4) / 10]));
  const rest = top.filter(([, kb]) => kb < 1024).reduce((sum, [, kb]) => sum + kb, 0);
  return { ...big, otherMappings: Math.round(rest / 102.4) / 10 };
}

/** The peak resident memory (MB) since the process started or since `resetPeakRss` (VmHWM), or undefined off Linux. */
export function peakRssMb() {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 102.4) / 10;
  } catch {
    return undefined;
  }
}

/** Starts the peak (VmHWM) again from the resident memory of now (Linux: /proc/self/clear_refs). */
export function resetPeakRss() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // not Linux, or not allowed: the peak stays the one since the start
  }
}

function rollup() {
  try {
    const text = readFileSync('/proc/self/smaps_rollup', 'utf8');
    const pick = (k) => Math.round(Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) / 102.4) / 10;
    return { rss: pick('Rss'), anonymous: pick('Anonymous'), fileBacked: Math.round((pick('Rss') - pick('Anonymous')) * 10) / 10 };
  } catch {
    return undefined;
  }
}

/** The main thread's V8 spaces that hold anything, each as [committed, used] MB (the new space is committed at twice its semi-space even when empty). */
function spaces() {
  return Object.fromEntries(getHeapSpaceStatistics().filter((sp) => sp.space_size > 0).map((sp) => [sp.space_name.replace(/_space$/, ''), [mb(sp.physical_space_size), mb(sp.space_used_size)]]));
}

/** Collects twice, waits a moment (native memory freed by finalizers), then reads. */
export async function memoryReport() {
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 100));
  globalThis.gc?.();
  const u = process.memoryUsage();
  const h = getHeapStatistics();
  return {
    rssMb: mb(u.rss), heapTotalMb: mb(u.heapTotal), heapUsedMb: mb(u.heapUsed), externalMb: mb(u.external), arrayBuffersMb: mb(u.arrayBuffers),
    v8MallocedMb: mb(h.malloced_memory), v8PeakMallocedMb: mb(h.peak_malloced_memory), v8Spaces: spaces(), rollup: rollup(), smaps: smapsByMapping(),
  };
}

/**
 * Drops, in turn: the pictures drawn lately and the render threads' static layers; the in-memory
 * campaign state copies and statics; SQLite's page cache; the render threads; the WAL's checkpoint
 * thread (src/db/walCheckpoints.ts: its own isolate and connection, running after a burst of
 * writes until half a minute without any). Reports after each. `bot`: the bot's modules the child runs
 * (benchMemory.cjs, bench/memoryChild.mjs), whose caches and threads these are.
 */
export async function dropEach(app, bot, report) {
  const { stateCacheOf } = bot;
  const pool = bot;
  const layers = await pool.workerCacheStats();
  pool.clearWorkerCaches();
  await report('dropped pictures and static layers', { workerStaticLayers: { entries: layers.entries, mb: mb(layers.bytes) }, workerScratchMb: mb(layers.scratchBytes ?? 0), workerHeapMb: mb(layers.threadHeapBytes ?? 0), workerExternalMb: mb(layers.threadExternalBytes ?? 0) });
  const cache = stateCacheOf(app);
  const copies = cache.size;
  for (const id of app.statics.keys()) cache.delete(id);
  await report('dropped state copies', { stateCopies: copies });
  if (app.db.dialect === 'sqlite') {
    const cacheSize = app.db.sqlite.pragma('cache_size', { simple: true });
    app.db.sqlite.pragma('shrink_memory');
    await report('dropped SQLite page cache', { sqliteCacheSize: cacheSize });
  }
  await pool.closeRenderPool();
  await new Promise((r) => setTimeout(r, 1500));
  await report('render thread stopped');
  const checkpointThread = app.db.checkpoints?.threadRunning() ?? false;
  app.db.checkpoints?.stop();
  await new Promise((r) => setTimeout(r, 1500));
  await report('checkpoint thread stopped', { checkpointThread });
}
