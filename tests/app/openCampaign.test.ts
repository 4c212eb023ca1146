import { afterEach, describe, expect, it } from 'vitest';
import { findCampaignInChannel, stateRevision } from '../../src/db/campaignRepo.js';
import { stateCacheOf } from '../../src/app/stateCache.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';

/**
 * How a use-case opens its campaign (src/app/unitOfWork.ts), on both stores: the channel's campaign
 * guessed from the last command (on PostgreSQL its reads go with the lookup) is only a guess, and
 * the new revision a write derives from the one it read under the hold is the stored one.
 */

let h: Harness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const campaignId = (x: Harness): string => {
  const meta = findCampaignInChannel(x.app.db, 'console', 'console');
  if (!meta) throw new Error('no campaign in the console channel');
  return meta.id;
};

describe('GIVEN a channel whose campaign this process has opened before', () => {
  it('WHEN the channel gets another campaign THEN reads and writes open the new one, not the guessed one', async () => {
    h = await consoleHarness();
    await h.run('@referee /campaign create scenario:valormr name:First', '@referee /campaign status', '@referee /campaign assign army:hadewych user:alice');
    const first = campaignId(h);
    await h.run('@referee /campaign delete confirm:First', '@referee /campaign create scenario:valormr name:Second');
    const second = campaignId(h);
    expect(second).not.toBe(first);

    const [status] = await h.run('@referee /campaign status');
    expect(status?.content).toContain('Second');
    // A write: the new campaign's first assignment (bob), where the old one had alice.
    await h.run('@referee /campaign assign army:hadewych user:bob');
    const [army] = await h.run('@bob /army status army:hadewych');
    expect(army?.data).not.toHaveProperty('error');
    const [refused] = await h.run('@alice /army status army:hadewych');
    expect(refused?.content).toContain('You command no army in this campaign');
  });
});

describe('GIVEN writes that save the state', () => {
  it('WHEN each commits THEN the revision the process keeps its copy at is the stored one, one more each time', async () => {
    h = await consoleHarness();
    await h.run('@referee /campaign create scenario:valormr name:Revisions', '@referee /campaign assign army:hadewych user:alice', '@referee /campaign start');
    const id = campaignId(h);
    const revisions: number[] = [];
    for (const line of ['@alice /move army:hadewych to:1114 unformed:true', '@referee /army edit army:hadewych fatigued:true', '@alice /move army:hadewych to:0613 unformed:true']) {
      const [answer] = await h.run(line);
      expect(answer?.data).not.toHaveProperty('error');
      const stored = stateRevision(h.app.db, id);
      if (stored === undefined) throw new Error('no revision stored');
      revisions.push(stored);
      // The copy kept after the commit is at the stored revision (a derived revision off by any amount misses here).
      expect(stateCacheOf(h.app).get(id, stored)).toBeDefined();
    }
    expect(revisions.slice(1).map((r, i) => r - (revisions[i] ?? 0))).toEqual([1, 1]);
  });
});
