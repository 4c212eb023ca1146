import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How much a render thread gives way to the bot's event loop when both want a core: 10 steps of
 * niceness above the thread that started it (Linux CFS weight 110 against 1024). The event loop answers interactions and heartbeats and
 * plays ticks in short slices; a picture is a throughput job whose delay nobody sees. Idle cores
 * still go to the render threads at full speed.
 */
export const RENDER_THREAD_NICENESS = 10;

/**
 * Lowers the scheduling priority of the calling thread only, by `steps` of niceness (at most to
 * 19, the lowest): on Linux the niceness is per thread, `setpriority` given a thread id changes
 * that thread alone, and threads it starts later inherit it. Lowering needs no privilege. Returns
 * the thread's niceness after, or undefined where the thread id cannot be read (not Linux) or the
 * change was refused: then the thread runs as before.
 */
export function lowerThisThreadPriority(steps = RENDER_THREAD_NICENESS): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return undefined;
    const niceness = Math.min(19, getPriority(tid) + steps);
    setPriority(tid, niceness);
    return niceness;
  } catch {
    return undefined;
  }
}

/** The name libvips gives the threads it encodes on (glib's thread name, /proc/self/task/TID/comm). */
const ENCODER_THREAD = 'libvips worker';

/**
 * Lowers to `niceness` every libvips thread of the process that runs at a higher priority, and
 * returns how many it changed. A PNG is encoded (sharp) on libvips's own threads, which are started
 * from libuv's thread pool, not from the render thread: they do not inherit the render thread's
 * niceness and ran at the bot's priority (measured: about half a picture's CPU), so on two cores the
 * encode competed with the event loop as an equal. libvips keeps its threads for later work; threads
 * it starts later are caught on the next call (the render thread calls this after every picture).
 * Linux only (where the thread ids can be read); elsewhere nothing changes and 0 is returned.
 */
export function lowerEncoderThreads(niceness: number): number {
  let changed = 0;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== ENCODER_THREAD) continue;
      if (getPriority(Number(tid)) >= niceness) continue;
      setPriority(Number(tid), niceness);
      changed++;
    } catch {
      // the thread ended meanwhile, or the change was refused: it runs as before
    }
  }
  return changed;
}
