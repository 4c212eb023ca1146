import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { seededDice } from '../../src/console/seededDice.js';
import { ManualClock } from '../../src/app/ports.js';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { startCampaign } from '../../src/app/campaign/lifecycle.js';
import { runDueTicks } from '../../src/app/scheduler/index.js';
import { timeIndex } from '../../src/engine/clock/gameTime.js';
import type { Harness } from '../scenarios/harness.js';
import { campaignIds, capturingLogger, edit, FIRST_DUE, meta, pendingDms, scheduled, state, ticksPlayed, withBattle, withoutBattles } from './fixtures.js';
import { rawSqlite } from '../../src/db/client.js';
import { testTempDir } from '../support/tempDirs.js';

let h: (Harness & { id: string }) | undefined;
const extra: { close(): void }[] = [];
afterEach(() => {
  h?.close();
  h = undefined;
  for (const a of extra.splice(0)) a.close();
});

const at = (iso: string) => h?.clock.set(new Date(iso));

describe('runDueTicks: the database says when a tick is due', () => {
  it('GIVEN a started campaign THEN its first tick is due at the next scheduled instant', async () => {
    h = await scheduled();
    expect(meta(h.app, h.id)?.nextTickAt).toBe(FIRST_DUE);
  });

  it('GIVEN the due time has not come WHEN triggered THEN nothing is played', async () => {
    h = await scheduled();
    at('2026-11-22T19:59:59Z');
    expect(await runDueTicks(h.app)).toEqual([]);
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 0 });
  });

  it('GIVEN the due time has come WHEN triggered THEN one tick is played and the next is due at the next instant of the schedule', async () => {
    h = await scheduled();
    at('2026-11-22T20:00:20Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 1 }]);
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 1 });
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-23T08:00:00.000Z');
    expect(await runDueTicks(h.app)).toEqual([]);
    expect(ticksPlayed(h.app, h.id)).toBe(1);
  });

  it('GIVEN a tick played a few minutes late THEN the next due time still follows the schedule, not now', async () => {
    h = await scheduled({ settings: 'cadence:"0 */3 * * *"' });
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-22T12:00:00.000Z');
    at('2026-11-22T12:07:00Z');
    await runDueTicks(h.app);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-22T15:00:00.000Z');
  });

  it('GIVEN a timezone THEN the cadence is read in it', async () => {
    h = await scheduled({ settings: 'cadence:"0 8,20 * * *" timezone:Europe/Berlin' });
    // 20:00 in Berlin (UTC+1 in November) is 19:00Z.
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-22T19:00:00.000Z');
  });
});

