import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { packCold } from '../../src/app/packCold.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { replayText, reportText } from '../../src/console/replay.js';
import { allEvents, allEventsJson, logJsonOf, logRowsOf } from '../../src/db/eventRepo.js';
import { journalTextOf } from '../../src/db/journalRepo.js';
import { playedTicks, tickIndex } from '../../src/db/tickRepo.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { exported } from '../replay/exported.js';
import { onPostgres } from '../support/store.js';
import { testTempDir } from '../support/tempDirs.js';

/*
 * Issue 25: cold rows (journal, events, ticks' frames) are packed by the scheduler's packCold
 * (src/db/packedText.ts). Packing changes how rows are stored, never what anyone reads: every
 * reader gets the same values and the export the same bytes, so the campaign replays exactly, and
 * the campaign plays on (commands, ticks, undo) over packed rows.
 */

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:aeskrvald user:bob',
  '@referee /campaign start',
];
const STEPS = [
  '@alice /move army:hadewych to:0817', '@alice /rest army:hadewych', '@bob /rest army:aeskrvald', '@bob /move army:aeskrvald to:0710',
  '@alice /move army:hadewych to:0913', '@referee /turn undo', '!tick', '!tick', '!tick',
];

/** Fails naming the first read that differs and where (a whole-object diff of a season's log is unreadable). */
function sameReads(after: Record<string, unknown>, before: Record<string, unknown>): void {
  for (const k of Object.keys(before)) {
    const a = JSON.stringify(after[k]);
    const b = JSON.stringify(before[k]);
    if (a === b) continue;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    expect(`${k}: …${a.slice(Math.max(0, i - 200), i + 200)}`).toBe(`${k}: …${b.slice(Math.max(0, i - 200), i + 200)}`);
  }
  expect(after).toEqual(before);
}

/** Packs every row written before now, at the same instant as far as the export can tell (its head says when it was made). */
async function packAll(x: Harness): Promise<Awaited<ReturnType<typeof packCold>>> {
  const now = x.clock.now();
  x.clock.set(new Date(now.getTime() + 60_000));
  const packed = await packCold(x.app, 0, 1);
  x.clock.set(now);
  return packed;
}

/** Everything a reader of the log gets: the journal's text, the events, the frames, the export. */
async function reads(x: Harness, id: string): Promise<Record<string, unknown>> {
  return {
    journal: journalTextOf(x.app.db, id),
    journalPart: journalTextOf(x.app.db, id, { afterSeq: 1, upToSeq: 3 }),
    logPart: logJsonOf(logRowsOf(x.app.db, id, { afterId: 2, upToId: 9 })),
    events: allEvents(x.app.db, id),
    eventsJson: allEventsJson(x.app.db, id),
    ticks: playedTicks(x.app.db, id),
    index: tickIndex(x.app.db, id),
    export: await exported(x),
  };
}

const campaignId = (x: Harness): string => readCampaign(x.app, { actor: { userId: 'referee', userName: 'referee', roleIds: [], guildId: 'console', channelId: 'console' } }, (tx) => tx.meta.id);

describe('cold rows packed', () => {
  it('GIVEN a campaign played at random WHEN every row is packed THEN every read and the export are the same, it replays exactly, and it plays on (commands, ticks, undo)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom(...STEPS), { minLength: 4, maxLength: 12 }), fc.integer({ min: 1, max: 1000 }), async (steps, seed) => {
      h?.close();
      h = await consoleHarness({ seed });
      await h.run(...SETUP, ...steps, '!tick');
      const id = campaignId(h);
      const before = await reads(h, id);
      expect(journalTextOf(h.app.db, id, { afterSeq: 1, upToSeq: 3 }).map((r) => r.seq)).toEqual([2, 3]);
      expect(logRowsOf(h.app.db, id, { afterId: 2, upToId: 9 }).map((r) => r.id)).toEqual([3, 4, 5, 6, 7, 8, 9]);
      const packed = await packAll(h);
      expect(packed.journal).toBeGreaterThan(0);
      expect(packed.events).toBeGreaterThan(0);
      expect(packed.frames).toBeGreaterThan(0);
      sameReads(await reads(h, id), before);
      // Nothing is left to pack; a second run finds nothing.
      expect(await packAll(h)).toEqual({ journal: 0, events: 0, frames: 0 });
      expect(reportText(await replayText(await exported(h)))).toMatch(/^replays exactly/);
      // The campaign plays on over its packed rows: a command, a tick and its undo, and replays again.
      await h.run('@alice /rest army:hadewych', '!tick');
      expect((await h.run('@referee /turn undo'))[0]?.content).toContain('The clock is back');
      await h.run('!tick');
      expect(reportText(await replayText(await exported(h)))).toMatch(/^replays exactly/);
    }), { numRuns: 3, endOnFailure: true });
  });

  // The previous release's SQLite file (tests/fixtures/README.md): upgraded by the migrations, then packed.
  it.skipIf(onPostgres())('GIVEN a database from before packing WHEN opened, played and packed THEN its export is unchanged and replays exactly', async () => {
    const path = join(testTempDir('valormr-packed-'), 'old.db');
    copyFileSync(new URL('../fixtures/v1-campaign.db', import.meta.url), path);
    const where = { guildId: 'g1', channelId: 'c1' };
    h = await consoleHarness({ databasePath: path, where, now: '2026-11-22T20:10:00Z' });
    await h.run('@alice /engage army:hadewych', '@bob /evade army:grallune', '!tick', '!tick');
    const id = readCampaign(h.app, { actor: { userId: 'referee', userName: 'referee', roleIds: [], ...where } }, (tx) => tx.meta.id);
    const before = await reads(h, id);
    const packed = await packAll(h);
    expect(packed.journal + packed.events).toBeGreaterThan(0);
    sameReads(await reads(h, id), before);
    expect(reportText(await replayText(await exported(h)))).toMatch(/^replays exactly/);
  });

  it('GIVEN rows younger than the cold age, or fewer cold ones than a run WHEN packCold runs THEN they stay plain; a run packs them', async () => {
    h = await consoleHarness({ seed: 3 });
    await h.run(...SETUP, '@alice /move army:hadewych to:0817', '!tick');
    const none = { journal: 0, events: 0, frames: 0 };
    expect(await packCold(h.app, 7, 1)).toEqual(none);
    h.clock.set(new Date(h.clock.now().getTime() + 8 * 86_400_000));
    // A few dozen cold rows: not yet a run (src/app/packCold.ts MIN_RUN).
    expect(await packCold(h.app)).toEqual(none);
    const packed = await packCold(h.app, 7, 1);
    expect(packed.journal).toBeGreaterThan(0);
    expect(packed.events).toBeGreaterThan(0);
  });
});
