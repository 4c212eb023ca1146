import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportedState } from '../../src/app/campaign/exportCampaign.js';
import { snapshotState } from '../../src/app/undoSnapshots.js';
import { countCampaigns, insertCampaign, loadState, saveState } from '../../src/db/campaignRepo.js';
import { closeDatabase, type Database, openDatabase, writeTransaction } from '../../src/db/client.js';
import { lastUndoableTick, recordTick } from '../../src/db/tickRepo.js';
import type { ScenarioDoc } from '../../src/engine/scenario/schema.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { STATE_VERSION, upgradeState } from '../../src/engine/campaign/upgrade.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { campaignState } from './stateArbitrary.js';

/**
 * The round-trip guarantee (issue 24): whatever campaign state the engine holds, saving it and
 * loading it back through the real repositories gives back an equal state; so does the undo
 * snapshot, and the export carries every field. States come from tests/db/stateArbitrary.ts, which
 * fills every field of every entity (each optional one present or absent) across the profiles.
 * The save and the snapshot are proved on both stores: SQLite, and PostgreSQL (fewer runs: each
 * statement there is a round trip to the server).
 */
const meta = { guildId: 'g', channelId: 'ch', ownerUserId: 'ref', createdAt: '2026-11-27T06:00:00.000Z' };
const scenario = { id: 'round-trip' } as unknown as ScenarioDoc;
const NOW = '2026-11-27T07:00:00.000Z';

let n = 0;
/**
 * The records a use-case may leave untouched: its new state shares them with the old by reference,
 * and the save passes a shared record over without comparing it (src/db/stateRepo.ts).
 */
const SHAREABLE = ['armies', 'sides', 'orders', 'contacts', 'couriers', 'weather', 'plans', 'knowledge', 'knowledge.armies', 'knowledge.reports'] as const;

/** `b` with the records named in `shared` taken from `a` by reference, as a use-case's new state shares what it did not change. */
function sharing(a: CampaignState, b: CampaignState, shared: readonly (typeof SHAREABLE)[number][]): CampaignState {
  let out: CampaignState = b;
  for (const f of shared) {
    if (f === 'knowledge.armies') out = { ...out, knowledge: { ...out.knowledge, armies: a.knowledge.armies } };
    else if (f === 'knowledge.reports') out = { ...out, knowledge: { ...out.knowledge, reports: a.knowledge.reports } };
    else out = { ...out, [f]: a[f] };
  }
  return out;
}

/**
 * Two states of one campaign: the first as created, the second after a use-case. The second is
 * either generated on its own or shares some of the first's records by reference.
 */
const pair = fc.oneof(
  fc.tuple(campaignState(), campaignState()),
  fc.tuple(campaignState(), campaignState(), fc.subarray([...SHAREABLE], { minLength: 1 })).map(([a, b, shared]): [CampaignState, CampaignState] => [a, sharing(a, b, shared)]),
);
/** The pair under a campaign id not used yet in the database (shrinking replays a run); a campaign keeps its scenario. */
const fresh = ([a, b]: [CampaignState, CampaignState]): [CampaignState, CampaignState] => {
  const id = `rt${++n}`;
  return [{ ...a, id }, { ...b, id, scenarioId: a.scenarioId }];
};

const load = (db: Database, id: string): CampaignState => {
  const stored = loadState(db, id);
  if (!stored) throw new Error(`campaign ${id} not found`);
  return upgradeState(stored.json, stored.version);
};

/** Pairs per run of the first property: 1,000 generated states, each saved and loaded. */
const RUNS = 500;
/** Generating and storing a thousand states takes seconds on a loaded machine: a timeout, not a measure. */
const LONG = 180_000;

const stores: [string, () => Database, number][] = [['SQLite', () => openDatabase(':memory:'), RUNS], ['PostgreSQL', () => openDatabase(freshPostgresDatabase()), RUNS / 5]];

describe.each(stores)('state round trip through the repositories (%s)', (_store, open, runs) => {
  let db: Database;
  const statuses = new Map<string, string>();
  beforeAll(() => {
    db = open();
  });
  afterAll(() => closeDatabase(db));

  it('a created campaign loads back equal, and so does every later save of it (the diff writer)', () => {
    fc.assert(fc.property(pair, (p) => {
      const [created, changed] = fresh(p);
      writeTransaction(db, () => insertCampaign(db, meta, created, scenario, STATE_VERSION));
      expect(load(db, created.id)).toStrictEqual(created);
      writeTransaction(db, () => saveState(db, created, changed, NOW, STATE_VERSION));
      expect(load(db, created.id)).toStrictEqual(changed);
      // Rewriting every row (the upgrade of an older shape) gives back the same state again.
      writeTransaction(db, () => saveState(db, changed, changed, NOW, STATE_VERSION, true));
      expect(load(db, created.id)).toStrictEqual(changed);
      statuses.set(created.id, changed.status);
    }), { numRuns: runs });
  }, LONG);

  it('the campaigns saved above are counted by their status (what the bot logs at start)', () => {
    const expected: Record<string, number> = {};
    for (const status of statuses.values()) expected[status] = (expected[status] ?? 0) + 1;
    expect(countCampaigns(db)).toEqual(expected);
  });

  it('the undo snapshot of a tick gives back the state before it', () => {
    fc.assert(fc.property(campaignState(), (generated) => {
      const before = { ...generated, id: `rt${++n}` };
      writeTransaction(db, () => {
        insertCampaign(db, meta, before, scenario, STATE_VERSION);
        recordTick(db, before.id, 7, before, STATE_VERSION, 0, NOW, 10);
      });
      const tick = lastUndoableTick(db, before.id);
      expect(tick).toBeDefined();
      if (tick) expect(snapshotState(tick)).toStrictEqual(before);
    }), { numRuns: runs / 2 });
  }, LONG);
});

describe('the export', () => {
  it('the export carries every field of the state (only the unrevealed seeds are withheld)', () => {
    fc.assert(fc.property(campaignState(), (state) => {
      const doc: unknown = JSON.parse(JSON.stringify({ state: exportedState(state) }));
      const read = upgradeState((doc as { state: object }).state, STATE_VERSION);
      expect({ ...read, rng: state.rng }).toStrictEqual(state);
      expect(read.rng.seed).not.toBe(state.rng.seed);
      expect(read.rng.next).not.toBe(state.rng.next);
    }), { numRuns: RUNS / 2 });
  }, LONG);
});