describe('runDueTicks: catch-up after downtime', () => {
  it('GIVEN policy all (default) and three missed ticks THEN each is played in order and the next due time follows the schedule', async () => {
    h = await scheduled();
    at('2026-11-23T21:30:00Z'); // 20:00, 08:00, 20:00 missed
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 3 }]);
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 3 });
    expect(ticksPlayed(h.app, h.id)).toBe(3);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-24T08:00:00.000Z');
    const chronicle = await h.run(`!now ${h.clock.now().toISOString()}`);
    // Nobody had orders: each map post says nothing moved instead of drawing the same map again.
    const isMap = (o: { data?: unknown }): boolean => (o.data as { map?: string } | undefined)?.map !== undefined;
    const maps = chronicle.filter((o) => o.to === 'channel' && isMap(o));
    expect(maps.map((o) => o.content.split(':')[0])).toEqual(['Nothing moved on the map in Day 1, morning', 'Nothing moved on the map in Day 1, afternoon', 'Nothing moved on the map in Day 1, evening']);
    const posts = chronicle.filter((o) => o.to === 'channel' && !isMap(o)).map((o) => o.content);
    expect(posts.map((p) => p.split('\n')[0])).toEqual([
      expect.stringContaining('Day 1, morning'),
      expect.stringContaining('Day 1, afternoon'),
      expect.stringContaining('Day 1, evening'),
    ]);
  });

  it('GIVEN policy all and more missed ticks than the cap (4) THEN none is played, the campaign pauses and the referee is told how to resume', async () => {
    h = await scheduled({ settings: 'cadence:"* * * * *"' });
    at('2027-01-31T10:00:00Z'); // about 100,000 missed minutes
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 0, skipped: 'catchUp:paused', missed: 5 }]);
    expect(ticksPlayed(h.app, h.id)).toBe(0);
    expect(state(h.app, h.id).status).toBe('paused');
    const dm = pendingDms(h.app, h.id, 'referee').find((m) => m.content.includes('catch-up cap'));
    expect(dm?.content).toMatch(/more than 4 scheduled ticks/);
    expect(dm?.content).toContain('/campaign resume missed:');
    expect(await runDueTicks(h.app)).toEqual([]);
    const refused = await h.run('@referee /campaign resume');
    expect(refused[0]?.content).toMatch(/half periods were missed.*missed:none.*missed:one.*missed:all/);
  });

  it('GIVEN a catch-up pause WHEN the referee resumes with missed:all THEN every missed tick is played in order', async () => {
    h = await scheduled({ settings: 'cadence:"* * * * *"' });
    at('2027-01-31T10:00:00Z');
    await runDueTicks(h.app);
    await h.run('@referee /campaign resume missed:all');
    expect(await runDueTicks(h.app, { maxTicksPerCampaign: 6 })).toEqual([{ campaignId: h.id, played: 6, skipped: 'limit' }]);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-22T10:07:00.000Z');
  }, 120_000); // ~100,000 missed minutes counted: generous for a loaded machine; its speed is not checked here

  it('GIVEN a catch-up pause WHEN the referee resumes with missed:one THEN one is played and the clock goes on from now; with missed:none none is', async () => {
    h = await scheduled();
    at('2026-11-25T21:00:00Z'); // 7 instants
    await runDueTicks(h.app);
    await h.run('@referee /campaign resume missed:one');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 1 }]);
    expect(ticksPlayed(h.app, h.id)).toBe(1);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-26T08:00:00.000Z');
    h.close();
    h = await scheduled();
    at('2026-11-25T21:00:00Z');
    await runDueTicks(h.app);
    await h.run('@referee /campaign resume missed:none');
    expect(await runDueTicks(h.app)).toEqual([]);
    expect(ticksPlayed(h.app, h.id)).toBe(0);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-26T08:00:00.000Z');
  });

  it('GIVEN the clock went backwards (before the last tick was played) THEN nothing is played until it catches up, and resuming never schedules a tick in the past', async () => {
    h = await scheduled();
    at('2026-11-22T20:00:30Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 1 }]);
    const { lines, logger } = capturingLogger();
    at('2026-11-21T09:00:00Z'); // a day and a half back
    await h.run('@referee /campaign pause', '@referee /campaign resume');
    expect(Date.parse(meta(h.app, h.id)?.nextTickAt ?? '')).toBeGreaterThan(Date.parse('2026-11-22T20:00:30Z'));
    rawSqlite(h.app.db).prepare('update campaigns set next_tick_at = ? where id = ?').run('2026-11-21T08:00:00.000Z', h.id);
    expect(await runDueTicks({ ...h.app, logger })).toEqual([{ campaignId: h.id, played: 0, skipped: 'clockBehind' }]);
    expect(ticksPlayed(h.app, h.id)).toBe(1);
    expect(lines.some((l) => l.level === 'warn' && String(l.msg).includes('clock is behind'))).toBe(true);
  });

  it('GIVEN policy one and three missed ticks THEN one is played, the next is due after now, and the referee is told two were skipped', async () => {
    h = await scheduled({ settings: 'catch-up:one' });
    at('2026-11-23T21:30:00Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 1, skipped: 'catchUp:one', missed: 2 }]);
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 1 });
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-24T08:00:00.000Z');
    const dm = pendingDms(h.app, h.id, 'referee').filter((m) => m.content.includes('scheduled tick'));
    expect(dm).toHaveLength(1);
    expect(dm[0]?.content).toContain('3 scheduled tick(s)');
    expect(dm[0]?.content).toContain('skipped 2');
    expect(dm[0]?.content).toContain(`<t:${Date.parse('2026-11-24T08:00:00Z') / 1000}:R>`);
    expect(await runDueTicks(h.app)).toEqual([]);
    expect(pendingDms(h.app, h.id, 'referee').filter((m) => m.content.includes('scheduled tick'))).toHaveLength(1);
  });

  it('GIVEN policy none and missed ticks THEN none is played, the next is due after now, and the referee is told', async () => {
    h = await scheduled({ settings: 'catch-up:none' });
    at('2026-11-23T21:30:00Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 0, skipped: 'catchUp:none', missed: 3 }]);
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 0 });
    expect(ticksPlayed(h.app, h.id)).toBe(0);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-24T08:00:00.000Z');
    expect(pendingDms(h.app, h.id, 'referee')[0]?.content).toMatch(/3 scheduled tick\(s\).*none was played/);
  });

  it('GIVEN policy none but only the current tick is late (no later instant passed) THEN it is played', async () => {
    h = await scheduled({ settings: 'catch-up:none' });
    at('2026-11-23T07:00:00Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 1 }]);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-23T08:00:00.000Z');
  });

  it('GIVEN a very long downtime within the catch-up cap THEN at most the per-run limit is played and the rest follow on the next run', async () => {
    h = await scheduled({ settings: 'catch-up-cap:8' });
    at('2026-11-25T21:00:00Z'); // 7 instants
    expect(await runDueTicks(h.app, { maxTicksPerCampaign: 4 })).toEqual([{ campaignId: h.id, played: 4, skipped: 'limit' }]);
    expect(await runDueTicks(h.app, { maxTicksPerCampaign: 4 })).toEqual([{ campaignId: h.id, played: 3 }]);
    expect(timeIndex(state(h.app, h.id).clock)).toBe(7);
  });
});

