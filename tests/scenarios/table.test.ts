import { afterEach, describe, expect, it } from 'vitest';
import { getCampaignMeta } from '../../src/db/campaignRepo.js';
import { autumnWar, consoleHarness, type Harness } from './harness.js';
import type { ConsoleOutput } from '../../src/console/session.js';
import { sqlValue } from '../support/sql.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = autumnWar({ hadewych: 'alice', aeskrvald: 'bob' });

const errorOf = (o: ConsoleOutput | undefined): unknown => (o?.data as { error?: string } | undefined)?.error;
const checkOf = (outs: ConsoleOutput[]) => outs.find((o) => (o.data as { played?: number } | undefined)?.played !== undefined)?.data as { played: number; reminded: number; resumed: number };
const meta = (x: Harness) => {
  const id = sqlValue(x.app.db, 'select id from campaigns') as string;
  const m = getCampaignMeta(x.app.db, id);
  if (!m) throw new Error('no campaign');
  return m;
};
const status = async (x: Harness, user = 'alice') => (await x.run(`@${user} /turn status`)).find((o) => o.to === 'reply')?.content ?? '';

describe('GIVEN /ready and early ticks', () => {
  it('WHEN one of two commanders is ready THEN /turn status names only them and the tick keeps its time', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings early-tick:30', '@referee /campaign start');
    const [answer] = await h.run('@alice /ready');
    expect(answer?.content).toContain('You are ready for Day 1, morning (1 of 2 commanders ready)');
    expect(await status(h)).toContain('**Ready**: alice (1 of 2). Early ticks are on');
    expect(meta(h).nextTickAt).toBe('2026-11-22T20:00:00.000Z');
    expect(checkOf(await h.run('!clock')).played).toBe(0);
    // Said twice: no change, and it says how to take it back.
    expect((await h.run('@alice /ready'))[0]?.content).toContain('already ready');
  });

  it('WHEN all are ready THEN the tick is played early, never within the minimum gap, and everyone is told when', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings early-tick:30', '@referee /campaign start', '@alice /ready');
    const out = await h.run('@bob /ready');
    const told = out.find((o) => o.to === 'channel');
    expect(told?.content).toBe('Every commander is ready for Day 1, morning: the tick is played early, now (within a minute), instead of Sun, 22 Nov 2026, 20:00 UTC.');
    expect(checkOf(await h.run('!clock')).played).toBe(1);
    expect(h.channel().find((o) => o.content.startsWith('**Day 1, morning'))?.content).toContain('**Next tick**: Sun, 22 Nov 2026, 20:00 UTC (in 10 hours)');
    // Readiness is per half period: the tick emptied it.
    expect(await status(h)).toContain('**Ready**: nobody yet (0 of 2)');
    // Ready again 20 minutes later: the tick waits for the 30-minute gap.
    await h.run('!now 2026-11-22T10:20Z', '@alice /ready', '@bob /ready');
    expect(h.channel().at(-1)?.content).toContain('the tick is played early, Sun, 22 Nov 2026, 10:30 UTC (in 10 minutes; ticks are at least 30 minutes apart), instead of Sun, 22 Nov 2026, 20:00 UTC.');
    expect(checkOf(await h.run('!now 2026-11-22T10:29Z', '!clock')).played).toBe(0);
    expect(checkOf(await h.run('!now 2026-11-22T10:30Z', '!clock')).played).toBe(1);
    // After an early tick the next is the scheduled time (at least the gap away).
    expect(meta(h).nextTickAt).toBe('2026-11-22T20:00:00.000Z');
  });

  it('WHEN a commander takes readiness back before the early tick THEN the tick returns to its scheduled time', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings early-tick:60', '@referee /campaign start', '!tick', '@alice /ready', '@bob /ready');
    expect(meta(h).earlyFrom).toBe('2026-11-22T20:00:00.000Z');
    expect((await h.run('@referee /turn extend minutes:30'))[0]?.data).toMatchObject({ error: 'extend.early' });
    const out = await h.run('@bob /ready undo:true');
    expect(out.find((o) => o.to === 'channel')?.content).toContain('bob is no longer ready for Day 1, afternoon: the early tick is off');
    expect(meta(h)).toMatchObject({ nextTickAt: '2026-11-22T20:00:00.000Z', earlyFrom: null, ready: ['alice'] });
    expect(checkOf(await h.run('!now 2026-11-22T11:30Z', '!clock')).played).toBe(0);
  });

  it('WHEN the referee undoes a half period THEN nobody is ready for it again and an early tick goes back to its time', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings early-tick:60', '@referee /campaign start', '!tick', '@alice /ready', '@bob /ready');
    await h.run('@referee /turn undo');
    expect(meta(h)).toMatchObject({ ready: [], earlyFrom: null, nextTickAt: '2026-11-22T20:00:00.000Z' });
  });

  it('WHEN early ticks are off THEN all being ready changes nothing but the status', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start', '@alice /ready', '@bob /ready');
    expect(h.channel().some((o) => o.content.includes('Every commander is ready'))).toBe(false);
    expect(await status(h)).toContain('**Ready**: alice, bob (2 of 2)');
    expect(checkOf(await h.run('!clock')).played).toBe(0);
  });

  it('refuses /ready from a non-commander, before the start, and early-tick with nobody active', async () => {
    h = await consoleHarness({ setup: '!now 2026-11-22T10:00Z\n@referee /campaign create scenario:valormr name:"Autumn War"' });
    const nobody = (await h.run('@referee /campaign settings early-tick:30'))[0];
    expect(errorOf(nobody)).toBe('settings.earlyTickNobody');
    expect(nobody?.content).toContain('assign armies first with `/campaign assign`');
    await h.run('@referee /campaign assign army:hadewych user:alice');
    expect(errorOf((await h.run('@alice /ready'))[0])).toBe('ready.notRunning');
    await h.run('@referee /campaign start');
    const carol = (await h.run('@carol /ready'))[0];
    expect(errorOf(carol)).toBe('ready.notCommander');
    expect(carol?.content).toContain('you command none in this campaign');
  });

  it('puts a Ready button on the reminder, and a ready commander is not reminded', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start', '@alice /ready', '!now 2026-11-22T18:30Z', '!clock');
    expect(h.dms('alice').filter((o) => o.content.includes('**Reminder**'))).toHaveLength(0);
    const [reminder] = h.dms('bob').filter((o) => o.content.includes('**Reminder**'));
    expect((reminder?.data as { buttons: unknown[] }).buttons).toEqual([{ id: expect.stringMatching(/^ready:/), label: 'Ready', style: 'success', command: '/ready' }]);
  });
});

