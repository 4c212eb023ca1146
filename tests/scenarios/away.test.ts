import { afterEach, describe, expect, it } from 'vitest';
import { autumnWar, campaignState, consoleHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = autumnWar({ hadewych: 'alice', aeskrvald: 'bob' }, '@referee /campaign settings absent-after:2', '@referee /campaign start');

const ACCEPTED = '`until:` takes a time after now and at most 60 days ahead: a duration (`12h`, `3d`, `2w`), a date (`2026-12-01`) or a date and time (`2026-12-01 18:00`) in the campaign\'s timezone (UTC).';
const answer = async (x: Harness, line: string): Promise<string> => (await x.run(line))[0]?.content ?? '';

describe('GIVEN /away until:', () => {
  it('WHEN the time is in the past, years ahead, unreadable or missing, or the player commands nothing THEN it is refused with what is accepted', async () => {
    h = await consoleHarness({ setup: SETUP });
    expect(await answer(h, '@alice /away until:2026-11-01')).toBe(`Sun, 1 Nov 2026, 00:00 UTC is already past. ${ACCEPTED}`);
    expect(await answer(h, '@alice /away until:2029-01-01')).toBe(`Mon, 1 Jan 2029, 00:00 UTC is more than 60 days ahead. ${ACCEPTED}`);
    expect(await answer(h, '@alice /away until:"next tuesday"')).toBe(`"next tuesday" is not a time I can read. ${ACCEPTED}`);
    expect(await answer(h, '@alice /away until:3y')).toBe(`"3y" is not a time I can read. ${ACCEPTED}`);
    expect(await answer(h, '@dave /away until:3d')).toContain('Only a commander of an army in the field can say they are away; you command none');
    expect(campaignState(h).armies.hadewych?.seat?.awayUntil).toBeUndefined();
  });

  it('WHEN a commander is away THEN their army is under standing orders without counting absences, only the referee is told, and it ends by itself at the time', async () => {
    h = await consoleHarness({ setup: SETUP });
    const said = await h.run('@alice /away until:"2026-11-23 12:00"');
    expect(said[0]?.to).toBe('ephemeral');
    expect(said[0]?.content).toContain('You are away until Mon, 23 Nov 2026, 12:00 UTC');
    expect(said[0]?.content).toContain('**Army of Hadewych** rests where it stands meanwhile, and no absence is counted against you');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 0, standing: true, awayUntil: '2026-11-23T12:00:00.000Z' });
    // Three half periods without her orders: more than absent-after, but she said she is away.
    for (let i = 0; i < 3; i++) await h.run('@bob /ready', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 0, standing: true, awayUntil: '2026-11-23T12:00:00.000Z' });
    expect(h.outputs.filter((o) => o.content.includes('is under standing orders'))).toHaveLength(0);
    // Bob learns nothing of it; the referee's inbox shows it.
    expect(h.outputs.filter((o) => o.user === 'bob' || o.to === 'channel' || o.to === 'reply').some((o) => o.content.includes('away'))).toBe(false);
    expect(await answer(h, '@referee /referee inbox')).toContain('alice is away until Mon, 23 Nov 2026, 12:00 UTC: **Army of Hadewych** under standing orders.');
    // Past her time: absences count again from the next half period.
    h.clock.set(new Date('2026-11-23T13:00Z'));
    await h.run('@bob /ready', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 1 });
    await h.run('@bob /ready', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 2, standing: true });
    expect(h.outputs.filter((o) => o.content.includes('alice\'s army **Army of Hadewych** is under standing orders.'))).toHaveLength(1);
  });

  it('WHEN an away commander gives an order THEN the absence ends at once and the army takes her orders at the tick', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@alice /away until:1w', '@bob /ready', '!tick');
    expect(campaignState(h).armies.hadewych?.seat?.awayUntil).toBeDefined();
    await h.run('@alice /rest army:hadewych');
    expect(campaignState(h).armies.hadewych?.seat?.awayUntil).toBeUndefined();
    await h.run('@bob /ready', '!tick');
    expect(campaignState(h).armies.hadewych?.seat).toEqual({ missed: 0 });
  });
});
