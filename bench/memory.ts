import { pathToFileURL } from 'node:url';
import { runStartedChild } from './startSettings.js';

/** One run of bench/memoryChild.mjs: resident MB right after the 100 maps, and once the render thread stopped. */
export interface MemoryRun {
  readonly rssMb: number;
  readonly rssIdleMb: number;
}

/**
 * rss100Mb and rss100IdleMb, `runs` fresh processes (bench/memoryChild.mjs, the compiled bot with
 * `npm start`'s settings, loaded as `npm start` loads it). One process's figure moves 10-20 MB from run to run (when the threads'
 * freed pixel buffers go back, how the allocators' pages fall), more than most changes worth
 * measuring, so the bench takes the median of several. With `vsRoot` (another checkout, built
 * there), its runs alternate with these, run by run, so a busy machine weighs on both alike.
 */
export async function benchMemory(runs: number, vsRoot?: string): Promise<{ readonly here: readonly MemoryRun[]; readonly vs?: readonly MemoryRun[] }> {
  const here: MemoryRun[] = [];
  const vs: MemoryRun[] = [];
  const other = vsRoot === undefined ? undefined : pathToFileURL(`${vsRoot.replace(/\/$/, '')}/`);
  for (let i = 0; i < Math.max(1, runs); i++) {
    here.push(await runStartedChild<MemoryRun>('memoryChild.mjs'));
    if (other) vs.push(await runStartedChild<MemoryRun>('memoryChild.mjs', [], [], other));
  }
  return other ? { here, vs } : { here };
}
