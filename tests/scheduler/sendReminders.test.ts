import { afterEach, describe, expect, it } from 'vitest';
import { runDueTicks, sendReminders } from '../../src/app/scheduler/index.js';
import type { Harness } from '../scenarios/harness.js';
import { edit, FIRST_DUE, meta, pendingDms, restOrder, scheduled } from './fixtures.js';
import { rawSqlite } from '../../src/db/client.js';

let h: (Harness & { id: string }) | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const at = (iso: string) => h?.clock.set(new Date(iso));
const unix = (iso: string) => Date.parse(iso) / 1000;

describe('sendReminders: once, privately, to commanders without orders', () => {
  it('GIVEN the deadline is further than the lead time THEN nobody is reminded', async () => {
    h = await scheduled();
    at('2026-11-22T17:59:00Z'); // 2 h 1 min before 20:00
    expect(await sendReminders(h.app)).toEqual([]);
    expect(pendingDms(h.app, h.id, 'alice')).toHaveLength(0);
  });

  it('GIVEN the deadline is within the lead time THEN each commander without orders gets one DM naming the army, the deadline and the default', async () => {
    h = await scheduled();
    at('2026-11-22T18:30:00Z');
    expect(await sendReminders(h.app)).toEqual([{ campaignId: h.id, reminded: expect.arrayContaining(['alice', 'bob']) }]);
    const [dm] = pendingDms(h.app, h.id, 'alice');
    expect(dm?.content).toContain('**Army of Hadewych**');
    expect(dm?.content).toContain(`<t:${unix(FIRST_DUE)}:R>`);
    expect(dm?.content).toContain('Day 1, morning');
    expect(dm?.content).toContain('it rests where it stands');
    expect(dm?.data).toMatchObject({ type: 'orderReminder', deadline: FIRST_DUE, defaultOrder: 'rest' });
    expect(pendingDms(h.app, h.id, 'bob')).toHaveLength(1);
    expect(pendingDms(h.app, h.id, 'referee').filter((m) => m.content.includes('Reminder'))).toHaveLength(0);
  });

  it('GIVEN a commander has given an order THEN only the others are reminded', async () => {
    h = await scheduled();
    edit(h.app, h.id, (s) => ({ ...s, orders: { ...s.orders, hadewych: restOrder('hadewych', s) } }));
    at('2026-11-22T18:30:00Z');
    expect(await sendReminders(h.app)).toEqual([{ campaignId: h.id, reminded: ['bob'] }]);
    expect(pendingDms(h.app, h.id, 'alice')).toHaveLength(0);
  });

  it('GIVEN reminders were sent WHEN the scheduler checks again before the deadline THEN nobody is reminded twice', async () => {
    h = await scheduled();
    at('2026-11-22T18:30:00Z');
    await sendReminders(h.app);
    at('2026-11-22T19:30:00Z');
    expect(await sendReminders(h.app)).toEqual([]);
    // Even if the campaign's marker is cleared, the dedupe key keeps it to one DM.
    rawSqlite(h.app.db).prepare('update campaigns set reminder_sent_for = null where id = ?').run(h.id);
    await sendReminders(h.app);
    expect(pendingDms(h.app, h.id, 'alice')).toHaveLength(1);
    expect(meta(h.app, h.id)?.reminderSentFor).toBe(FIRST_DUE);
  });

  it('GIVEN the tick is played THEN the next deadline gets its own reminder', async () => {
    h = await scheduled();
    at('2026-11-22T18:30:00Z');
    await sendReminders(h.app);
    at('2026-11-22T20:00:10Z');
    await runDueTicks(h.app);
    at('2026-11-23T06:30:00Z');
    await sendReminders(h.app);
    const dms = pendingDms(h.app, h.id, 'alice');
    expect(dms).toHaveLength(2);
    expect(dms[1]?.content).toContain('Day 1, afternoon');
    expect(dms[1]?.content).toContain(`<t:${unix('2026-11-23T08:00:00Z')}:R>`);
  });

  it('GIVEN the default order is hold THEN the reminder says so', async () => {
    h = await scheduled({ settings: 'missed-orders:hold' });
    at('2026-11-22T19:00:00Z');
    await sendReminders(h.app);
    expect(pendingDms(h.app, h.id, 'alice')[0]?.content).toContain('it holds its position');
  });

  it('GIVEN a reminder lead of 0 THEN no reminders are sent', async () => {
    h = await scheduled({ settings: 'reminder-lead:0' });
    at('2026-11-22T19:59:00Z');
    expect(await sendReminders(h.app)).toEqual([]);
    expect(pendingDms(h.app, h.id, 'alice')).toHaveLength(0);
  });

  it('GIVEN a paused campaign THEN no reminders are sent', async () => {
    h = await scheduled();
    await h.run('@referee /campaign pause');
    at('2026-11-22T19:00:00Z');
    expect(await sendReminders(h.app)).toEqual([]);
  });

  it('GIVEN the reminders are delivered through the console THEN they arrive as DMs', async () => {
    h = await scheduled();
    at('2026-11-22T19:00:00Z');
    await sendReminders(h.app);
    await h.run('!now 2026-11-22T19:00:01Z');
    expect(h.dms('alice').at(-1)?.content).toMatch(/^\*\*Reminder\*\* \(Autumn War\)/);
  });
});
