/**
 * Shard IDENTIFYs under the ShardingManager, with real processes against the fake Discord: the
 * manager starts the shard processes with no spawn delay at all, so only the IDENTIFY gate spaces
 * them. Discord's rule (max_concurrency buckets, one IDENTIFY per bucket per 5 s) is checked on
 * the times the fake received them. The gate lets shard 1 go only 5.1 s after shard 0 said READY
 * came, and the fake sends READY after it has noted shard 0's IDENTIFY: a chain of causes, so a
 * busy machine can only widen the gap, however late shard 0's IDENTIFY leaves after its go.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { PEOPLE } from '../discord/harness.js';
import { buildDist, killAll, startBot } from './botProcess.js';

// The compiled bot (startBot runs dist/src/main.js): built once for the run if a source changed.
beforeAll(buildDist);

const dir = mkdtempSync(join(tmpdir(), 'valormr-identify-'));
let fake: FakeDiscord | undefined;

afterAll(async () => {
  await killAll();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('shard IDENTIFYs', () => {
  it('GIVEN 2 shards, max_concurrency 1 and no spawn delay WHEN the manager starts them THEN each shard asks the manager\'s gate, and they identify at least 5 s apart (counted where Discord receives them)', async () => {
    fake = await FakeDiscord.start({ users: Object.values(PEOPLE), recommendedShards: 2, maxConcurrency: 1 });
    const manager = startBot({ DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi, DATABASE_PATH: join(dir, 'identify.db'), SHARDS: 'auto', SHARD_SPAWN_DELAY_MS: '0', WEB: 'off' });
    await manager.waitForLine((l) => l.includes('2 shards ready'), 240_000, 'both shards ready');
    expect(manager.stderr.some((l) => l.includes('up to 1 identifying at once'))).toBe(true);
    // The wiring: each shard process asked the manager before identifying (a process that
    // identified on its own, as discord.js does by default, would not appear here).
    expect(manager.stderr.filter((l) => /shard \d may identify/.test(l)).map((l) => /shard (\d)/.exec(l)![1]).sort()).toEqual(['0', '1']);
    const log = fake.identifyLog.filter((i) => i.shard[1] === 2);
    expect(log.map((i) => i.shard[0]).sort()).toEqual([0, 1]);
    const at = (shard: number): number => log.find((i) => i.shard[0] === shard)!.at;
    // The gate's own spacing is proven exactly in tests/discord/identifyGate.test.ts.
    console.info(`identify of shard 1: +${at(1) - at(0)} ms after shard 0`);
    expect(at(1) - at(0)).toBeGreaterThanOrEqual(5_000);
    const exit = await manager.signal('SIGTERM');
    expect(exit.code).toBe(0);
  }, 300_000);
});
