import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleSession } from '../../src/console/session.js';
import { dueCampaigns, dueCampaignsPlan } from '../../src/db/campaignRepo.js';
import type { Harness } from '../scenarios/harness.js';
import { campaignIds, scheduled, SETUP } from './fixtures.js';
import { rawSqlite } from '../../src/db/client.js';
import { testTempDir } from '../support/tempDirs.js';

let h: (Harness & { id: string }) | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

describe('the scheduler\'s due scan', () => {
  it('GIVEN running campaigns never scheduled, due, not yet due, and a paused one THEN it finds the never-scheduled first, then the due ones oldest first, and nothing else', async () => {
    h = await scheduled();
    for (const channelId of ['b', 'c', 'd', 'e']) {
      const s = new ConsoleSession(h.app, { where: { guildId: 'console', channelId, baseDir: process.cwd() }, outDir: testTempDir('valormr-due-'), write: () => {} });
      for (const line of [...SETUP.split('\n'), '@referee /campaign start']) await s.handle(line);
    }
    const [a, b, c, d, e] = campaignIds(h.app);
    const set = rawSqlite(h.app.db).prepare('update campaigns set next_tick_at = ?, status = ? where id = ?');
    set.run('2026-11-23T08:00:00.000Z', 'running', a);
    set.run(null, 'running', b);
    set.run('2026-11-22T20:00:00.000Z', 'running', c);
    set.run('2026-11-24T08:00:00.000Z', 'running', d); // not yet due
    set.run('2026-11-22T08:00:00.000Z', 'paused', e); // due, but paused
    const due = dueCampaigns(h.app.db, '2026-11-23T08:00:00.000Z').map((x) => x.id);
    expect(due).toEqual([b, c, a]);
  });

  it('GIVEN the due scan WHEN planned by SQLite THEN each search is bounded by the due time on campaigns_due, never a walk of every running campaign', async () => {
    h = await scheduled();
    const searches = dueCampaignsPlan(h.app.db).filter((line) => /\b(SEARCH|SCAN)\b/.test(line));
    // One `or` over the due time is planned as "SEARCH campaigns USING INDEX campaigns_due (status=?)": every running campaign read.
    expect(searches).toHaveLength(2);
    for (const line of searches) expect(line).toMatch(/USING INDEX campaigns_due \(status=\? AND next_tick_at(=|<)\?\)/);
  });
});
