/**
 * Issue 30's target: three machines (real OS processes on loopback, each the bot's sharding manager
 * with SHARDS=3 and its own SHARD_LIST) on one PostgreSQL, 1,000 campaigns due on the same minute,
 * the fake Discord dealing interactions to them at random (guild commands to the guild's shard, DMs
 * to shard 0), and the shard process of a random machine killed with SIGKILL 20 times, spread over
 * the busy minute (kill k once k/21 of the ticks are played; its machine started again each time).
 * The machines run the compiled bot (dist/). Every tick is played once, every message sent once
 * (one Discord message a nonce, and no nonce POSTed twice without a kill between), every
 * interaction run once (an interaction in flight in a killed process at most once: Discord does
 * not deal it again); a `pg_dump` of the end state restored into a fresh database is the same
 * database and its campaigns replay exactly.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import type { CommandContext } from '../../src/app/commandContext.js';
import { createApp } from '../../src/app/createApp.js';
import { STORE_BUSY_TEXT, STORE_UNAVAILABLE_TEXT } from '../../src/app/handleError.js';
import { runCommand } from '../../src/app/journal/invocation.js';
import { ManualClock } from '../../src/app/ports.js';
import { replayStore } from '../../src/console/replayStore.js';
import { commandPayloads } from '../../src/discord/registration.js';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import { FakeDiscord, type RecordedCall } from '../discord/fakeDiscord.js';
import { PEOPLE } from '../discord/harness.js';
import { cloneCampaign, type CloneTarget } from '../support/pgClone.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { buildDist, isAlive, killAll, sleep } from './botProcess.js';
import { allReady, crash, startMachine, type Machine } from './machines.js';
import { tinyScenario } from './tinyScenario.js';

const SHARDS = 3;
const CAMPAIGNS = Number(process.env.VALORMR_MACHINES_CAMPAIGNS ?? 1000);
const KILLS = Number(process.env.VALORMR_MACHINES_KILLS ?? 20);
const GUILDS = 30;
const SEED = Number(process.env.VALORMR_MACHINES_SEED ?? 30_2026);

/** Where the test notes its progress as it goes (VALORMR_MACHINES_PROGRESS, a file), for a run watched by hand. */
const progress = (line: string): void => {
  const file = process.env.VALORMR_MACHINES_PROGRESS;
  if (file) appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
};

const dir = mkdtempSync(join(tmpdir(), 'valormr-machines-'));
let fake: FakeDiscord | undefined;
let client: pg.Client | undefined;

/**
 * Off in plain `npm test` for CI's 15-minute budget: on this 2-core machine it takes 2 to 3 minutes
 * of wall time at load 0 to 14 (7 at load 16 to 30, 10 at 25 to 36) and 130 to 190 CPU seconds
 * (day 11: 112-161 s user + 10-14 s system for the test and its machines, 9-15 s for PostgreSQL;
 * green at full size eight times, seeds 302026, 7, 20261128, 4, 5, 6, 77, 8).
 * `npm run test:machines` runs it (VALORMR_MACHINES=1).
 */
const RUN = process.env.VALORMR_MACHINES === '1';

// The machines run the compiled bot (dist/, as `npm start` does): the run's one build of these sources.
beforeAll(() => {
  if (!RUN) return;
  buildDist();
}, 600_000);

