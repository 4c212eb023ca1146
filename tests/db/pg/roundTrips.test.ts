import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, type Harness } from '../../../bench/app.js';
import type { PgBridge } from '../../../src/db/pg/bridge.js';
import { trafficSince } from '../../../src/db/pg/traffic.js';
import { playTick } from '../../../src/app/turn/playTick.js';
import { freshPostgresDatabase } from '../../support/postgres.js';
import { testTempDir } from '../../support/tempDirs.js';

/**
 * Round trips to PostgreSQL per command kind and per tick, counted by the bridge (traffic.ts): what
 * a command or a tick costs on PostgreSQL beyond SQLite's, the same on any machine at any load (a
 * count, not a time). The commands are the bench's mix (bench/app.ts benchCommands, through the
 * console as a user types them, delivery included); the tick is the bench's tick as played (its
 * transaction, then the delivery of its outbox). A change that adds a round trip fails here: say
 * why in the table, or send the statement with another (src/db/prepared.ts runUnanswered,
 * readSoon).
 */

let h: Harness;
let bridge: PgBridge;
/**
 * Round trips that are not the command's or the tick's: the delivery's look for dead workers'
 * claims, at most every 10 s of the wall clock (src/app/deliveryClaims.ts releaseDeadClaims), so
 * a loaded machine sees it in some runs. Traced and left out.
 */
const REAPER = /select distinct "claimed_by"|pg_stat_activity|set "claimed_by" = null, "lease_until" = null where/;
let reaped = 0;

beforeAll(async () => {
  h = openHarness(freshPostgresDatabase(), 'bench', testTempDir('round-trips'));
  const db = h.app.db;
  if (db.dialect !== 'postgres') throw new Error('roundTrips: the harness is not on PostgreSQL');
  bridge = db.bridge;
  bridge.traffic.trace = (texts, waited) => {
    if (waited && texts.length > 0 && texts.every((t) => REAPER.test(t) || /^(BEGIN|COMMIT)$/.test(t))) reaped++;
  };
  await h.handle('@referee /campaign create scenario:valormr name:Bench');
  await h.handle('@referee /campaign assign army:hadewych user:alice');
  await h.handle('@referee /campaign start');
}, 300_000);
afterAll(() => h.close());

/** The round trips of `fn` (the reaper's left out) and its posts. */
async function traffic(fn: () => unknown): Promise<{ roundTrips: number; posts: number }> {
  const before = bridge.traffic.snapshot();
  const reapedBefore = reaped;
  await fn();
  const { roundTrips, posts } = trafficSince(before, bridge.traffic.snapshot());
  return { roundTrips: roundTrips - (reaped - reapedBefore), posts };
}

/** The round trips (and posts) of handling `line`, with its delivery; throws if it was refused. */
async function counted(line: string): Promise<{ roundTrips: number; posts: number; delivered: number }> {
  let outs: Awaited<ReturnType<Harness['handle']>> = [];
  const { roundTrips, posts } = await traffic(async () => (outs = await h.handle(line)));
  const refused = outs.find((o) => (o.data as { error?: string } | undefined)?.error !== undefined);
  if (refused) throw new Error(`"${line}" was refused: ${refused.content}`);
  return { roundTrips, posts, delivered: outs.filter((o) => o.id !== undefined).length };
}

describe('GIVEN a Valormr campaign on PostgreSQL, played through the console', () => {
  it('WHEN each command of the bench mix runs (twice) THEN it costs the round trips of its kind', async () => {
    // [line, round trips, posts]: a read command is its read transaction (its COMMIT posted, not
    // waited for), with no delivery poll (it queued nothing); a write is BEGIN with its reads, then
    // its writes with COMMIT (the first /move also reads its contact estimates, 2); a queued
    // message costs its claim (the poll itself) and its sent mark, then the claim that finds nothing more.
    // The last number: messages delivered (the referee's edit tells the army's player).
    const expected: [string, number, number, number][] = [
      ['@alice /army status army:hadewych', 1, 1, 0],
      ['@alice /move army:hadewych to:1114 unformed:true', 4, 0, 0],
      ['@alice /turn status', 1, 1, 0],
      ['@alice /move army:hadewych to:0613 unformed:true', 2, 0, 0],
      ['@alice /campaign status', 1, 1, 0],
      ['@referee /army edit army:hadewych fatigued:false', 5, 0, 1],
    ];
    const seen: [string, number, number, number][] = [];
    for (let round = 0; round < 2; round++) {
      for (const [line] of expected) {
        const c = await counted(line);
        seen.push([line, c.roundTrips, c.posts, c.delivered]);
      }
    }
    expect(seen).toEqual([...expected, ...expected]);
  });

  it('WHEN ticks are played with their delivery THEN the transaction and each message cost fixed round trips', async () => {
    const perTick: { transaction: number; delivery: number; messages: number }[] = [];
    for (let i = 0; i < 3; i++) {
      await counted(`@alice /move army:hadewych to:${i % 2 === 0 ? '1114' : '0613'} unformed:true`);
      const transaction = (await traffic(() => expect(playTick(h.app, { campaignId: h.campaignId() }).played).toBe(true))).roundTrips;
      h.out.length = 0;
      const delivery = (await traffic(() => h.session.flush())).roundTrips;
      perTick.push({ transaction, delivery, messages: h.out.filter((o) => o.id !== undefined).length });
    }
    // Every tick queues its chronicle and DMs: something to deliver.
    expect(perTick.every((t) => t.messages > 0)).toBe(true);
    // The tick's transaction: BEGIN, the hold and every read (the opening ones, whether the half
    // period was played, the undelivered messages, the notify settings, the last event id); then
    // every write with COMMIT. Its delivery: per message a claim and a sent mark, then the claim
    // that finds nothing more.
    expect(perTick).toEqual(perTick.map((t) => ({ transaction: 2, delivery: 2 * t.messages + 1, messages: t.messages })));
  });
});
