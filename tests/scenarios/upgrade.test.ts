import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { STATE_VERSION } from '../../src/engine/campaign/upgrade.js';
import { consoleHarness, type Harness } from './harness.js';
import { rawSqlite } from '../../src/db/client.js';
import { testTempDir } from '../support/tempDirs.js';

/**
 * tests/fixtures/v1-campaign.db was written by the release before state versions (see
 * tests/fixtures/README.md): a running campaign at Day 1 evening, contact c2 waiting for engage
 * or evade, courier k1 on the road, a deadline extended once, two ticks with undo snapshots, a DM
 * to dan kept after his DMs were closed, delivered maps stored as base64 in the outbox.
 */
const WHERE = { guildId: 'g1', channelId: 'c1' };
let h: Harness | undefined;
afterEach(() => h?.close());

function oldDatabase(): string {
  const path = join(testTempDir('valormr-upgrade-'), 'old.db');
  copyFileSync(new URL('../fixtures/v1-campaign.db', import.meta.url), path);
  return path;
}

const sql = <T>(x: Harness, query: string, ...args: unknown[]): T => rawSqlite(x.app.db).prepare(query).get(...args) as T;

describe('an old database opens and upgrades without loss', () => {
  it('GIVEN the previous release\'s database WHEN opened THEN the campaign plays on: state, contact, courier, kept DM, extensions, undo snapshots, no image bytes', async () => {
    h = await consoleHarness({ databasePath: oldDatabase(), where: WHERE, now: '2026-11-22T20:10:00Z' });
    const status = await h.run('@referee /turn status');
    expect(status[0]?.content).toContain('Day 1, evening');
    const s = readCampaign(h.app, { actor: { userId: 'referee', userName: 'referee', roleIds: [], ...WHERE } }, (tx) => tx.state);
    expect(s.contacts['c2']?.step).toBe('decision');
    expect(s.couriers['k1']?.status).toBe('travelling');
    expect(s.armies['hadewych']?.march.noRaftHexes).toEqual([]);
    expect(s.settings.undoDepth).toBe(10);
    // The migration moved control state from the log to columns and dropped delivered image bytes.
    expect(sql<{ n: number }>(h, 'select deadline_extensions as n from campaigns').n).toBe(1);
    expect(sql<{ n: number }>(h, "select count(*) as n from outbox_messages where files is not null").n).toBe(0);
    // The DM kept for dan (closed DMs) is read with /intel, once.
    const intel = await h.run('@dan /intel army:lanze');
    expect(intel[0]?.content).toContain('You command **Army of Lanze**');
    expect((await h.run('@dan /intel army:lanze'))[0]?.content).not.toContain('You command **Army of Lanze**');
    // One more extension is allowed, a third is not (the count came from the old log).
    expect((await h.run('@referee /turn extend minutes:30'))[0]?.content).toContain('extended the deadline');
    expect((await h.run('@referee /turn extend minutes:30'))[0]?.content).toContain('already extended 2 times');
    // The old snapshot still undoes the old tick.
    expect((await h.run('@referee /turn undo'))[0]?.content).toContain('The clock is back at Day 1, afternoon');
    // And the campaign plays on, writing the current version; the map is drawn at delivery.
    await h.run('@alice /engage army:hadewych', '@bob /evade army:grallune');
    const tick = await h.run('!tick');
    expect(tick[0]?.content).toContain('Tick: played Day 1, afternoon');
    expect(tick.some((o) => o.to === 'channel' && o.files?.[0]?.endsWith('.png'))).toBe(true);
    expect(sql<{ v: number }>(h, 'select state_version as v from campaigns').v).toBe(STATE_VERSION);
  });

  it('GIVEN a campaign saved by a newer version THEN commands refuse with a sentence and nothing is written or half-read', async () => {
    const path = oldDatabase();
    h = await consoleHarness({ databasePath: path, where: WHERE, now: '2026-11-22T20:10:00Z' });
    rawSqlite(h.app.db).prepare('update campaigns set state_version = ?').run(STATE_VERSION + 1);
    const before = sql<{ n: number }>(h, 'select count(*) as n from events').n;
    for (const line of ['@alice /army status army:hadewych', '@referee /turn advance', '!tick']) {
      const [out] = await h.run(line);
      expect(out?.content).toMatch(/saved by a newer version of the bot.*Upgrade the bot/);
    }
    expect(sql<{ n: number }>(h, 'select count(*) as n from events').n).toBe(before);
  });
});