describe('runDueTicks: idempotent', () => {
  it('GIVEN a doubled trigger (two runs at once) THEN every due tick is played exactly once', async () => {
    h = await scheduled();
    at('2026-11-23T21:30:00Z');
    const [a, b] = await Promise.all([runDueTicks(h.app), runDueTicks(h.app)]);
    const played = [...(a ?? []), ...(b ?? [])].reduce((n, r) => n + r.played, 0);
    expect(played).toBe(3);
    expect(ticksPlayed(h.app, h.id)).toBe(3);
    expect(timeIndex(state(h.app, h.id).clock)).toBe(3);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-24T08:00:00.000Z');
  });

  it('GIVEN two processes on one database file WHEN both trigger at once THEN every due tick is played exactly once', async () => {
    const dir = testTempDir('valormr-sched-');
    const databasePath = join(dir, 'campaign.db');
    h = await scheduled({ databasePath });
    const other = createApp({ databasePath, clock: new ManualClock(new Date('2026-11-23T21:30:00Z')), dice: seededDice(1) });
    extra.push(other);
    at('2026-11-23T21:30:00Z');
    const [a, b] = await Promise.all([runDueTicks(h.app), runDueTicks(other)]);
    expect([...(a ?? []), ...(b ?? [])].reduce((n, r) => n + r.played, 0)).toBe(3);
    expect(ticksPlayed(other, h.id)).toBe(3);
    expect(timeIndex(state(other, h.id).clock)).toBe(3);
    expect(await runDueTicks(other)).toEqual([]);
    expect(await runDueTicks(h.app)).toEqual([]);
  });

  it('GIVEN the same run repeated THEN the second does nothing', async () => {
    h = await scheduled();
    at('2026-11-22T20:00:00Z');
    await runDueTicks(h.app);
    await runDueTicks(h.app);
    expect(ticksPlayed(h.app, h.id)).toBe(1);
  });
});