let allMachines: Machine[] = [];
afterAll(async () => {
  const logs = process.env.VALORMR_MACHINES_LOGS;
  if (logs) for (const m of allMachines) for (const r of m.runs) appendFileSync(logs, `=== machine ${m.shard} manager ${r.pid}\n${[...r.stdout, ...r.stderr].join('\n')}\n`);
  await killAll();
  // A manager killed above leaves its shard process behind (a child of its own): end those too.
  for (const pid of allMachines.flatMap((m) => m.pids)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await fake?.close();
  await client?.end();
  rmSync(dir, { recursive: true, force: true });
});

/** A PostgreSQL client program (pg_dump, pg_restore): on PATH, or in Debian's versioned folder. */
function pgProgram(name: string): string {
  if (spawnSync(name, ['--version']).status === 0) return name;
  const root = '/usr/lib/postgresql';
  const found = existsSync(root) ? readdirSync(root).sort().reverse().map((v) => join(root, v, 'bin', name)).find(existsSync) : undefined;
  if (!found) throw new Error(`${name} not found: install PostgreSQL's client programs (Debian: postgresql-client)`);
  return found;
}

function run(program: string, args: readonly string[]): string {
  const r = spawnSync(pgProgram(program), [...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/**
 * A plain pg_dump in a form two equal databases share: without the random `\restrict` key newer
 * pg_dumps write, and each table's rows sorted (COPY writes them in their order on disk, which
 * updates change: a restored table holds the same rows in another order).
 */
function canonicalDump(text: string): string {
  const out: string[] = [];
  let rows: string[] | undefined;
  for (const line of text.split('\n')) {
    if (/^\\(un)?restrict /.test(line)) continue;
    if (rows && line === '\\.') {
      out.push(...rows.sort(), line);
      rows = undefined;
    } else if (rows) rows.push(line);
    else {
      out.push(line);
      if (/^COPY .* FROM stdin;$/.test(line)) rows = [];
    }
  }
  return out.join('\n');
}

/** A command run as the journal records it (the transports' path), by `userId` in a channel. */
async function command(app: ReturnType<typeof createApp>, at: CloneTarget, userId: string, line: { name: string; sub?: string; options?: Record<string, string> }): Promise<void> {
  const cmd = commands.find((c) => c.data.name === line.name);
  if (!cmd) throw new Error(`no /${line.name}`);
  const opt = (n: string): never => line.options?.[n] as never;
  const ctx: CommandContext = {
    app, userId, userName: userId, guildId: at.guildId, channelId: at.channelId, roleIds: [], subcommand: line.sub,
    string: opt, integer: opt, number: opt, boolean: opt, user: opt, userLabel: opt,
    attachment: (n) => (n === 'file' ? { name: 'tiny.json', size: tinyScenario().length, contentType: 'application/json', text: () => Promise.resolve(tinyScenario()) } as never : undefined),
  };
  await runCommand(cmd, ctx);
}

/**
 * How long the test waits for something that no longer moves before it fails: a deadline from the
 * last progress (a tick played, a message sent, an interaction answered), not from the start, so a
 * machine however loaded that is still working is never failed for being slow.
 */
const STALL_MS = 300_000;

/** Watches a value that changes as the work goes on; `stalled()` once it has stood still for STALL_MS. */
function progressWatch(): { saw(value: string): void; stalled(): boolean } {
  let last: string | undefined;
  let since = Date.now();
  return {
    saw(value) {
      if (value === last) return;
      last = value;
      since = Date.now();
    },
    stalled: () => Date.now() - since > STALL_MS,
  };
}

interface Dealt {
  readonly id: string;
  readonly kind: 'rest' | 'dm';
  readonly campaign?: string;
  readonly shard: number;
  /** Its machine was killed before it was answered: Discord would show "did not respond"; run at most once. */
  inFlightAtKill: boolean;
}

describe.skipIf(!RUN)('three machines on one PostgreSQL', () => {
  it(`GIVEN ${CAMPAIGNS} campaigns due on the same minute on one PostgreSQL WHEN three machines play them while interactions come at random and a random machine is killed -9 ${KILLS} times THEN every tick is played once, every message sent once, every interaction run once, and pg_dump of the end replays exactly`, async () => {
    const t0 = Date.now();
    const dice = new SeededDice(createRngState(SEED));
    const url = freshPostgresDatabase();
    fake = await FakeDiscord.start({ users: Object.values(PEOPLE), recommendedShards: SHARDS });
    fake.setCommands(commandPayloads(commands));
    const guilds = Array.from({ length: GUILDS }, (_, i) => fake!.addGuild({ name: `Guild ${i}`, shard: [i % SHARDS, SHARDS] }));
    const places: (CloneTarget & { shard: number })[] = Array.from({ length: CAMPAIGNS }, (_, k) => {
      const g = guilds[k % GUILDS]!;
      const channelId = k < GUILDS ? g.channelId : fake!.addChannel(g.id, `war-${k}`);
      return { id: '', guildId: g.id, channelId, shard: (k % GUILDS) % SHARDS };
    });

    // The first campaign made by the commands (journalled, so it replays), on a clock just before
    // the last daily tick time: started then, its first tick fell due at that time, some hours ago.
    const now = new Date();
    const hour = (now.getUTCHours() + 12) % 24;
    const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
    if (due > now) due.setUTCDate(due.getUTCDate() - 1);
    const setup = createApp({ databasePath: url, clock: new ManualClock(new Date(due.getTime() - 60_000)) });
    const first = places[0]!;
    await command(setup, first, PEOPLE.referee.id, { name: 'campaign', sub: 'create', options: { name: 'War' } });
    await command(setup, first, PEOPLE.referee.id, { name: 'campaign', sub: 'assign', options: { army: 'red', user: PEOPLE.alice.id } });
    await command(setup, first, PEOPLE.referee.id, { name: 'campaign', sub: 'assign', options: { army: 'blue', user: PEOPLE.bob.id } });
    await command(setup, first, PEOPLE.referee.id, { name: 'campaign', sub: 'settings', options: { cadence: `0 ${hour} * * *`, timezone: 'UTC' } });
    await command(setup, first, PEOPLE.referee.id, { name: 'campaign', sub: 'start' });
    setup.close();
    client = new pg.Client({ connectionString: url });
    await client.connect();
    const q = async <R extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> => (await client!.query<R>(text, params)).rows;
    const template = { ...first, id: (await q<{ id: string }>('select id from campaigns'))[0]!.id };
    expect((await q<{ at: string }>('select next_tick_at as at from campaigns'))[0]!.at).toBe(due.toISOString());
    // What the setup queued (announcements, the start's DMs) is not this test's business.
    await q('delete from outbox_messages');
    for (const [k, p] of places.entries()) places[k] = { ...p, id: k === 0 ? template.id : `m${String(k).padStart(7, '0')}` };
    await cloneCampaign(url, template, places.slice(1));
    expect(Number((await q<{ n: string }>("select count(*) as n from campaigns where status = 'running' and next_tick_at = $1", [due.toISOString()]))[0]!.n)).toBe(CAMPAIGNS);
    const seeded = Date.now() - t0;
    progress(`seeded ${CAMPAIGNS} campaigns in ${seeded} ms`);

    // Three machines; then interactions at random and 20 kills at random moments.
    const env = { DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi, DATABASE_URL: url, WEB: 'off', SCHEDULER_CRON: '*/2 * * * * *', LOG_LEVEL: 'info' };
    const machines: Machine[] = Array.from({ length: SHARDS }, (_, s) => startMachine(s, SHARDS, env, (name) => fake!.viaApi(name)));
    allMachines = machines;
    const dealt: Dealt[] = [];
    let dealing = true;
    const deal = (async () => {
      while (dealing) {
        await sleep(40 + dice.roll(80, 'interaction gap'));
        if (dice.roll(4, 'dm or guild') === 1) {
          if (!machines[0]!.ready) continue;
          dealt.push({ id: fake!.pushCommand({ command: 'help', userId: PEOPLE.alice.id, channelId: fake!.dmChannelOf(PEOPLE.alice.id) }), kind: 'dm', shard: 0, inFlightAtKill: false });
          continue;
        }
        const p = places[dice.roll(CAMPAIGNS, 'campaign') - 1]!;
        if (!machines[p.shard]!.ready) continue;
        dealt.push({ id: fake!.pushCommand({ command: 'rest', options: { army: 'red' }, userId: PEOPLE.alice.id, channelId: p.channelId }), kind: 'rest', campaign: p.id, shard: p.shard, inFlightAtKill: false });
      }
    })();
    const answered = (d: Dealt): boolean => fake!.interaction(d.id).callbacks.length > 0 && (d.kind === 'dm' || fake!.interaction(d.id).messages.length > 0);
    const killed: { shard: number; pid: number; name: string; at: number; when: number; managerExit: number | null }[] = [];
    const ticksAt: number[] = [];
    const count = async (text: string): Promise<number> => Number((await q<{ n: string }>(text))[0]!.n);
    for (let k = 0; k < KILLS; k++) {
      // Kills spread over the busy minute: kill k waits for its share of the ticks to be played (a
      // condition, so a slow machine only slows it), then a random moment within half a second.
      const share = Math.floor(((k + 1) * CAMPAIGNS) / (KILLS + 1));
      const playing = progressWatch();
      for (let n = await count('select count(*) as n from ticks'); n < share; n = await count('select count(*) as n from ticks')) {
        playing.saw(String(n));
        if (playing.stalled()) throw new Error(`kill ${k + 1} waits for ${share} ticks played: still ${n} after ${STALL_MS / 1000} s without one; kills ${JSON.stringify(killed)}`);
        await sleep(50);
      }
      await sleep(dice.roll(500, 'kill after ms'));
      while (!machines.some((m) => m.ready)) await sleep(50);
      const ready = machines.filter((m) => m.ready);
      const victim = ready[dice.roll(ready.length, 'victim') - 1]!;
      ticksAt.push(await count('select count(*) as n from ticks'));
      // Nothing more is dealt to it from here (no await until the kill): what it has not answered is in flight.
      victim.ready = false;
      for (const d of dealt) if (d.shard === victim.shard && !answered(d)) d.inFlightAtKill = true;
      const when = Date.now();
      killed.push({ shard: victim.shard, at: when - t0, when, ...(await crash(victim, SHARDS, env)) });
      progress(`kill ${k + 1}: machine ${victim.shard} at ${ticksAt.at(-1)} ticks; ${dealt.length} dealt`);
    }
    await allReady(machines);
    dealing = false;
    await deal;

    // Then everything settles: every tick played, nothing left to send, every interaction answered.
    const settled = async (): Promise<boolean> => (await count('select count(*) as n from ticks')) === CAMPAIGNS
      && (await count("select count(*) as n from outbox_messages where status = 'pending'")) === 0
      && dealt.every((d) => d.inFlightAtKill || answered(d));
    const settling = progressWatch();
    let noted = 0;
    while (!(await settled())) {
      const unanswered = dealt.filter((d) => !d.inFlightAtKill && !answered(d)).length;
      settling.saw(`${await count('select count(*) as n from ticks')} ${await count("select count(*) as n from outbox_messages where status = 'pending'")} ${unanswered}`);
      if (Date.now() - noted > 10_000) {
        noted = Date.now();
        const open = dealt.filter((d) => !d.inFlightAtKill && !answered(d));
        progress(`settling: ${await count('select count(*) as n from ticks')} ticks, ${await count("select count(*) as n from outbox_messages where status = 'pending'")} pending of ${await count('select count(*) as n from outbox_messages')}, ${open.length} unanswered`);
        for (const d of open.slice(0, 3)) progress(`  unanswered ${JSON.stringify({ ...d, ...fake.interaction(d.id), age: Date.now() - fake.interaction(d.id).pushedAt })}: ${machines.flatMap((m) => m.runs.flatMap((r) => [...r.stdout, ...r.stderr].filter((l) => l.includes(d.id)))).join(' | ')}`);
      }
      if (settling.stalled()) throw new Error(`not settled (nothing moved for ${STALL_MS / 1000} s): ${await count('select count(*) as n from ticks')} ticks, ${await count("select count(*) as n from outbox_messages where status = 'pending'")} pending, interactions unanswered: ${JSON.stringify(dealt.filter((d) => !d.inFlightAtKill && !answered(d)).map((d) => ({ ...d, ...fake!.interaction(d.id) })))}; kills ${JSON.stringify(killed)}`);
      await sleep(250);
    }
    await sleep(1500); // anything played, sent or run twice would show by now
    const took = Date.now() - t0;
    for (const m of machines) await m.process.signal('SIGTERM');

    // Every tick once: one row a campaign, one journalled due tick each, every clock one half period on.
    const perCampaign = await q<{ id: string; n: string }>('select campaign_id as id, count(*) as n from ticks group by campaign_id');
    expect(perCampaign).toHaveLength(CAMPAIGNS);
    expect(perCampaign.filter((r) => Number(r.n) !== 1)).toEqual([]);
    const dueTicks = await q<{ id: string; n: string }>("select campaign_id as id, count(*) as n from journal where kind = 'entry' and input like '{\"kind\":\"dueTick\"%' group by campaign_id");
    expect(dueTicks).toHaveLength(CAMPAIGNS);
    expect(dueTicks.filter((r) => Number(r.n) !== 1)).toEqual([]);
    expect(await q('select distinct clock_day, clock_half from campaigns')).toHaveLength(1);

    // Every message once: each outbox row sent, each of its parts reached Discord once (by nonce).
    const rows = await q<{ nonce: string; status: string }>('select nonce, status from outbox_messages');
    expect(rows.filter((r) => r.status !== 'sent')).toEqual([]);
    const byNonce = new Map<string, number>();
    for (const m of fake.messages) if (m.nonce !== undefined) byNonce.set(m.nonce, (byNonce.get(m.nonce) ?? 0) + 1);
    expect([...byNonce.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(rows.filter((r) => !byNonce.has(`${r.nonce.slice(0, 20)}.0`))).toEqual([]);
    expect(fake.refusals).toEqual([]);
    // And each was POSTed once, but for a repeat whose earlier POST never reached its sender: that
    // sender was killed (with the part sent and not yet recorded), or it had given the request up
    // before the answer came (discord.js's REST timeout, 15 s: discord.js itself sends the same
    // request again, with the same nonce, and Discord keeps one message; on a loaded machine an
    // answer can take that long). The fake knows which run of which machine sent each request (its
    // `via`) and whether the sender was still there for the answer (`abandoned`). Anything else, a
    // message claimed twice, shows as a repeat after an answered POST by a sender not killed.
    // (Before the senders were told apart, a killed sender's last POST that the fake got round to
    // after the test had noted the kill, or a REST timeout's repeat, read as "claimed twice".)
    const killedAt = new Map(killed.map((k) => [k.name, k.when]));
    const posts = new Map<string, RecordedCall[]>();
    for (const c of fake.calls) {
      const nonce = (c.body as { nonce?: unknown } | undefined)?.nonce;
      // Only what Discord took (200): a 429 (a rate limit) is retried by discord.js and posts nothing.
      if (c.method === 'POST' && c.status === 200 && /^\/channels\/\d+\/messages$/.test(c.path) && typeof nonce === 'string') posts.set(nonce, [...(posts.get(nonce) ?? []), c]);
    }
    const unexplained = [...posts.entries()].flatMap(([nonce, calls]) => calls.slice(1).flatMap((again, i) => {
      const first = calls[i]!;
      const senderKilled = first.via !== undefined && (killedAt.get(first.via) ?? Number.POSITIVE_INFINITY) <= again.at;
      return first.abandoned || senderKilled ? [] : [{ nonce, first: { via: first.via, at: first.at }, again: { via: again.via, at: again.at, abandoned: again.abandoned } }];
    }));
    expect(unexplained, `kills ${JSON.stringify(killed)}`).toEqual([]);
    expect([...posts.values()].flat().filter((c) => c.via === undefined)).toEqual([]);
    const resent = [...posts.values()].filter((calls) => calls.length > 1).length;
    const abandoned = fake.calls.filter((c) => c.abandoned).length;

    // Every interaction once: answered once; one in flight at a kill at most once; each /rest one order.
    const lost = dealt.filter((d) => d.inFlightAtKill && !answered(d));
    expect(dealt.filter((d) => fake!.interaction(d.id).callbacks.length !== (lost.includes(d) ? Math.min(1, fake!.interaction(d.id).callbacks.length) : 1)).map((d) => d.id)).toEqual([]);
    const orders = new Map((await q<{ id: string; n: string }>("select campaign_id as id, count(*) as n from events where type = 'orderGiven' group by campaign_id")).map((r) => [r.id, Number(r.n)]));
    for (const p of places) {
      const mine = dealt.filter((d) => d.campaign === p.id);
      // A /rest answered "busy, nothing was done" (the campaign held past the lock wait, on a loaded
      // machine) ran nothing: it is answered once, and gives no order.
      const ran = mine.filter((d) => answered(d) && !fake!.interaction(d.id).messages.some((m) => m.content === STORE_BUSY_TEXT || m.content === STORE_UNAVAILABLE_TEXT)).length;
      const got = orders.get(p.id) ?? 0;
      const said = mine.map((d) => fake!.interaction(d.id).messages.map((m) => m.content).join(' / ')).join(' | ');
      expect(got >= ran && got <= ran + mine.filter((d) => lost.includes(d)).length, `campaign ${p.id}: ${got} orders for ${ran} answered /rest (${mine.length} dealt): ${said}`).toBe(true);
    }
    expect(killed).toHaveLength(KILLS);
    expect(killed.every((k) => k.managerExit !== 0 && !isAlive(k.pid))).toBe(true);
    for (const m of machines) expect(m.process.logs().filter((l) => Number(l.level) >= 50), `machine ${m.shard}`).toEqual([]);
    console.info(`three machines: ${CAMPAIGNS} campaigns (seeded in ${seeded} ms), ${perCampaign.length} ticks, ${rows.length} messages sent as ${byNonce.size} Discord messages (${resent} POSTed again after a kill or a REST timeout; ${abandoned} requests given up by their sender), ${dealt.length} interactions (${dealt.filter((d) => d.kind === 'dm').length} DMs, ${lost.length} lost in a killed process), ${KILLS} kills at ${killed.map((k) => `${k.at}ms/s${k.shard}`).join(' ')} with ${ticksAt.join(',')} ticks played; settled ${took} ms from start`);

    // pg_dump of the end state, restored into a fresh database: the same database, and it replays.
    const dump = join(dir, 'end.dump');
    run('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, `--dbname=${url}`]);
    const restored = freshPostgresDatabase();
    run('pg_restore', ['--no-owner', `--dbname=${restored}`, dump]);
    expect(canonicalDump(run('pg_dump', ['--no-owner', `--dbname=${restored}`]))).toBe(canonicalDump(run('pg_dump', ['--no-owner', `--dbname=${url}`])));
    // Every campaign of the restored store replays exactly (`npm run replay -- --store URL`'s own function).
    const lines: string[] = [];
    const exact = await replayStore(restored, (line) => lines.push(line));
    expect(lines.slice(0, -1).filter((l) => !/^campaign \S+ \(.*\): replays exactly/.test(l)).slice(0, 5)).toEqual([]);
    expect(lines.at(-1)).toBe(`${CAMPAIGNS} campaign(s) replayed exactly.`);
    expect(exact).toBe(true);
    console.info(`pg_dump restored: identical; ${lines.at(-1)}; ${Date.now() - t0} ms in all`);
    // A bound for a hang the watches above do not see; a slow run is failed by nothing but a stall.
  }, 1_800_000);
});
