import { afterEach, describe, expect, it } from 'vitest';
import { autumnWar, consoleHarness, type Harness } from './harness.js';
import type { ConsoleOutput } from '../../src/console/session.js';

let h: Harness | undefined;
afterEach(() => h?.close());

// Ticks at 08:00 and 20:00 UTC (the default cadence); the campaign's reminder lead is 120 minutes.
const SETUP = autumnWar({ hadewych: 'alice', aeskrvald: 'bob' });

const errorOf = (o: ConsoleOutput | undefined): unknown => (o?.data as { error?: string } | undefined)?.error;
const reminders = (x: Harness, user: string) => x.dms(user).filter((o) => o.content.includes('**Reminder**'));

describe('GIVEN /notify', () => {
  it('WHEN a player asks without options THEN the defaults are shown: the campaign\'s lead, a tick report only when something happened, no confirmations', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [answer] = await h.run('@alice /notify');
    expect(answer?.to).toBe('ephemeral');
    expect(answer?.content).toContain('- Reminder: 2 h before each deadline, while an army of yours has no orders (the campaign\'s lead).');
    expect(answer?.content).toContain('- Tick report: only after a tick in which something happened to your armies.');
    expect(answer?.content).toContain('- Confirmation DM when your orders are stored: no.');
  });

  it('WHEN a player stores choices THEN they are kept and shown back, and another player keeps the defaults', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [stored] = await h.run('@alice /notify reminder:1h30m tick-report:always order-confirm:true');
    expect(stored?.content).toContain('are stored');
    const [shown] = await h.run('@alice /notify');
    expect(shown?.data).toEqual({ notices: { reminderMinutes: 90, reminderFromCampaign: false, tickReport: 'always', orderConfirm: true } });
    expect((await h.run('@bob /notify'))[0]?.data).toEqual({ notices: { reminderMinutes: 120, reminderFromCampaign: true, tickReport: 'changes', orderConfirm: false } });
    // Back to the campaign's lead; the other choices stay.
    await h.run('@alice /notify reminder:campaign');
    expect((await h.run('@alice /notify'))[0]?.data).toEqual({ notices: { reminderMinutes: 120, reminderFromCampaign: true, tickReport: 'always', orderConfirm: true } });
  });

  it.each([
    ['reminder:soon', /"soon" is not a lead I can read. `reminder:` takes a lead before the deadline, `30m`, `2h`/],
    ['reminder:30h', /1800 minutes is more than a day/],
    ['reminder:"-5m"', /is not a lead I can read/],
    ['tick-report:sometimes', /choose one of always, changes, never/],
  ])('WHEN %s THEN it is refused with what is accepted, and nothing is stored', async (option, message) => {
    h = await consoleHarness({ setup: SETUP });
    const [refused] = await h.run(`@alice /notify ${option}`);
    expect(errorOf(refused)).toMatch(/^(notify|console)\./);
    expect(refused?.content).toMatch(message);
    expect((await h.run('@alice /notify'))[0]?.data).toMatchObject({ notices: { reminderFromCampaign: true, tickReport: 'changes' } });
  });

  it('WHEN two commanders chose different leads THEN each is reminded once, at their own lead; one who chose none is never reminded', async () => {
    h = await consoleHarness({ setup: `${SETUP}\n@referee /campaign assign army:solon user:carol` });
    await h.run('@alice /notify reminder:30m', '@carol /notify reminder:none', '@referee /campaign start');
    // The deadline is 20:00: bob's reminder (the campaign's 2 h) at 18:00, alice's at 19:30.
    await h.run('!now 2026-11-22T18:00Z', '!clock');
    expect(reminders(h, 'bob')).toHaveLength(1);
    expect(reminders(h, 'alice')).toHaveLength(0);
    await h.run('!now 2026-11-22T19:00Z', '!clock');
    expect(reminders(h, 'alice')).toHaveLength(0);
    await h.run('!now 2026-11-22T19:30Z', '!clock', '!now 2026-11-22T19:45Z', '!clock');
    expect(reminders(h, 'alice')).toHaveLength(1);
    expect(reminders(h, 'bob')).toHaveLength(1);
    expect(reminders(h, 'carol')).toHaveLength(0);
    // The next half period reminds again, each at their lead.
    await h.run('!now 2026-11-22T20:00Z', '!clock', '!now 2026-11-23T06:00Z', '!clock');
    expect(reminders(h, 'bob')).toHaveLength(2);
    expect(reminders(h, 'alice')).toHaveLength(1);
  });

  it('WHEN a commander wants a longer lead than the campaign\'s THEN they are reminded that much earlier', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@alice /notify reminder:4h', '@referee /campaign start', '!now 2026-11-22T16:00Z', '!clock');
    expect(reminders(h, 'alice')).toHaveLength(1);
    expect(reminders(h, 'bob')).toHaveLength(0);
  });

  it('WHEN a commander asked for order confirmations THEN storing an order DMs them what was stored; others get none', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@alice /notify order-confirm:true', '@referee /campaign start');
    const [answer] = await h.run('@alice /rest army:hadewych');
    const [confirm] = h.dms('alice').filter((o) => o.content.startsWith('**Orders stored**'));
    expect(confirm?.content).toContain('**Orders stored** (Autumn War, Day 1, morning): **Army of Hadewych**.');
    expect(confirm?.content).toContain(answer?.content ?? 'missing');
    await h.run('@bob /rest army:aeskrvald');
    expect(h.dms('bob').some((o) => o.content.startsWith('**Orders stored**'))).toBe(false);
    // A refused order stores nothing and confirms nothing.
    await h.run('@alice /rest army:aeskrvald');
    expect(h.dms('alice').filter((o) => o.content.startsWith('**Orders stored**'))).toHaveLength(1);
  });
});