describe('runDueTicks: a crash in the middle of a tick', () => {
  it('GIVEN the database fails inside the tick THEN the whole tick rolls back, the error is logged with the campaign id, it stays due, and runs cleanly next time', async () => {
    h = await scheduled();
    const { lines, logger } = capturingLogger();
    const app = { ...h.app, logger };
    const before = state(h.app, h.id);
    // Writing the tick's events (after the state, the ticks row and the chronicle are written) fails.
    rawSqlite(h.app.db).exec(`CREATE TRIGGER crash BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'injected crash'); END;`);
    at('2026-11-22T20:00:30Z');
    expect(await runDueTicks(app)).toEqual([{ campaignId: h.id, played: 0, skipped: 'error' }]);
    expect(lines.find((l) => l.level === 'error')?.obj).toMatchObject({ campaignId: h.id, err: { message: expect.stringContaining('injected crash') } });
    expect(state(h.app, h.id)).toEqual(before);
    expect(ticksPlayed(h.app, h.id)).toBe(0);
    expect(meta(h.app, h.id)?.nextTickAt).toBe(FIRST_DUE);
    expect(rawSqlite(h.app.db).prepare('select count(*) as n from outbox_messages where status = ?').get('pending')).toEqual({ n: 0 });

    rawSqlite(h.app.db).exec('DROP TRIGGER crash');
    expect(await runDueTicks(app)).toEqual([{ campaignId: h.id, played: 1 }]);
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 1 });
    expect(ticksPlayed(h.app, h.id)).toBe(1);
  });

  it('GIVEN one campaign fails THEN the others still play', async () => {
    h = await scheduled();
    const actor = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'other', roleIds: [] };
    createCampaign(h.app, actor, { name: 'Second', scenario: 'valormr' });
    startCampaign(h.app, actor);
    const second = campaignIds(h.app).find((c) => c !== h?.id) as string;
    const { lines, logger } = capturingLogger();
    // The first campaign's stored state is broken (an army on no hex): its tick fails, the second's is played.
    // Edited behind the app, as another process would: the revision moves, so no cached copy is trusted.
    rawSqlite(h.app.db).prepare("update armies set hex = 'nowhere' where campaign_id = ? and id = 'hadewych'").run(h.id);
    rawSqlite(h.app.db).prepare('update campaigns set revision = revision + 1 where id = ?').run(h.id);
    at('2026-11-22T20:00:30Z');
    const reports = await runDueTicks({ ...h.app, logger });
    expect(reports).toEqual(expect.arrayContaining([{ campaignId: h.id, played: 0, skipped: 'error' }, { campaignId: second, played: 1 }]));
    expect(lines.filter((l) => l.level === 'error').map((l) => l.obj.campaignId)).toEqual([h.id]);
  });
});

describe('runDueTicks: pause and resume', () => {
  it('GIVEN a paused campaign THEN no tick is played however late; resumed, the next tick is due after now (no burst)', async () => {
    h = await scheduled();
    await h.run('@referee /campaign pause');
    expect(meta(h.app, h.id)?.nextTickAt).toBeNull();
    at('2026-11-24T12:00:00Z');
    expect(await runDueTicks(h.app)).toEqual([]);
    expect(ticksPlayed(h.app, h.id)).toBe(0);
    await h.run('@referee /campaign resume');
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-24T20:00:00.000Z');
    expect(await runDueTicks(h.app)).toEqual([]);
    at('2026-11-24T20:00:05Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 1 }]);
  });

  it('GIVEN a campaign not started THEN nothing is played', async () => {
    h = await scheduled({ start: false });
    at('2026-11-24T12:00:00Z');
    expect(await runDueTicks(h.app)).toEqual([]);
  });
});

describe('runDueTicks: a battle waits for its result (RULINGS 5)', () => {
  it('GIVEN a battle pending THEN the tick is not played, stays due, and the referee is told once', async () => {
    h = await scheduled();
    edit(h.app, h.id, withBattle);
    at('2026-11-22T20:00:30Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 0, skipped: 'battlePending' }]);
    at('2026-11-22T20:01:30Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 0, skipped: 'battlePending' }]);
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 0 });
    expect(meta(h.app, h.id)?.nextTickAt).toBe(FIRST_DUE);
    const told = pendingDms(h.app, h.id, 'referee');
    expect(told).toHaveLength(1);
    expect(told[0]?.content).toContain('waits for a battle result');
    expect(told[0]?.content).toContain('Army of Hadewych vs');
  });

  it('GIVEN the battle is recorded after several scheduled instants THEN the held tick is played once and the next follows the schedule from now', async () => {
    h = await scheduled();
    edit(h.app, h.id, withBattle);
    at('2026-11-22T20:00:30Z');
    await runDueTicks(h.app);
    at('2026-11-23T15:00:00Z');
    await runDueTicks(h.app);
    edit(h.app, h.id, withoutBattles);
    at('2026-11-23T15:01:00Z');
    expect(await runDueTicks(h.app)).toEqual([{ campaignId: h.id, played: 1 }]);
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-23T20:00:00.000Z');
  });

  it('GIVEN a battle pending WHEN the referee forces the turn THEN it is played (by hand, not by the scheduler)', async () => {
    h = await scheduled();
    edit(h.app, h.id, withBattle);
    await h.run('@referee /turn advance force:true');
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 1 });
  });
});