describe('a campaign of dice in one stream (state version 6) upgrades to secret dice', () => {
  it('GIVEN the version-6 database WHEN opened and played on THEN its past periods check out as before, the period in play too, and the next period has a secret stream, committed as it begins', async () => {
    const path = join(testTempDir('valormr-upgrade-'), 'v6.db');
    copyFileSync(new URL('../fixtures/v6-campaign.db', import.meta.url), path);
    h = await consoleHarness({ databasePath: path, now: '2026-11-27T07:00:00Z' });
    const before = sql<{ v: number }>(h, 'select state_version as v from campaigns').v;
    expect(before).toBe(6);
    expect((await h.run('@carol /dice verify tick:0'))[0]?.content).toMatch(/^✅ Dice period 0 checks out: its seed matches the SHA-256 published before it began, and reproduces all 16 seeded dice/);
    const tick = await h.run('@referee /turn advance force:true');
    expect(tick.some((o) => o.to === 'channel' && /from period 2 on, the dice that are not everyone's .* secret seed/.test(o.content))).toBe(true);
    expect(sql<{ v: number }>(h, 'select state_version as v from campaigns').v).toBe(STATE_VERSION);
    // The period in play at the upgrade ends the old way: its one seed revealed, every die checked.
    expect((await h.run('@carol /dice verify tick:1'))[0]?.content).toMatch(/^✅ Dice period 1 checks out: its seed matches the SHA-256 published before it began/);
    await h.run('@referee /turn advance force:true');
    expect((await h.run('@carol /dice verify tick:2'))[0]?.content).toMatch(/^✅ Dice period 2 checks out: the public seed matches the SHA-256 published before the period began.*Its secret dice .* when the campaign ends/);
    expect((await h.run('@referee /dice verify tick:2'))[0]?.content).toMatch(/^✅ .*the secret seed matches the SHA-256 published as the period began \(not before: the campaign predates secret dice\)/);
    expect((await h.run('@referee /dice verify tick:3'))[0]?.content).toMatch(/^✅ .*the secret seed matches the SHA-256 published before the period began/);
    expect((await h.run('@carol /dice verify tick:0'))[0]?.content).toMatch(/^✅ Dice period 0 checks out/);
  });
});

describe('regiment speeds lost by earlier saves come back from the stored scenario (state version 9)', () => {
  const ACKS_GROUND = fileURLToPath(new URL('../../docs/cases/scenarios/ackslands.json', import.meta.url));

  it('GIVEN an ACKS campaign whose regiment row lost its speed (saved before version 9) WHEN opened THEN the speed is back, the referee is told once which, and it is saved', async () => {
    const path = join(testTempDir('valormr-upgrade-'), 'v8.db');
    h = await consoleHarness({ setup: '', databasePath: path });
    await h.run(`@referee /campaign create name:"Old" file:"${ACKS_GROUND}"`, '@referee /campaign assign army:reg150 user:alice', '@referee /campaign start');
    expect((await h.run('@alice /army status army:reg150'))[0]?.content).toContain('infantry, 30 points a day');
    // The row as the release before version 9 wrote it: companies, no speed (the regiments.data column came later, '{}' for old rows).
    rawSqlite(h.app.db).prepare("update regiments set data = '{}' where army_id = 'reg150'").run();
    rawSqlite(h.app.db).prepare('update campaigns set state_version = 8').run();
    // Opened by a new process (no state kept in memory from before).
    h.close();
    h = await consoleHarness({ databasePath: path });
    expect(sql<{ d: string }>(h, "select data as d from regiments where army_id = 'reg150'").d).toBe('{}');
    // Opened: the upgrade gives the speed back (30 points a day at 150', not the class's 12); the
    // first command that writes saves it in the current shape and tells the referee, privately, what was restored.
    expect((await h.run('@alice /army status army:reg150'))[0]?.content).toContain('infantry, 30 points a day');
    await h.run('@alice /rest army:reg150');
    expect(sql<{ v: number }>(h, 'select state_version as v from campaigns').v).toBe(STATE_VERSION);
    expect(JSON.parse(sql<{ d: string }>(h, "select data as d from regiments where army_id = 'reg150'").d)).toEqual({ speed: 150 });
    const told = h.outputs.filter((o) => o.content.includes('Regiment speeds restored'));
    expect(told.map((o) => [o.to, o.user])).toEqual([['dm', 'referee']]);
    expect(told[0]?.content).toContain('Regiment speeds restored from the campaign\'s scenario');
    expect(told[0]?.content).toMatch(/: first 150'\./);
    expect(sql<{ a: string }>(h, "select audience as a from events where type = 'regimentSpeedsRestored'").a).toBe('referee');
    // Once: later writes say nothing more, and the speed stays.
    await h.run('@alice /hold army:reg150', '!tick');
    expect(h.outputs.filter((o) => o.content.includes('Regiment speeds restored'))).toHaveLength(1);
    expect((await h.run('@alice /army status army:reg150'))[0]?.content).toContain('infantry, 30 points a day');
  });
});
