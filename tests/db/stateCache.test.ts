import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { StateCache } from '../../src/app/stateCache.js';
import { insertCampaign, loadState, saveState, stateRevision } from '../../src/db/campaignRepo.js';
import { closeDatabase, openDatabase, writeTransaction } from '../../src/db/client.js';
import type { ScenarioDoc } from '../../src/engine/scenario/schema.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { STATE_VERSION, upgradeState } from '../../src/engine/campaign/upgrade.js';
import { consoleHarness, VALORMR_SETUP } from '../scenarios/harness.js';
import { campaignState } from './stateArbitrary.js';
import { testTempDir } from '../support/tempDirs.js';

/**
 * The in-memory copy of a campaign's state (src/app/stateCache.ts, issue 25 item 6): a state served
 * from the copy is the state a load from the database gives, field for field and in the same
 * order; a copy is used only at the stored revision, so a write by another process on the same
 * database is never hidden by it.
 */

const db = openDatabase(':memory:');
afterAll(() => closeDatabase(db));
const meta = { guildId: 'g', channelId: 'ch', ownerUserId: 'ref', createdAt: '2026-11-27T06:00:00.000Z' };
const scenario = { id: 'cache' } as unknown as ScenarioDoc;
const NOW = '2026-11-27T07:00:00.000Z';

const load = (id: string): CampaignState => {
  const stored = loadState(db, id);
  if (!stored) throw new Error(`campaign ${id} not found`);
  return upgradeState(stored.json, stored.version);
};

/** The order in which each keyed collection of the state is walked. */
const orderOf = (s: CampaignState): Record<string, string[]> => ({
  armies: Object.keys(s.armies), orders: Object.keys(s.orders), sides: Object.keys(s.sides), contacts: Object.keys(s.contacts),
  couriers: Object.keys(s.couriers), plans: Object.keys(s.plans), known: Object.keys(s.knowledge.armies), reports: Object.keys(s.knowledge.reports),
});

let n = 0;

describe('the in-memory copy of a campaign state', () => {
  it('GIVEN any state saved over another WHEN it is served from the copy THEN it equals the state loaded from the database, in the same order', () => {
    fc.assert(fc.property(campaignState(), campaignState(), (a, b) => {
      const id = `sc${++n}`;
      const created = { ...a, id };
      const changed = { ...b, id, scenarioId: a.scenarioId };
      const cache = new StateCache();
      writeTransaction(db, () => insertCampaign(db, meta, created, scenario, STATE_VERSION));
      const revision = writeTransaction(db, () => saveState(db, created, changed, NOW, STATE_VERSION));
      expect(stateRevision(db, id)).toBe(revision);
      cache.set(id, revision, STATE_VERSION, changed);
      const served = cache.get(id, revision)?.state;
      const loaded = load(id);
      expect(served).toStrictEqual(loaded);
      if (served) expect(orderOf(served)).toEqual(orderOf(loaded));
      // Another save moves the revision on: the copy is not served for it.
      const next = writeTransaction(db, () => saveState(db, changed, created, NOW, STATE_VERSION));
      expect(next).toBe(revision + 1);
      expect(cache.get(id, next)).toBeUndefined();
    }), { numRuns: 150 });
  }, 180_000);

  it('GIVEN two bots on one database WHEN one changes a campaign the other holds a copy of THEN the other reads the change, and its copy equals a fresh load', async () => {
    const databasePath = join(testTempDir('valormr-cache-'), 'two.db');
    const first = await consoleHarness({ databasePath, setup: VALORMR_SETUP });
    const second = await consoleHarness({ databasePath });
    try {
      await first.run('@referee /campaign assign army:hadewych user:alice', '@referee /campaign start');
      const read = (h: typeof first): CampaignState => readCampaign(h.app, { actor: { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] } }, (tx) => tx.state);
      // Both bots hold a copy now.
      expect(read(first)).toBe(read(first));
      expect(read(second).orders['hadewych']).toBeUndefined();
      // The first bot gives an order: the second bot's copy is out of date and is not used.
      await first.run('@alice /move army:hadewych to:1114 unformed:true');
      expect(read(first).orders['hadewych']).toBeDefined();
      expect(read(second).orders['hadewych']).toEqual(read(first).orders['hadewych']);
      // And back: the second bot rests the army; the first sees the rest, not its own old order.
      await second.run('@alice /rest army:hadewych');
      expect(read(first).orders['hadewych']?.kind).toBe('rest');
      // What each copy serves is what the database holds.
      const stored = loadState(first.app.db, read(first).id);
      if (!stored) throw new Error('no campaign');
      for (const h of [first, second]) {
        expect(read(h)).toStrictEqual(upgradeState(stored.json, stored.version));
        expect(orderOf(read(h))).toEqual(orderOf(upgradeState(stored.json, stored.version)));
      }
    } finally {
      first.close();
      second.close();
    }
  }, 60_000);

  it('GIVEN a copy served to a use-case THEN it is frozen: a use-case cannot change what later commands will read', async () => {
    const h = await consoleHarness({ setup: VALORMR_SETUP });
    try {
      const state = readCampaign(h.app, { actor: { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] } }, (tx) => tx.state);
      const army = Object.values(state.armies)[0];
      expect(army).toBeDefined();
      expect(Object.isFrozen(state)).toBe(true);
      expect(Object.isFrozen(army)).toBe(true);
      expect(() => {
        (army as { name: string }).name = 'changed';
      }).toThrow(TypeError);
    } finally {
      h.close();
    }
  });
});
