import { afterEach, describe, expect, it } from 'vitest';
import { consoleHarness, hexIdOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());
const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
].join('\n');

describe('/turn', () => {
  it('refuses to advance before the campaign starts, then plays half periods in order', async () => {
    h = await consoleHarness({ setup: SETUP });
    expect((await h.run('@referee /turn advance'))[0]?.data).toMatchObject({ error: 'turn.notRunning' });
    await h.run('@referee /campaign start', '@alice /move army:hadewych to:0913');
    const out = await h.run('@referee /turn advance');
    expect(out.find((o) => o.to === 'reply')?.content).toBe('Played Day 1, morning; now Day 1, afternoon.');
    const [chronicle, map] = h.channel().slice(-2);
    expect(chronicle?.content).toContain('**Day 1, morning (late autumn) → Day 1, afternoon**');
    expect(chronicle?.content).toMatch(/\*\*Movement\*\*: Hadewych the Arbiter marched from 0816 to 0817/);
    expect(chronicle?.content).toMatch(/\*\*Next tick\*\*: \w{3}, \d+ Nov 2026, \d\d:\d\d UTC \(in \d+ hours\)/);
    expect(map?.content).toBe('Map after Day 1, morning');
    expect(map?.files?.[0]).toMatch(/map-day1-afternoon\.png$/);
    // A half period in which nothing on the public map changed: said in a line, no picture.
    await h.run('@alice /hold army:hadewych', '@referee /turn advance');
    const [quiet] = h.channel().slice(-1);
    expect(quiet?.content).toMatch(/^Nothing moved on the map in Day 1, afternoon/);
    expect(quiet?.files).toBeUndefined();
    await h.run('@referee /turn advance', '@referee /turn advance');
    expect((await h.run('@alice /turn status'))[0]?.content).toContain('Day 2, morning');
  });

  it('shows who has and has not given orders, by name only', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /turn status');
    expect(out?.content).toMatch(/\*\*No orders yet\*\*: Army of Hadewych \(alice\): without orders they will rest\./);
    // The 23 armies nobody plays are one line, not a list.
    expect(out?.content).toContain('**Nobody commands**: 23 armies: they will rest.');
    expect(out?.content).not.toContain('Anax Archontas');
    expect((out?.data as { ordersMissing: string[] }).ordersMissing).toContain('Army of Hadewych');
  });

  it('undoes the last half period: clock and positions go back, commanders whose armies moved are told', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start', '!tick', '@referee /army edit army:hadewych hex:0817', '@alice /move army:hadewych to:0818', '!tick');
    expect((await h.run('@alice /turn status'))[0]?.content).toContain('Day 1, evening');
    expect(hexIdOf(h, 'hadewych')).toBe('0818');
    const dmsBefore = h.dms('alice').length;
    const out = await h.run('@referee /turn undo');
    expect(out.find((o) => o.to === 'reply')?.content).toContain('The clock is back at Day 1, afternoon');
    expect(h.dms('alice').at(-1)?.content).toContain('is back at 0817');
    expect(h.dms('alice')).toHaveLength(dmsBefore + 1);
    expect(hexIdOf(h, 'hadewych')).toBe('0817');
    expect((await h.run('@referee /turn undo'))[0]?.content).toContain('Day 1, morning');
    expect((await h.run('@referee /turn undo'))[0]?.data).toMatchObject({ error: 'turn.nothingToUndo' });
  });

  it('lets players read turn status but not advance or undo', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start');
    expect((await h.run('@alice /turn advance'))[0]?.data).toMatchObject({ error: 'campaign.refereeOnly' });
    expect((await h.run('@alice /turn undo'))[0]?.data).toMatchObject({ error: 'campaign.refereeOnly' });
  });
});

describe('/campaign settings and pause', () => {
  it('changes the cadence, announces it, and refuses bad values with examples', async () => {
    h = await consoleHarness({ setup: SETUP });
    const out = await h.run('@referee /campaign settings cadence:"0 */3 * * *" timezone:Europe/Berlin');
    const reply = out.find((o) => o.to === 'reply');
    expect(reply?.content).toContain('cadence 0 */3 * * *');
    expect(reply?.content).toContain('Settings changed by the referee'); // a public reply: everyone sees it
    expect((await h.run('@referee /campaign settings cadence:"every day"'))[0]?.content).toContain('0 8,20 * * *');
    expect((await h.run('@referee /campaign settings timezone:Nowhere/Land'))[0]?.data).toMatchObject({ error: 'settings.badTimezone' });
  });

  it('announces pause and resume to everyone', async () => {
    h = await consoleHarness({ setup: SETUP });
    const out = await h.run('@referee /campaign start', '@referee /campaign pause');
    expect(out.at(-1)).toMatchObject({ to: 'reply', content: expect.stringContaining('paused by the referee') });
    expect((await h.run('@referee /campaign pause'))[0]?.data).toMatchObject({ error: 'campaign.badStatus' });
    expect((await h.run('@referee /campaign resume')).at(-1)).toMatchObject({ to: 'reply', content: expect.stringContaining('resumes') });
  });
});

