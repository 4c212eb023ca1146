import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { getCampaignMeta, insertCampaign, setControl } from '../../src/db/campaignRepo.js';
import { closeDatabase, openDatabase, writeTransaction } from '../../src/db/client.js';
import { listNotices, saveNotice, type NoticeRow } from '../../src/db/noticeRepo.js';
import type { ScenarioDoc } from '../../src/engine/scenario/schema.js';
import { campaignState } from './stateArbitrary.js';

/**
 * The table's stored choices come back as they were written: each person's `/notify` row (every
 * field, the "campaign's lead" null included, a later choice replacing an earlier one) and the
 * control column of who was already reminded this half period.
 */

const db = openDatabase(':memory:');
afterAll(() => closeDatabase(db));
const scenario = { id: 'notices' } as unknown as ScenarioDoc;
const NOW = '2026-11-27T07:00:00.000Z';

const userId = fc.constantFrom('alice', 'bob', 'carol', '1234567890123456789', 'o\'neil');
const notice: fc.Arbitrary<NoticeRow> = fc.record({
  userId,
  reminderMinutes: fc.option(fc.integer({ min: 0, max: 1440 }), { nil: null }),
  tickReport: fc.constantFrom('always', 'changes', 'never'),
  orderConfirm: fc.boolean(),
});

let n = 0;
describe('notices and reminders: save and load round trip', () => {
  it('GIVEN any sequence of /notify choices THEN each person\'s last choice is what loads, and the reminded list comes back', () => {
    fc.assert(fc.property(campaignState(), fc.array(notice, { maxLength: 12 }), fc.uniqueArray(userId, { maxLength: 5 }), (state, rows, reminded) => {
      const id = `nt${++n}`;
      writeTransaction(db, () => {
        insertCampaign(db, { guildId: 'g', channelId: id, ownerUserId: 'ref', createdAt: NOW }, { ...state, id }, scenario, 1);
        for (const r of rows) saveNotice(db, id, r);
        setControl(db, id, { reminded });
      });
      const last = new Map(rows.map((r) => [r.userId, r]));
      expect(listNotices(db, id)).toEqual([...last.values()].sort((a, b) => (a.userId < b.userId ? -1 : 1)));
      expect(getCampaignMeta(db, id)?.reminded).toEqual(reminded);
    }), { numRuns: 100 });
  });
});
