import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { publicMapView } from '../../src/engine/views/mapView.js';
import { renderMap } from '../../src/render/index.js';
import { closeRenderPool, configureRenderPool, renderPoolState } from '../../src/render/renderPool.js';
import { RENDER_THREAD_NICENESS } from '../../src/render/threadPriority.js';
import { testMap, testState } from './fixtures.js';

/** Every thread of this process and its niceness (field 19 of /proc/self/task/TID/stat). */
function threadNiceness(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}

/** The threads libvips encodes on (by their name). */
function encoderThreads(): number[] {
  return readdirSync('/proc/self/task').filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'libvips worker').map(Number);
}

afterEach(async () => {
  await closeRenderPool();
  configureRenderPool({ threads: 1, idleMs: 60_000 });
});

describe.runIf(existsSync('/proc/thread-self'))('render threads give way to the event loop', () => {
  it('GIVEN a picture drawn on a render thread THEN that thread runs 10 steps nicer than this one, and this thread\'s priority is unchanged', async () => {
    const main = threadNiceness().get(process.pid);
    expect(main).toBeDefined();
    const before = new Set(threadNiceness().keys());
    configureRenderPool({ threads: 1 });
    const png = await renderMap(testMap(), publicMapView(testState()), { title: { campaign: 'Nice', time: 'Day 1', weather: 'Clear' }, cacheKey: 'nice-test' });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(renderPoolState().workers).toBe(1);
    const after = threadNiceness();
    expect(after.get(process.pid)).toBe(main);
    // The render thread (and the threads it started) are new and nicer; nothing else changed.
    const nicer = [...after].filter(([, n]) => n === Math.min(19, (main as number) + RENDER_THREAD_NICENESS)).map(([tid]) => tid);
    expect(nicer.length).toBeGreaterThan(0);
    for (const tid of nicer) expect(before.has(tid)).toBe(false);
    // libvips's threads, which encode, were started from libuv's pool, not from the render thread: given its niceness too.
    const encoders = encoderThreads();
    expect(encoders.length).toBeGreaterThan(0);
    for (const tid of encoders) expect(after.get(tid)).toBe(Math.min(19, (main as number) + RENDER_THREAD_NICENESS));
    for (const [tid, n] of after) if (before.has(tid) && !encoders.includes(tid)) expect(n).toBe(main);
  });
});
