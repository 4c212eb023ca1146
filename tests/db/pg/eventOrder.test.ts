import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, writeTransaction, type Database } from '../../../src/db/client.js';
import { allEvents, allEventsJson, appendEvents } from '../../../src/db/eventRepo.js';
import type { EngineEvent } from '../../../src/engine/events/index.js';
import { freshPostgresDatabase } from '../../support/postgres.js';

/**
 * The log's order is its ids' order (replay, the chronicle, the journal, the export all read by
 * id). appendEvents writes a transaction's events in statements of 32 rows, then the rest one by
 * one. On both stores, whatever the lengths and however the transactions interleave campaigns,
 * every campaign's log reads back exactly as appended, ids ascending, each row's columns in place.
 * On PostgreSQL a batch's ids do not come from the order in which the server takes its rows'
 * defaults (undocumented): the batch statement lists its rows last first, so a statement whose ids
 * followed the listed rows (nextval a row) would read every batch back reversed here.
 */

const stores: [string, Database][] = [['SQLite', openDatabase(':memory:')], ['PostgreSQL', openDatabase(freshPostgresDatabase())]];
afterAll(() => { for (const [, db] of stores) closeDatabase(db); });

const event = (tag: string): EngineEvent => ({ type: 'note', text: tag, audience: { kind: 'referee' }, data: { tag } });

/** One transaction: which campaign, how many events, and the actor. */
const transaction = fc.record({
  campaign: fc.constantFrom('a', 'b', 'c'),
  length: fc.oneof(fc.nat(5), fc.integer({ min: 30, max: 100 })),
  actor: fc.option(fc.constantFrom('u1', 'u2'), { nil: null }),
});

describe('the event log order', () => {
  for (const [name, db] of stores) {
    it(`GIVEN transactions appending batches of events to interleaved campaigns on ${name} WHEN the logs are read THEN each reads back in append order`, () => {
      let run = 0;
      fc.assert(fc.property(fc.array(transaction, { minLength: 1, maxLength: 6 }), (transactions) => {
        const prefix = `r${run++}-`;
        const expected = new Map<string, { tag: string; actor: string | null; day: number }[]>();
        transactions.forEach((t, ti) => {
          const campaignId = prefix + t.campaign;
          const list = Array.from({ length: t.length }, (_, i) => event(`${ti}.${i}`));
          writeTransaction(db, () => appendEvents(db, campaignId, { day: ti + 1, half: 1 }, t.actor, list, `2026-11-29T0${ti}:00:00.000Z`));
          const kept = expected.get(campaignId) ?? [];
          kept.push(...list.map((e) => ({ tag: e.text, actor: t.actor, day: ti + 1 })));
          expected.set(campaignId, kept);
        });
        for (const [campaignId, want] of expected) {
          const stored = allEvents(db, campaignId);
          expect(stored.map((e) => ({ tag: e.text, actor: e.actorUserId, day: e.time.day }))).toEqual(want);
          expect(stored.map((e) => e.data)).toEqual(want.map((w) => ({ tag: w.tag })));
          expect(stored.every((e) => e.type === 'note' && e.audience === 'referee' && e.time.half === 1 && !e.undone && e.createdAt === `2026-11-29T0${e.time.day - 1}:00:00.000Z`)).toBe(true);
          const ids = stored.map((e) => e.id);
          expect(ids).toEqual([...ids].sort((x, y) => x - y));
          expect(new Set(ids).size).toBe(ids.length);
          expect(JSON.parse(allEventsJson(db, campaignId).json).map((e: { text: string }) => e.text)).toEqual(want.map((w) => w.tag));
        }
      }), { numRuns: 40 });
    });
  }
});
