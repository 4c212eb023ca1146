/**
 * The manager's IDENTIFY gate (src/discord/identifyGate.ts): shards of one bucket
 * (`shard_id % max_concurrency`) go one at a time, the spacing apart; buckets do not wait for
 * each other. Time is the gate's injected wait, so the order is exact and no clock is read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdentifyGate, managerIdentifyThrottler } from '../../src/discord/identifyGate.js';
import { EventEmitter } from 'node:events';

/** Plays the gate on a virtual clock: each wait advances it; returns when each shard was let through. */
async function openTimes(maxConcurrency: number, shardIds: readonly number[]): Promise<Map<number, number>> {
  let now = 0;
  const timers: { at: number; resolve: () => void }[] = [];
  const gate = new IdentifyGate(maxConcurrency, 5_500, (ms) => new Promise((resolve) => timers.push({ at: now + ms, resolve })));
  const opened = new Map<number, number>();
  const all = shardIds.map((id) => gate.open(id).then(() => void opened.set(id, now)));
  // Run the virtual clock: settle what is ready, then jump to the next timer.
  for (;;) {
    for (let i = 0; i < 20; i++) await Promise.resolve();
    timers.sort((a, b) => a.at - b.at);
    const next = timers.shift();
    if (!next) break;
    now = next.at;
    next.resolve();
  }
  await Promise.all(all);
  return opened;
}

describe('the IDENTIFY gate', () => {
  it('GIVEN max_concurrency 2 and shards 0-5 asking at once THEN two go at once, and each bucket lets one through every 5.5 s', async () => {
    const at = await openTimes(2, [0, 1, 2, 3, 4, 5]);
    expect([...at.entries()].sort((a, b) => a[0] - b[0])).toEqual([[0, 0], [1, 0], [2, 5_500], [3, 5_500], [4, 11_000], [5, 11_000]]);
  });

  it('PROPERTY: whatever max_concurrency and order of asking, two shards of one bucket open at least 5 s apart and the first of each bucket opens at once', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.uniqueArray(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 10 }), async (concurrency, shards) => {
      const at = await openTimes(concurrency, shards);
      for (let key = 0; key < concurrency; key++) {
        const times = shards.filter((s) => s % concurrency === key).map((s) => at.get(s)!).sort((a, b) => a - b);
        if (times.length > 0) expect(times[0]).toBe(0);
        for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(5_000);
      }
    }), { numRuns: 60 });
  });

  it('GIVEN a shard process asking over IPC WHEN the manager\'s gate answers THEN it identifies; an abort while waiting rejects', async () => {
    const child = new EventEmitter() as EventEmitter & { send: (m: unknown) => boolean };
    const gate = new IdentifyGate(1, 5_500, () => new Promise(() => {}));
    child.send = (m) => gate.answer(m, (go) => setImmediate(() => child.emit('message', go)));
    const throttler = managerIdentifyThrottler(child as unknown as NodeJS.Process);
    await throttler.waitForIdentify(0, new AbortController().signal);
    // The second of the bucket waits (the wait never ends here) until aborted.
    const abort = new AbortController();
    const second = throttler.waitForIdentify(1, abort.signal);
    abort.abort(new Error('shutting down'));
    await expect(second).rejects.toThrow('shutting down');
    expect(child.listenerCount('message')).toBe(0);
  });
});
