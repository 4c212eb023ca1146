import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closedContacts, insertCampaign, saveState } from '../../src/db/campaignRepo.js';
import { closeDatabase, openDatabase, rawSqlite, writeTransaction } from '../../src/db/client.js';
import { closedEstimates } from '../../src/db/contactEstimateRepo.js';
import { intelFor } from '../../src/engine/contact/index.js';
import type { ScenarioDoc } from '../../src/engine/scenario/schema.js';
import type { CampaignState } from '../../src/engine/state/campaign.js';
import { STATE_VERSION } from '../../src/engine/campaign/upgrade.js';
import { campaignState } from './stateArbitrary.js';

/**
 * The closed contacts' estimates (table contact_estimates, migration 0010) are an index of the
 * closed records: for every army, the newest estimate of each target, in the order the targets
 * first appear, is what reading every closed record in order (intelFor) and keeping the last
 * estimate of each target gives; after contacts close, reopen (undo) and close again. The
 * migration's own fill of the table from older records gives the same rows.
 */

const db = openDatabase(':memory:');
afterAll(() => closeDatabase(db));
const meta = { guildId: 'g', channelId: 'ch', ownerUserId: 'ref', createdAt: '2026-11-27T06:00:00.000Z' };
const scenario = { id: 'estimates' } as unknown as ScenarioDoc;
const NOW = '2026-11-27T07:00:00.000Z';

/** The engine numbers its contacts `c<n>`; the generator's one other id (a fog-of-war case) is given a number here. */
const numbered = (s: CampaignState, id: string): CampaignState => ({
  ...s, id, contacts: Object.fromEntries(Object.values(s.contacts).map((c) => (/^c\d+$/.test(c.id) ? c : { ...c, id: 'c99' })).map((c) => [c.id, c])),
});

/** What reading every closed record gives: the last estimate of each target, targets in order of first appearance. */
function fromRecords(campaignId: string, armyId: string): unknown[] {
  const latest = new Map<string, unknown>();
  for (const entry of intelFor(closedContacts(db, campaignId, armyId), armyId)) for (const e of entry.estimates) latest.set(e.targetId, e);
  return [...latest.values()];
}
const fromIndex = (campaignId: string, armyId: string): unknown[] => [...closedEstimates(db, campaignId, armyId)].sort((a, b) => a.first - b.first).map((r) => r.estimate);

const rows = (campaignId: string): unknown[] => rawSqlite(db).prepare('select * from contact_estimates where campaign_id = ? order by army_id, target_id, contact_id').all(campaignId);

let n = 0;
describe('closed contacts\' estimates by index', () => {
  it('GIVEN contacts closed, reopened and closed again WHEN read by army THEN the index gives what the records give, and the migration fills the same rows', () => {
    fc.assert(fc.property(fc.tuple(campaignState(), campaignState(), campaignState()), ([a, b, c]) => {
      const id = `ce${++n}`;
      const [s1, s2, s3] = [numbered(a, id), numbered({ ...b, scenarioId: a.scenarioId }, id), numbered({ ...c, scenarioId: a.scenarioId }, id)];
      writeTransaction(db, () => insertCampaign(db, meta, s1, scenario, STATE_VERSION));
      const armies = [...new Set([s1, s2, s3].flatMap((s) => Object.keys(s.armies)))];
      for (const [prev, next] of [[s1, s2], [s2, s1], [s1, s3]] as const) {
        writeTransaction(db, () => saveState(db, prev, next, NOW, STATE_VERSION));
        for (const armyId of armies) expect(fromIndex(id, armyId)).toStrictEqual(fromRecords(id, armyId));
      }
      const written = rows(id);
      rawSqlite(db).prepare('delete from contact_estimates where campaign_id = ?').run(id);
      rawSqlite(db).exec(fill.replace('WHERE c.`live` = 0', `WHERE c.\`live\` = 0 AND c.\`campaign_id\` = '${id}'`));
      expect(rows(id)).toStrictEqual(written);
    }), { numRuns: 150 });
  }, 180_000);
});

/** Migration 0010's last statement: the table filled from the records closed before it. */
const fill = readFileSync(new URL('../../migrations/0010_contact_estimates.sql', import.meta.url), 'utf8').split('--> statement-breakpoint').at(-1) ?? '';
