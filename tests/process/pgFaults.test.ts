/**
 * PostgreSQL lost and restored under a running bot, as the people using it meet it: the compiled
 * bot (`node dist/src/main.js`, as `npm start` runs it) on the fake Discord, on a PostgreSQL cluster
 * of this file's own that the test stops (`pg_ctl stop -m fast`, and `-m immediate` in the middle of
 * a command's transaction) and starts again. While the store is down a command is answered "the
 * campaign store is unavailable, try again", the process stays up and the due ticks wait; once it is
 * back the bot carries on by itself (no restart): the next command works, the missed ticks are
 * played by the catch-up policy (docs/scheduler.md: `all`, the default, plays up to 4 missed ticks,
 * oldest first), each once, nothing of the interrupted transaction is kept, and the campaign's
 * journal replays exactly. Last, a database at a newer schema than the bot knows is refused at start.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { STORE_UNAVAILABLE_TEXT } from '../../src/app/handleError.js';
import { replayText, reportText } from '../../src/console/replay.js';
import { commandPayloads } from '../../src/discord/registration.js';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { PEOPLE } from '../discord/harness.js';
import { ownPostgresCluster, type OwnPostgresCluster } from '../support/postgres.js';
import { rowsWrittenBy, sqlOn as sql, waitingOn } from '../support/pgWatch.js';
import { botEnv, buildDist, isAlive, killAll, startProcess, type BotProcess } from './botProcess.js';

let cluster: OwnPostgresCluster;
let fake: FakeDiscord;
let url: string;
let bot: BotProcess;
let campaignId: string;

beforeAll(async () => {
  buildDist();
  cluster = ownPostgresCluster();
  await sql(cluster.url, 'CREATE DATABASE valormr');
  url = cluster.url.replace(/\/postgres$/, '/valormr');
  fake = await FakeDiscord.start({ users: Object.values(PEOPLE) });
  fake.setCommands(commandPayloads(commands));
}, 600_000);

afterAll(async () => {
  await killAll();
  await fake?.close();
  cluster?.remove();
});

/**
 * A cadence (UTC, the default timezone) whose one time a day is 12 hours from now: no scheduled
 * tick or reminder falls due while this file runs, whatever the time of day. (On the default
 * cadence, 08:00 and 20:00, a run near those minutes saw a second tick after the early one.)
 */