describe('GIVEN quiet hours', () => {
  it('WHEN a scheduled tick falls inside them THEN it moves to their end and says so', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings quiet-hours:19:00-07:00');
    const [started] = await h.run('@referee /campaign start');
    expect(started?.content).toBe('The campaign has started. Next tick Mon, 23 Nov 2026, 07:00 UTC (in 21 hours; moved from 20:00 UTC out of the quiet hours 19:00-07:00).');
    expect(meta(h).nextTickAt).toBe('2026-11-23T07:00:00.000Z');
    // The reminder (two hours before 07:00) would fall inside: it goes before they begin.
    expect(meta(h).remindAt).toBe('2026-11-22T18:59:00.000Z');
    expect(checkOf(await h.run('!now 2026-11-22T20:00Z', '!clock')).played).toBe(0);
    expect(checkOf(await h.run('!now 2026-11-23T07:00Z', '!clock')).played).toBe(1);
    expect(await status(h)).toContain('**Quiet hours**: 19:00-07:00 (UTC): no tick or reminder inside them.');
  });

  it('WHEN an early tick would fall inside them THEN it waits for their end', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign settings quiet-hours:09:00-12:00 early-tick:10', '@referee /campaign start', '@alice /ready', '@bob /ready');
    expect(meta(h).nextTickAt).toBe('2026-11-22T12:00:00.000Z');
  });

  it('refuses quiet hours covering the whole day or unreadable, with what is accepted', async () => {
    h = await consoleHarness({ setup: SETUP });
    for (const bad of ['07:00-07:00', '25:00-07:00', '10pm-7am']) {
      const [out] = await h.run(`@referee /campaign settings quiet-hours:${bad}`);
      expect(errorOf(out)).toBe('settings.invalid');
      expect(out?.content).toBe('Nothing was changed. `quiet-hours` takes a start and an end on the 24-hour clock of the campaign\'s timezone that leave some of the day free, e.g. `quiet-hours:22:00-07:00`, or `none`.');
    }
    await h.run('@referee /campaign settings quiet-hours:22:00-07:00');
    expect((await h.run('@referee /campaign settings quiet-hours:none'))[0]?.content).toContain('quiet-hours none');
  });
});

describe('GIVEN /campaign pause until:', () => {
  it('WHEN the time comes THEN the campaign resumes by itself, and the reason shows in /turn status meanwhile', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start');
    const [paused] = await h.run('@referee /campaign pause until:2d reason:"Holidays"');
    expect(paused?.content).toBe('The campaign is paused by the referee. Reason: Holidays. It resumes by itself Tue, 24 Nov 2026, 10:00 UTC (in 2 days); `/campaign resume` ends it sooner.');
    expect(await status(h)).toContain('**Paused**: Holidays; resumes by itself Tue, 24 Nov 2026, 10:00 UTC (in 2 days).');
    expect(checkOf(await h.run('!now 2026-11-24T09:59Z', '!clock')).resumed).toBe(0);
    const check = await h.run('!now 2026-11-24T10:00Z', '!clock');
    expect(checkOf(check).resumed).toBe(1);
    expect(check.find((o) => o.to === 'channel')?.content).toBe('The campaign resumes. The pause (Holidays) has ended. Next tick Tue, 24 Nov 2026, 20:00 UTC (in 10 hours).');
    expect(meta(h)).toMatchObject({ resumeAt: null, pauseReason: null, nextTickAt: '2026-11-24T20:00:00.000Z' });
    expect(await status(h)).not.toContain('**Paused**');
  });

  it('WHEN the referee resumes sooner THEN the end is forgotten', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start', '@referee /campaign pause until:12h', '@referee /campaign resume');
    expect(meta(h)).toMatchObject({ resumeAt: null, pauseReason: null });
    expect(checkOf(await h.run('!now 2026-11-23T00:00Z', '!clock')).resumed).toBe(0);
  });

  it('refuses an end in the past, too far ahead, or unreadable, with what is accepted', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@referee /campaign start');
    for (const bad of ['2026-11-20', '2027-06-01', 'tomorrow', '2026-02-30']) {
      const [out] = await h.run(`@referee /campaign pause until:${bad}`);
      expect(errorOf(out)).toBe('campaign.pauseUntil');
      expect(out?.content).toContain('`until:` takes a time after now and at most 90 days ahead');
    }
    expect(meta(h).resumeAt).toBeNull();
  });
});
