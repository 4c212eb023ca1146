import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { benchDir } from '../../bench/app.js';
import { benchTickPlayed, playedKinds } from '../../bench/played.js';
import { closeRenderPool } from '../../src/render/index.js';

let dir: string | undefined;
afterEach(async () => {
  await closeRenderPool();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("the bench's ticks as played (tickPlayedMs)", () => {
  it('GIVEN n ticks of each kind and c coldest THEN the plan holds exactly that many, each warm tick right after a scheduled one', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.nat({ max: 40 }), (perKind, asked) => {
      const coldest = Math.min(asked, perKind);
      const plan = playedKinds(perKind, coldest);
      const count = (k: string): number => plan.filter((x) => x === k).length;
      expect([count('scheduled'), count('warm'), count('coldest')]).toEqual([perKind, perKind, coldest]);
      plan.forEach((k, i) => {
        if (k === 'warm') expect(plan[i - 1]).toBe('scheduled');
        if (k === 'scheduled') expect(plan[i + 1]).toBe('warm');
      });
    }), { numRuns: 50 });
  });

  it('GIVEN one scheduled and one warm tick WHEN the section runs THEN the scheduled tick was pre-warmed by the scheduler itself and every tick counted drew a map', async () => {
    dir = benchDir();
    // benchTickPlayed throws when the scheduler's pre-warm did not warm the campaign (it was not due
    // within its window), and counts only ticks whose delivery wrote a map's file.
    const played = await benchTickPlayed(dir, { perKind: 1, coldest: 0 });
    expect([played.scheduled.n, played.warm.n, played.coldest.n]).toEqual([1, 1, 0]);
    expect([played.scheduledCpu.n, played.warmCpu.n]).toEqual([1, 1]);
    expect(played.armies).toBeGreaterThan(0);
  }, 120_000);
});