describe('/army edit', () => {
  it('moves an army publicly and changes figures privately', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /army edit army:hadewych hex:0817 figures:"first=9"');
    expect(h.channel().at(-1)?.content).toContain('placed Army of Hadewych at 0817');
    expect(h.channel().some((o) => /9 figures/.test(o.content))).toBe(false);
    const [status] = await h.run('@alice /army status');
    expect(status?.content).toMatch(/: 9\/\d+ figures/);
  });

  it('refuses an occupied hex, water, and an unknown regiment', async () => {
    h = await consoleHarness({ setup: SETUP });
    expect((await h.run('@referee /army edit army:hadewych hex:0916'))[0]?.data).toMatchObject({ error: 'edit.hexOccupied' });
    expect((await h.run('@referee /army edit army:hadewych hex:0101'))[0]?.data).toMatchObject({ error: 'edit.water' });
    expect((await h.run('@referee /army edit army:hadewych figures:"zz=3"'))[0]?.data).toMatchObject({ error: 'edit.unknownRegiment' });
  });
});

describe('/map', () => {
  it('answers privately with a PNG; the commander view carries their estimates and step times', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign assign army:groennendr user:bob', '@referee /campaign start', '@alice /move army:hadewych path:"0817"');
    const [pub] = await h.run('@bob /map');
    expect(pub).toMatchObject({ to: 'ephemeral', user: 'bob' });
    expect(pub?.files?.[0]).toMatch(/\.png$/);
    const [mine] = await h.run('@alice /map view:mine around:0816 radius:3');
    expect(mine?.to).toBe('ephemeral');
    expect((mine?.data as { stepTimes: Record<string, unknown[]> }).stepTimes['hadewych']).toEqual([{ day: 1, half: 0 }]);
    expect((await h.run('@carol /map view:mine'))[0]?.data).toMatchObject({ error: 'map.noArmy' });
    // The referee sees it as one commander; a player may not look through another's eyes.
    const [asAlice] = await h.run('@referee /map army:hadewych');
    expect((asAlice?.data as { stepTimes: Record<string, unknown> }).stepTimes).toHaveProperty('hadewych');
    expect((await h.run('@bob /map army:hadewych'))[0]?.data).toMatchObject({ error: 'army.notYours' });
    expect((await h.run('@alice /map around:9999'))[0]?.data).toMatchObject({ error: 'map.badHex' });
  });
});

describe('/turn extend', () => {
  it('moves the deadline later, announces it, and caps extensions', async () => {
    h = await consoleHarness({ setup: SETUP });
    expect((await h.run('@referee /turn extend minutes:60'))[0]?.data).toMatchObject({ error: 'extend.notRunning' });
    await h.run('@referee /campaign start'); // 10:00 UTC: next tick 20:00
    const [first] = await h.run('@referee /turn extend minutes:120');
    expect(first).toMatchObject({ to: 'reply', data: { nextTickAt: '2026-11-22T22:00:00.000Z', extensions: 1 } });
    expect((await h.run('@referee /turn extend minutes:1400'))[0]?.data).toMatchObject({ error: 'extend.tooLong' });
    expect((await h.run('@referee /turn extend minutes:30'))[0]?.data).toMatchObject({ nextTickAt: '2026-11-22T22:30:00.000Z', extensions: 2 });
    expect((await h.run('@referee /turn extend minutes:30'))[0]?.data).toMatchObject({ error: 'extend.tooMany' });
    expect((await h.run('@alice /turn extend minutes:30'))[0]?.data).toMatchObject({ error: 'campaign.refereeOnly' });
    // After the tick the next half period has its own allowance again.
    await h.run('@referee /turn advance');
    expect((await h.run('@referee /turn extend minutes:30'))[0]?.data).toMatchObject({ extensions: 1 });
  });
});
