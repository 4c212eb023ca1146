import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * Each checkout's bundle (and its code cache) is made once, in a temporary folder of this bench
 * removed when it is done (`--bundle-dir`): nothing is written into either checkout. A child of an
 * older checkout (before session 23) ignores the folder and bundles into its own dist/src/.
 */
export async function benchMemory(runs: number, vsRoot?: string): Promise<{ readonly here: readonly MemoryRun[]; readonly vs?: readonly MemoryRun[] }> {
  const here: MemoryRun[] = [];
  const vs: MemoryRun[] = [];
  const other = vsRoot === undefined ? undefined : pathToFileURL(`${vsRoot.replace(/\/$/, '')}/`);
  const bundles = mkdtempSync(join(tmpdir(), 'valormr-bench-bundles-'));
  try {
    const hereArgs = ['--bundle-dir', mkdtempSync(join(bundles, 'here-'))];
    const vsArgs = ['--bundle-dir', mkdtempSync(join(bundles, 'vs-'))];
    for (let i = 0; i < Math.max(1, runs); i++) {
      here.push(await runStartedChild<MemoryRun>('memoryChild.mjs', hereArgs));
      if (other) vs.push(await runStartedChild<MemoryRun>('memoryChild.mjs', vsArgs, [], other));
    }
  } finally {
    rmSync(bundles, { recursive: true, force: true });
  }
  return other ? { here, vs } : { here };
}
