import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { packCold } from '../../src/app/packCold.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { rawSqlite, writeTransaction } from '../../src/db/client.js';
import { allEventsJson, appendEvents } from '../../src/db/eventRepo.js';
import { appendJournal, journalTextOf, lastJournalSeq } from '../../src/db/journalRepo.js';
import { playedTicks, recordTick } from '../../src/db/tickRepo.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';

/*
 * Issue 25: a long campaign's SQLite file is what it holds. Cold rows are packed by the scheduler
 * (src/app/packCold.ts) in runs written into fresh pages: rewritten where they stood, packed rows
 * left their pages about half empty (SQLite merges a page only once it is two thirds empty), and
 * the file of a 1,200-half season was twice its content. Here days of rows arrive, of random sizes,
 * dice events (never packed) and another campaign's events among them, and the scheduler's packing
 * runs after each; the tables' pages must stay full (SQLite's dbstat), and every reader must get
 * the same text back at every step.
 */

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = ['@referee /campaign create scenario:valormr name:"Pages"', '@referee /campaign start'];
const referee = { userId: 'referee', userName: 'referee', roleIds: [], guildId: 'console', channelId: 'console' };

/** The share of the table's pages (its indexes apart) that holds nothing (dbstat). */
function unusedShare(x: Harness, table: string): number {
  const r = rawSqlite(x.app.db).prepare('select sum(unused) as unused, sum(pgsize) as size from dbstat where name = ?').get(table) as { unused: number; size: number };
  return r.unused / r.size;
}

/** A seeded source of whole numbers 1..sides (mulberry32): the campaign's dice record every roll, far too slow for tens of thousands of words. */
function numbers(seed: number): { roll(sides: number, what: string): number } {
  let a = seed >>> 0;
  return {
    roll(sides) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return 1 + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * sides);
    },
  };
}

/**
 * A day of rows as the log gets them (two half periods), drawn from `seed`: 100-200 events of both
 * campaigns, a third of them dice events, 10-60 journal rows and two ticks, in words of a small
 * vocabulary (packed several times smaller, as real rows are).
 */
function writeDay(x: Harness, id: string, seed: number, k: number): void {
  const dice = numbers(seed * 1000 + k);
  const words = (n: number): string => Array.from({ length: n }, () => WORDS[dice.roll(WORDS.length, 'word') - 1]).join(' ');
  const now = x.clock.now().toISOString();
  writeTransaction(x.app.db, () => {
    for (let i = 0, n = 99 + dice.roll(101, 'events'); i < n; i++) {
      const event = { type: dice.roll(3, 'dice') === 1 ? 'diceRolled' : 'armyMoved', audience: { kind: 'public' as const }, text: words(dice.roll(60, 'text')), data: { k, i, note: words(dice.roll(60, 'data')) } };
      appendEvents(x.app.db, dice.roll(2, 'campaign') === 1 ? 'another' : id, { day: k, half: 0 }, null, [event], now);
    }
    const seq = lastJournalSeq(x.app.db, id);
    appendJournal(x.app.db, Array.from({ length: 9 + dice.roll(51, 'journal') }, (_, i) => ({
      campaignId: id, seq: seq + 1 + i, kind: 'entry' as const, invocation: k, at: now, timeIndex: 2 * k, input: { k, i }, dice: null, change: [{ p: ['note'], v: words(dice.roll(300, 'change')) }], stateVersion: 1,
    })));
    for (const half of [0, 1]) recordTick(x.app.db, id, 1000 + 2 * k + half, { k }, 1, 0, now, 4, { armies: words(600 + dice.roll(400, 'frame')), k });
  });
}
const WORDS = ['army', 'marched', 'to', 'the', 'ford', 'of', 'hadewych', 'aeskrvald', 'grallune', 'rested', 'at', 'forest', 'hill', 'river', 'contact', 'made', 'with',
  'scouts', 'estimate', 'courier', 'rode', 'north', 'south', 'east', 'west', 'rain', 'fell', 'night', 'morning', 'evening', 'regiment', 'company', '0913', '0817', '1418'];

describe('packed rows fill their pages (SQLite)', () => {
  it('GIVEN days of rows of random sizes, packed by the scheduler as they go cold WHEN the tables are read THEN their pages are at most a fifth empty, and every reader got the same text at every step', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 24, max: 30 }), async (seed, days) => {
      h?.close();
      h = await consoleHarness({ seed: 5 });
      await h.run(...SETUP);
      const x = h;
      const id = readCampaign(x.app, { actor: referee }, (tx) => tx.meta.id);
      const reads = (): unknown[] => [allEventsJson(x.app.db, id).json, allEventsJson(x.app.db, 'another').json, journalTextOf(x.app.db, id), playedTicks(x.app.db, id)];
      const packed = { journal: 0, events: 0, frames: 0 };
      for (let k = 0; k < days; k++) {
        writeDay(x, id, seed, k);
        x.clock.advance(86_400_000);
        const before = reads();
        const n = await packCold(x.app);
        if (n.journal + n.events + n.frames > 0) expect(reads()).toEqual(before);
        packed.journal += n.journal;
        packed.events += n.events;
        packed.frames += n.frames;
      }
      // Most rows went cold and were packed, in runs.
      expect(packed.events).toBeGreaterThan(1024);
      expect(packed.journal).toBeGreaterThan(256);
      expect(packed.frames).toBeGreaterThan(16);
      // Packed where they stood, 29% of the events' pages and 41-54% of the journal's were empty (7-8% and 12-14% in runs).
      expect(unusedShare(x, 'events')).toBeLessThan(0.2);
      expect(unusedShare(x, 'journal')).toBeLessThan(0.2);
    }), { numRuns: 1, endOnFailure: true });
  });
});