function cadenceAwayFromNow(): string {
  const at = new Date(Date.now() + 12 * 3_600_000);
  return `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
}

/** A connection the test keeps open (a lock holder); its loss when the server stops is expected. */
async function connection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** The referee runs a command; resolves with the answer's text and whether only they saw it. */
async function referee(command: string, subcommand: string | undefined, options: Record<string, string | number> = {}): Promise<{ content: string; ephemeral: boolean; files: { data: Uint8Array }[] }> {
  const id = fake.pushCommand({ command, ...(subcommand ? { subcommand } : {}), options, userId: PEOPLE.referee.id });
  const answer = await fake.waitForAnswer(id, 1, 120_000);
  const last = answer.messages.at(-1)!;
  return { content: last.content, ephemeral: last.ephemeral, files: last.files };
}

/** What the store holds of the campaign: its half periods played, journal entries, log events and settings. */
async function stored(): Promise<{ ticks: number[]; journal: number; events: number; reminderLead: number; clock: string; dueAt: string | null }> {
  const [c] = await sql<{ settings: string; clock_day: number; clock_half: number; next_tick_at: string | null }>(url, 'SELECT settings, clock_day, clock_half, next_tick_at FROM campaigns WHERE id = $1', [campaignId]);
  const ticks = await sql<{ time_index: number }>(url, 'SELECT time_index FROM ticks WHERE campaign_id = $1 ORDER BY time_index', [campaignId]);
  const [j] = await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM journal WHERE campaign_id = $1', [campaignId]);
  const [e] = await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM events WHERE campaign_id = $1', [campaignId]);
  const settings = JSON.parse(c!.settings) as { reminderLeadMinutes: number };
  return { ticks: ticks.map((t) => t.time_index), journal: Number(j!.n), events: Number(e!.n), reminderLead: settings.reminderLeadMinutes, clock: `${c!.clock_day}/${c!.clock_half}`, dueAt: c!.next_tick_at };
}

/** Resolves once `check` (a query of the store) is true, or fails naming `what`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nbot stdout:\n${bot.stdout.slice(-15).join('\n')}\nbot stderr:\n${bot.stderr.slice(-15).join('\n')}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('PostgreSQL lost and restored under a running bot (a real process on its own cluster)', () => {
  it('GIVEN a tick being played (its transaction has written the campaign) WHEN PostgreSQL stops (fast) THEN a command is told the store is unavailable and the bot stays up; once PostgreSQL is back, with no restart, the next command works and the tick is played once', async () => {
    bot = startProcess(['dist/src/main.js'], botEnv({ DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi, DATABASE_URL: url, SCHEDULER_CRON: '* * * * * *' }));
    await bot.waitForLine((l) => l.includes('"bot ready"'), 120_000, 'the bot ready');
    const created = await referee('campaign', 'create', { scenario: 'valormr', name: 'Outage War' });
    expect(created.content).toContain('Outage War');
    // Set before the start: the clock starts on it, so the only tick before the next day is the early one.
    const cadence = cadenceAwayFromNow();
    expect((await referee('campaign', 'settings', { cadence })).content).toContain(`cadence ${cadence}`);
    await referee('campaign', 'start');
    campaignId = (await sql<{ id: string }>(url, "SELECT id FROM campaigns WHERE name = 'Outage War'"))[0]!.id;
    await referee('campaign', 'assign', { army: 'hadewych', user: PEOPLE.alice.id });
    await referee('campaign', 'settings', { 'early-tick': 1 });
    const before = await stored();
    expect(before.ticks).toEqual([]);

    // A tick's transaction records the half period played after writing the campaign: a lock on
    // that table holds the tick there. Alice, the only commander, is ready: the tick is due now
    // (early-tick), and the scheduler (every second here) starts it. The lock is a prepared
    // transaction's, held by no session: a session's lock would go when the stop ends that session,
    // and if its backend ended before the tick's (the postmaster signals them one after the other;
    // on a loaded machine far apart), the tick, its statements and COMMIT already sent, would commit
    // (CI failed so, twice). A prepared transaction outlives the stop and the start.
    const locker = await connection();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE ticks IN EXCLUSIVE MODE');
    await locker.query("PREPARE TRANSACTION 'hold-ticks'");
    await locker.end();
    const ready = fake.pushCommand({ command: 'ready', userId: PEOPLE.alice.id });
    await fake.waitForAnswer(ready, 1, 120_000);
    const tick = await waitingOn(url, 'ticks', until);
    expect(await rowsWrittenBy(url, tick)).toContain('campaigns');
    const atStop = await stored();
    expect(Date.parse(atStop.dueAt!)).toBeLessThanOrEqual(Date.now());

    // PostgreSQL stops (fast: open transactions rolled back, connections closed).
    cluster.stop('fast');
    const down = await referee('turn', 'status');
    expect(down).toMatchObject({ content: STORE_UNAVAILABLE_TEXT, ephemeral: true });
    // The clock ran meanwhile and waited, saying why.
    await bot.waitForLine((l) => l.includes('scheduler: the campaign store is unavailable; due ticks wait and are played (by the catch-up policy) once it is back'), 60_000, 'the scheduler waiting for the store');
    expect(isAlive(bot.pid)).toBe(true);

    cluster.start();
    // Nothing of the interrupted tick was kept: the campaign is as it was, the tick still due. The
    // prepared lock still holds the ticks table, so the scheduler (every second) cannot play the due
    // tick anew before this read (the tick played anew would look kept); then it is let go.
    const afterStart = await stored();
    await sql(url, "ROLLBACK PREPARED 'hold-ticks'");
    // On a difference, what was written: the newest events and journal entries.
    const written = afterStart.journal === atStop.journal && afterStart.events === atStop.events ? '' : JSON.stringify({
      events: await sql(url, 'SELECT id, type FROM events WHERE campaign_id = $1 ORDER BY id DESC LIMIT 5', [campaignId]),
      journal: await sql(url, 'SELECT seq, kind, time_index, left(input::text, 300) AS input FROM journal WHERE campaign_id = $1 ORDER BY seq DESC LIMIT 2', [campaignId]),
    });
    expect(afterStart, written).toEqual(atStop);
    const status = await referee('turn', 'status');
    expect(status.content).not.toBe(STORE_UNAVAILABLE_TEXT);
    expect(status.content).toContain('Next tick');
    await until(async () => (await stored()).ticks.length === 1, 'the due tick played');
    const after = await stored();
    expect(after.ticks).toHaveLength(1);
    expect(after.clock).not.toBe(before.clock);
    expect(Date.parse(after.dueAt!)).toBeGreaterThan(Date.now());
    expect(isAlive(bot.pid)).toBe(true);
    // The operator's log: the scheduler said once that the store went and once that it is back
    // (not a line every second), and nothing of the outage was logged as an error.
    await bot.waitForLine((l) => l.includes('scheduler: the campaign store is back'), 60_000, 'the scheduler saying the store is back');
    expect(bot.stdout.filter((l) => l.includes('scheduler: the campaign store is unavailable'))).toHaveLength(1);
    expect(bot.logs().filter((l) => Number(l.level) >= 50)).toEqual([]);
  }, 600_000);

  it('GIVEN a command\'s transaction that has written the campaign WHEN PostgreSQL is killed (immediate) inside it THEN it is answered "unavailable", nothing of it is kept, the same command works once PostgreSQL is back, and the journal replays', async () => {
    const before = await stored();
    expect(before.reminderLead).not.toBe(45);
    // The journal is written late in a change (after the campaign's rows): a lock on it holds the
    // command's transaction open there, with its campaign update done and not committed.
    const locker = await connection();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE journal IN EXCLUSIVE MODE');
    const id = fake.pushCommand({ command: 'campaign', subcommand: 'settings', options: { 'reminder-lead': 45 }, userId: PEOPLE.referee.id });
    expect(await rowsWrittenBy(url, await waitingOn(url, 'journal', until))).toContain('campaigns');

    cluster.stop('immediate');
    await locker.end().catch(() => undefined);
    const answer = await fake.waitForAnswer(id, 1, 120_000);
    expect(answer.messages.at(-1)).toMatchObject({ content: STORE_UNAVAILABLE_TEXT, ephemeral: true });
    expect(isAlive(bot.pid)).toBe(true);

    cluster.start();
    const kept = await stored();
    expect(kept).toEqual(before);
    const again = await referee('campaign', 'settings', { 'reminder-lead': 45 });
    expect(again.content).not.toBe(STORE_UNAVAILABLE_TEXT);
    const done = await stored();
    expect(done.reminderLead).toBe(45);
    expect(done.journal).toBe(before.journal + 1);
    expect(done.ticks).toEqual(before.ticks);

    const exported = await referee('campaign', 'export');
    const file = exported.files[0];
    expect(file, exported.content).toBeDefined();
    const report = await replayText(Buffer.from(file!.data).toString('utf8'));
    expect(report.exact, reportText(report)).toBe(true);
  }, 600_000);

  it('GIVEN a database a newer version of the bot upgraded WHEN the bot starts on it (with a token, and the console without) THEN it exits 1 saying so and what to do, with the password hidden and no stack trace', async () => {
    const exit = await bot.signal('SIGTERM');
    expect(exit.code).toBe(0);
    await sql(url, 'INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)', ['f'.repeat(64), Date.UTC(2099, 0, 1)]);
    const withPassword = url.replace('postgres@', 'postgres:s3cret@');
    const starts: Record<string, string>[] = [{ DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi }, { WEB: 'off' }];
    for (const env of starts) {
      const p = startProcess(['dist/src/main.js'], botEnv({ ...env, DATABASE_URL: withPassword }));
      p.child.stdin.end();
      const refused = await p.exited;
      const err = p.stderr.join('\n');
      expect(refused.code, err).toBe(1);
      expect(err).toContain('The bot could not start:');
      expect(err).toContain('this database was upgraded by a newer version of the bot (migration of 2099-01-01T00:00:00.000Z');
      expect(err).toContain('run that version or a later one, or restore a backup taken before the upgrade');
      expect(err).not.toContain('s3cret');
      expect(err).not.toMatch(/\n\s+at /);
    }
  }, 300_000);
});
