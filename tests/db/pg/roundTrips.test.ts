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

beforeAll(async () => {
  h = openHarness(freshPostgresDatabase(), 'bench', testTempDir('round-trips'));
  const db = h.app.db;
  if (db.dialect !== 'postgres') throw new Error('roundTrips: the harness is not on PostgreSQL');
  bridge = db.bridge;
  await h.handle('@referee /campaign create scenario:valormr name:Bench');
  await h.handle('@referee /campaign assign army:hadewych user:alice');
  await h.handle('@referee /campaign start');
}, 300_000);
afterAll(() => h.close());

/** The round trips (and posts) of handling `line`, with its delivery; throws if it was refused. */
async function counted(line: string): Promise<{ roundTrips: number; posts: number; delivered: number }> {
  const before = bridge.traffic.snapshot();
  const outs = await h.handle(line);
  const refused = outs.find((o) => (o.data as { error?: string } | undefined)?.error !== undefined);
  if (refused) throw new Error(`"${line}" was refused: ${refused.content}`);
  const { roundTrips, posts } = trafficSince(before, bridge.traffic.snapshot());
  return { roundTrips, posts, delivered: outs.filter((o) => o.id !== undefined).length };
}

describe('GIVEN a Valormr campaign on PostgreSQL, played through the console', () => {
  it('WHEN each command of the bench mix runs (twice) THEN it costs the round trips of its kind', async () => {
    // [line, round trips, posts]: a read command is its read transaction (its COMMIT posted, not
    // waited for), with no delivery poll (it queued nothing); a write is BEGIN with its reads, then
    // its writes with COMMIT (the first /move also reads its contact estimates, 2); a queued
    // message costs a poll, its claim and its sent mark, then the poll that finds nothing more.
    // The last number: messages delivered (the referee's edit tells the army's player).
    const expected: [string, number, number, number][] = [
      ['@alice /army status army:hadewych', 1, 1, 0],
      ['@alice /move army:hadewych to:1114 unformed:true', 4, 0, 0],
      ['@alice /turn status', 1, 1, 0],
      ['@alice /move army:hadewych to:0613 unformed:true', 2, 0, 0],
      ['@alice /campaign status', 1, 1, 0],
      ['@referee /army edit army:hadewych fatigued:false', 6, 0, 1],
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
      const before = bridge.traffic.snapshot();
      const outcome = playTick(h.app, { campaignId: h.campaignId() });
      expect(outcome.played).toBe(true);
      const transaction = trafficSince(before, bridge.traffic.snapshot()).roundTrips;
      const sent: number[] = [];
      const delivering = bridge.traffic.snapshot();
      h.out.length = 0;
      await h.session.flush();
      for (const o of h.out) if (o.id !== undefined) sent.push(o.id);
      perTick.push({ transaction, delivery: trafficSince(delivering, bridge.traffic.snapshot()).roundTrips, messages: sent.length });
    }
    // Every tick queues its chronicle and DMs: something to deliver.
    expect(perTick.every((t) => t.messages > 0)).toBe(true);
    // The tick's transaction: BEGIN with its opening reads; the tick-already-played check; the
    // outbox's read; the notify settings; the writes of the state; the log and outbox with COMMIT.
    // Its delivery: per message a claim and a sent mark, then a poll that finds nothing more, and the poll first.
    expect(perTick).toEqual(perTick.map((t) => ({ transaction: 6, delivery: 3 * t.messages + 1, messages: t.messages })));
  });
});
