import { readlinkSync } from 'node:fs';
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
