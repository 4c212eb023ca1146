import { afterEach, describe, expect, it } from 'vitest';
import { autumnWar, campaignState, consoleHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = autumnWar({ hadewych: 'alice', aeskrvald: 'bob' });

const STANDING = 'alice\'s army **Army of Hadewych** is under standing orders.';
const standingLines = (x: Harness) => x.channel().filter((o) => o.content.includes('is under standing orders'));

describe('GIVEN absence counting (absent-after)', () => {
  it('WHEN a commander gives no orders or answers for absent-after half periods THEN the army is under standing orders, said once in the channel and told to the referee; a present commander is never counted', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings absent-after:2', '@referee /campaign start');
    await h.run('@bob /rest army:aeskrvald', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 1 });
    expect(standingLines(h)).toHaveLength(0);
    await h.run('@bob /ready', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 2, standing: true });
    expect(campaignState(h).armies.aeskrvald?.seat).toEqual({ missed: 0 });
    expect(standingLines(h).map((o) => o.content.includes(STANDING))).toEqual([true]);
    expect(h.dms('referee').some((o) => o.content.includes('alice gave no orders or answers for 2 half periods in a row (`absent-after`): **Army of Hadewych** is under standing orders, it rests where it stands.'))).toBe(true);
    // Still absent: not said again.
    await h.run('@bob /ready', '!tick');
    expect(standingLines(h)).toHaveLength(1);
    // Her next order takes the army back.
    await h.run('@alice /rest army:hadewych', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 0 });
  });

  it('WHEN absent-after is off (the default) THEN absences are counted but no army is put under standing orders', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start', '!tick', '!tick', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 3 });
    expect(standingLines(h)).toHaveLength(0);
  });
});
