/**
 * Sharding on one machine, with real processes: the bot started with SHARDS=auto runs under
 * discord.js's ShardingManager (Discord, here the fake, recommends 2 shards); both shard processes
 * share one database; each identifies with shard [i, 2] and receives only its guilds; each plays
 * only its guilds' campaigns; the delivery workers of both share the outbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignSettings } from '../../src/app/campaign/campaignSettings.js';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { startCampaign } from '../../src/app/campaign/lifecycle.js';
import { createApp } from '../../src/app/createApp.js';
import { ManualClock } from '../../src/app/ports.js';
import { FakeDiscord, shardOf } from '../discord/fakeDiscord.js';
import { PEOPLE } from '../discord/harness.js';
import { buildDist, isAlive, killAll, sleep, startBot } from './botProcess.js';
import { tinyScenario } from './tinyScenario.js';
import { rawSqlite } from '../../src/db/client.js';

// The compiled bot (startBot runs dist/src/main.js): built once for the run if a source changed.
beforeAll(buildDist);

const dir = mkdtempSync(join(tmpdir(), 'valormr-shards-'));
let fake: FakeDiscord | undefined;

afterAll(async () => {
  await killAll();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('two shards on one database', () => {
  it('GIVEN 20 guilds with a campaign each and 10 half periods due WHEN the bot runs with SHARDS=auto (2) THEN 200 ticks are played, each once and by the shard owning its guild, and every message is sent once', async () => {
    fake = await FakeDiscord.start({ users: Object.values(PEOPLE), recommendedShards: 2 });
    const guilds = Array.from({ length: 20 }, (_, i) => fake!.addGuild({ name: `Guild ${i}`, shard: [i % 2, 2] }));

    // Ten scheduled half periods missed: a daily cadence at an hour 12 h away from now, and the
    // campaigns started ten days and a minute before its last occurrence.
    const now = new Date();
    const hour = (now.getUTCHours() + 12) % 24;
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
    if (last > now) last.setUTCDate(last.getUTCDate() - 1);
    const clock = new ManualClock(new Date(last.getTime() - 10 * 86_400_000 + 60_000));
    const path = join(dir, 'shards.db');
    const app = createApp({ databasePath: path, clock });
    const campaigns = new Map<string, string>(); // campaign id -> guild id
    for (const g of guilds) {
      const actor = { userId: PEOPLE.referee.id, userName: 'Ref', guildId: g.id, channelId: g.channelId, roleIds: [] };
      const [created] = createCampaign(app, actor, { name: `War in ${g.name}`, file: { name: 'tiny.json', text: tinyScenario() } });
      campaigns.set((created!.data as { campaignId: string }).campaignId, g.id);
      campaignSettings(app, actor, { cadence: `0 ${hour} * * *`, timezone: 'UTC', catchUpCap: 12 });
      startCampaign(app, actor);
    }
    const count = (sql: string): number => (rawSqlite(app.db).prepare(sql).get() as { n: number }).n;

    const started = Date.now();
    const manager = startBot({ DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi, DATABASE_PATH: path, SHARDS: 'auto', SHARD_SPAWN_DELAY_MS: '200' });
    const playedLogs = (): Record<string, unknown>[] => manager.logs().filter((l) => l.msg !== undefined && String(l.msg).includes('ticks played'));
    const ticksLogged = (): number => playedLogs().reduce((n, l) => n + (l.ticks as { played: number }[]).reduce((m, t) => m + t.played, 0), 0);
    await manager.waitForLine((l) => l.includes('2 shards ready'), 120_000, 'both shards ready');
    await fake.waitFor(() => count('select count(*) as n from ticks') >= 200 && count("select count(*) as n from outbox_messages where status = 'pending'") === 0, 120_000, '200 ticks and an empty outbox');
    // A scheduler run logs the ticks it played once it has ended (after its reminders, pre-warm and
    // packing), which may be after their messages went out: the logs are waited for, not assumed.
    await fake.waitFor(() => ticksLogged() >= 200, 120_000, 'the shards\' logs naming 200 ticks played');
    await sleep(1500); // anything played or sent twice would show by now
    const took = Date.now() - started;

    // Each shard identified with [i, 2] and received exactly its guilds.
    expect(fake.sessions.map((s) => s.shard[0]).sort()).toEqual([0, 1]);
    for (const s of fake.sessions) {
      expect(s.guildIds.length).toBeGreaterThanOrEqual(10);
      expect(s.guildIds.every((id) => shardOf(id, 2) === s.shard[0])).toBe(true);
    }

    // 200 ticks, 10 per campaign, each half period once.
    const perCampaign = rawSqlite(app.db).prepare('select campaign_id as id, count(*) as n, count(distinct time_index) as d from ticks group by campaign_id').all() as { id: string; n: number; d: number }[];
    expect(perCampaign).toHaveLength(20);
    expect(perCampaign.every((c) => c.n === 10 && c.d === 10)).toBe(true);

    // Each campaign's ticks were played by the shard that owns its guild.
    const playedBy = new Map<string, Set<string>>();
    for (const log of playedLogs()) {
      for (const t of log.ticks as { campaignId: string }[]) playedBy.set(t.campaignId, new Set([...(playedBy.get(t.campaignId) ?? []), String(log.shards)]));
    }
    expect(playedBy.size).toBe(20);
    for (const [id, shards] of playedBy) expect([...shards]).toEqual([String(shardOf(campaigns.get(id)!, 2))]);

    // Every message once: each outbox row's parts reached Discord exactly once (by nonce).
    const rows = rawSqlite(app.db).prepare("select nonce, status from outbox_messages").all() as { nonce: string; status: string }[];
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    const posted = fake.messages.filter((m) => m.nonce !== undefined);
    const byNonce = new Map<string, number>();
    for (const m of posted) byNonce.set(m.nonce!, (byNonce.get(m.nonce!) ?? 0) + 1);
    expect([...byNonce.values()].every((k) => k === 1)).toBe(true);
    for (const r of rows) expect(byNonce.has(`${r.nonce.slice(0, 20)}.0`), `message ${r.nonce}`).toBe(true);
    expect(fake.refusals).toEqual([]);
    console.info(`two shards: ${count('select count(*) as n from ticks')} ticks for ${perCampaign.length} campaigns, ${rows.length} outbox messages sent as ${posted.length} Discord messages, none twice; ${took} ms from start`);

    // SIGTERM to the manager stops both shards, then the manager.
    const pids = [...new Set(manager.logs().map((l) => Number(l.pid)).filter((p) => Number.isInteger(p) && p !== manager.pid))];
    expect(pids).toHaveLength(2);
    const exit = await manager.signal('SIGTERM');
    console.info(`sharded SIGTERM: manager exit ${exit.code} after ${exit.tookMs} ms`);
    expect(exit.code).toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);
    app.close();
  }, 300_000);
});
