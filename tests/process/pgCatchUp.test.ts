/**
 * The multi-tick catch-up as a real process (issue 30, "PostgreSQL lost mid-run: ticks wait and
 * catch up by the catch-up policy, nothing half-written; restored: it carries on by itself"): the
 * compiled bot (`node dist/src/main.js`) on the fake Discord and on PostgreSQL through a relay the
 * test cuts (tests/support/pgProxy.ts: every connection reset, new ones refused), in the middle of a
 * tick's transaction, for at least three scheduled times of a campaign ticking every minute; then
 * the relay lets it through again and nothing restarts the bot. Three campaigns, one a policy
 * (docs/scheduler.md, src/app/scheduler/playDueTick.ts):
 * - `all` with the cap at 48 (the most allowed): the missed ticks are played, oldest first, each for
 *   its own scheduled time and each posted once; the clock then follows the schedule;
 * - `all` with the cap at 2: more missed than the cap, none is played, the campaign pauses and its
 *   referee is told once;
 * - `one`: one tick is played, the others are skipped and the referee is told how many, once.
 * The tick cut in its transaction leaves nothing (its campaign as before the cut); no tick is
 * played twice, no message sent twice; every campaign of the store then replays exactly from its
 * journal (`npm run replay -- --store URL`'s own function).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { STORE_UNAVAILABLE_TEXT } from '../../src/app/handleError.js';
import { replayStore } from '../../src/console/replayStore.js';
import { commandPayloads } from '../../src/discord/registration.js';
import { FakeDiscord } from '../discord/fakeDiscord.js';
import { PEOPLE } from '../discord/harness.js';
import { pgProxy, type PgProxy } from '../support/pgProxy.js';
import { rowsWrittenBy, sqlOn, waitingOn } from '../support/pgWatch.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { botEnv, buildDist, isAlive, killAll, sleep, startProcess, type BotProcess } from './botProcess.js';
import { tinyScenario } from './tinyScenario.js';

const MINUTE = 60_000;
/** Scheduled times the store is away for at least: the cadence ticks every minute. */
const MISSED = 3;
/**
 * `all`'s cap: the most the settings allow. Missing more than that many minutes would take longer
 * than the test may run (900 s), so however slow a loaded machine makes the set-up, the store comes
 * back within the cap: how many times it missed is counted from the clock, not assumed.
 */
const ALL_CAP = 48;
/** Generous: a loaded machine is slow, never wrong. */
const WAIT_MS = 300_000;

let fake: FakeDiscord;
let url: string;
let proxy: PgProxy;
let bot: BotProcess | undefined;

beforeAll(async () => {
  buildDist();
  url = freshPostgresDatabase();
  proxy = await pgProxy(url);
  fake = await FakeDiscord.start({ users: Object.values(PEOPLE) });
  fake.setCommands(commandPayloads(commands));
}, 600_000);

afterAll(async () => {
  await killAll();
  await fake?.close();
  await proxy?.close();
});

/** One statement on the test's own direct connection (past the relay). */
const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => sqlOn<T>(url, text, params);

/** How many of the minutes from `due` on (a campaign's scheduled times) have come by `at`. */
const timesBy = (due: string, at: number): number => Math.max(0, Math.floor((at - Date.parse(due)) / MINUTE) + 1);

/** Resolves once `check` is true, or fails naming `what` with the bot's last lines. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nbot stdout:\n${bot?.stdout.slice(-15).join('\n')}\nbot stderr:\n${bot?.stderr.slice(-15).join('\n')}`);
    await sleep(100);
  }
}

/** The referee runs a command in `channelId`; resolves with the last answer's text. */
async function referee(channelId: string, command: string, subcommand: string | undefined, options: Record<string, unknown> = {}): Promise<string> {
  const id = fake.pushCommand({ command, ...(subcommand ? { subcommand } : {}), options: options as never, userId: PEOPLE.referee.id, channelId });
  const answer = await fake.waitForAnswer(id, 1, WAIT_MS);
  return answer.messages.at(-1)!.content;
}

interface Stored {
  readonly clock: string;
  readonly status: string;
  readonly dueAt: string | null;
  readonly ticks: number[];
  readonly journal: number;
  readonly events: number;
  readonly outbox: number;
  /** The due ticks its journal records, in order: the scheduled time each was played for. */
  readonly dueTicks: string[];
}

/** What the store holds of a campaign, read in one statement (one snapshot, while the bot plays on). */
async function stored(campaignId: string): Promise<Stored> {
  const [c] = await sql<{ clock_day: number; clock_half: number; status: string; next_tick_at: string | null; ticks: number[] | null; journal: string; events: string; outbox: string; due_ticks: string[] | null }>(`SELECT clock_day, clock_half, status, next_tick_at,
      (SELECT array_agg(time_index ORDER BY time_index) FROM ticks WHERE campaign_id = $1) AS ticks,
      (SELECT count(*) FROM journal WHERE campaign_id = $1) AS journal,
      (SELECT count(*) FROM events WHERE campaign_id = $1) AS events,
      (SELECT count(*) FROM outbox_messages WHERE campaign_id = $1) AS outbox,
      (SELECT array_agg(input::json->>'dueIso' ORDER BY seq) FROM journal WHERE campaign_id = $1 AND kind = 'entry' AND input::text LIKE '{"kind":"dueTick"%') AS due_ticks
    FROM campaigns WHERE id = $1`, [campaignId]);
  return { clock: `${c!.clock_day}/${c!.clock_half}`, status: c!.status, dueAt: c!.next_tick_at, ticks: c!.ticks ?? [], journal: Number(c!.journal), events: Number(c!.events), outbox: Number(c!.outbox), dueTicks: c!.due_ticks ?? [] };
}

const POLICIES = [
  { name: 'All War', settings: { 'catch-up': 'all', 'catch-up-cap': ALL_CAP } },
  { name: 'Capped War', settings: { 'catch-up': 'all', 'catch-up-cap': 2 } },
  { name: 'One War', settings: { 'catch-up': 'one' } },
] as const;

describe('PostgreSQL lost across several due ticks under a running bot, then restored', () => {
  it(`GIVEN three campaigns ticking every minute (catch-up all with cap ${ALL_CAP}, all with cap 2, one) WHEN the store is cut in the middle of a tick's transaction and stays away for ${MISSED} scheduled times or more THEN the cut tick left nothing, and once it is back, with no restart, each campaign catches up as its policy says, once, posted once, and every campaign replays exactly`, async () => {
    bot = startProcess(['dist/src/main.js'], botEnv({ DISCORD_TOKEN: fake.token, DISCORD_API_BASE: fake.restApi, DATABASE_URL: proxy.url, SCHEDULER_CRON: '* * * * * *', WEB: 'off' }));
    await bot.waitForLine((l) => l.includes('"bot ready"'), WAIT_MS, 'the bot ready');

    // Three campaigns on the tiny scenario, each in its own channel, started on a yearly cadence
    // (nothing due while they are set up).
    const channels = [fake.channelId, fake.otherChannelId, fake.addChannel(fake.guildId, 'one-war')];
    const ids: string[] = [];
    for (const [k, p] of POLICIES.entries()) {
      const at = channels[k]!;
      expect(await referee(at, 'campaign', 'create', { name: p.name, file: { attachment: { name: 'tiny.json', content: tinyScenario(), contentType: 'application/json' } } })).toContain(p.name);
      await referee(at, 'campaign', 'assign', { army: 'red', user: PEOPLE.alice.id });
      // No reminders (a reminder before each minute's deadline would be written while the store is compared).
      await referee(at, 'campaign', 'settings', { ...p.settings, cadence: '0 0 1 1 *', timezone: 'UTC', 'reminder-lead': 0 });
      await referee(at, 'campaign', 'start');
      ids.push((await sql<{ id: string }>('SELECT id FROM campaigns WHERE channel_id = $1', [at]))[0]!.id);
    }

    // Every minute from now: the three cadences set early in a minute, so all three fall due at
    // the next minute as a rule (the test's lock is on before that). On a machine slow enough that
    // a cadence is set after that minute struck, its campaign falls due a minute later: each
    // campaign's own due time is read and used below, none is assumed.
    while (new Date().getUTCSeconds() > 30) await sleep(500);
    // A tick's transaction records the half period played after writing the campaign: a lock on
    // that table holds the first due tick there, its campaign written and not committed.
    const locker = new pg.Client({ connectionString: url });
    locker.on('error', () => undefined);
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE ticks IN EXCLUSIVE MODE');
    for (const [k] of POLICIES.entries()) expect(await referee(channels[k]!, 'campaign', 'settings', { cadence: '* * * * *' })).toContain('cadence');
    const before = await Promise.all(ids.map(stored));
    const dues = before.map((s) => s.dueAt!);
    // Each due at a whole minute (how far apart they fell, a slow set-up decides: each is used as read).
    for (const d of dues) expect(Date.parse(d) % MINUTE).toBe(0);
    expect(before.map((s) => s.ticks)).toEqual(ids.map(() => []));

    // The first due tick is in its transaction: the store is cut there.
    const tick = await waitingOn(url, 'ticks', until);
    expect(await rowsWrittenBy(url, tick)).toContain('campaigns');
    await proxy.down();
    await locker.query('ROLLBACK');
    await locker.end();
    await bot.waitForLine((l) => l.includes('scheduler: the campaign store is unavailable; due ticks wait'), WAIT_MS, 'the scheduler waiting for the store');
    const down = fake.pushCommand({ command: 'turn', subcommand: 'status', userId: PEOPLE.referee.id, channelId: channels[0]! });
    expect((await fake.waitForAnswer(down, 1, WAIT_MS)).messages.at(-1)).toMatchObject({ content: STORE_UNAVAILABLE_TEXT, ephemeral: true });
    // Nothing of the cut tick was kept once the server has ended its session (what it had written
    // rolled back; the statement it waited on never came back to a client): every campaign as it was.
    await until(async () => (await sql('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [tick])).length === 0, 'the cut tick\'s session ended by the server');
    expect(await Promise.all(ids.map(stored))).toEqual(before);

    // Away for three scheduled times of every campaign at least (its due, + 1 min, + 2 min): the
    // scheduled times are the bot's clock, so this waits for the third of the last campaign's to come.
    const lastMissed = Math.max(...dues.map(Date.parse)) + (MISSED - 1) * MINUTE;
    while (Date.now() < lastMissed + 2_000) await sleep(250);
    expect(isAlive(bot.pid)).toBe(true);
    // Each campaign's times missed, at least: those come by the time the store is back (on a
    // loaded machine there may be more than three; the catch-up counts them when it plays).
    const upAt = Date.now();
    const missedAtUp = dues.map((d) => timesBy(d, upAt));
    for (const m of missedAtUp) expect(m).toBeGreaterThanOrEqual(MISSED);
    await proxy.up();

    // It carries on by itself: `all` (cap 48) plays every missed time, `all` (cap 2) pauses, `one` plays one.
    const [all, capped, one] = ids as [string, string, string];
    const [allDue, cappedDue, oneDue] = dues as [string, string, string];
    await until(async () => (await stored(all)).ticks.length >= missedAtUp[0]! && (await stored(capped)).status === 'paused' && (await stored(one)).ticks.length >= 1
      && Number((await sql<{ n: string }>("SELECT count(*) AS n FROM outbox_messages WHERE status = 'pending'"))[0]!.n) === 0, 'the catch-up played and delivered');
    // The catch-up counted its missed times between the store's return and now.
    const doneAt = Date.now();
    await bot.waitForLine((l) => l.includes('scheduler: the campaign store is back'), WAIT_MS, 'the scheduler saying the store is back');
    const scheduled = Array.from({ length: missedAtUp[0]! }, (_, k) => new Date(Date.parse(allDue) + k * MINUTE).toISOString());

    // `all`, within the cap: each missed time played, oldest first, each once, each for its own
    // scheduled time; the clock then back on the schedule (the next minute, not from the catch-up).
    const allNow = await stored(all);
    const allJournal = allNow.dueTicks;
    expect(allJournal.slice(0, scheduled.length)).toEqual(scheduled);
    expect(allNow.ticks.slice(0, scheduled.length)).toEqual(scheduled.map((_, k) => k));
    expect(allNow.ticks).toEqual(allNow.ticks.map((_, k) => k));
    expect(allJournal).toHaveLength(allNow.ticks.length);
    // Back on the schedule: n half periods played for n scheduled minutes from the first missed one,
    // the next due the minute after (a catch-up counted from now would have skipped minutes).
    expect(allNow.dueAt).toBe(new Date(Date.parse(allDue) + allNow.ticks.length * MINUTE).toISOString());
    // Each played half period posted its chronicle once and its map once.
    const chronicles = fake.postsIn(channels[0]!).filter((m) => / → /.test(m.content));
    const heads = chronicles.map((m) => /\*\*(.*) → /.exec(m.content)?.[1]);
    const maps = fake.postsIn(channels[0]!).filter((m) => /^(Map after|Nothing moved on the map in) /.test(m.content));
    // (Read after the posts: the next minute's tick may have come meanwhile, posted or not yet.)
    const played = (await stored(all)).ticks.length;
    expect(new Set(heads).size).toBe(heads.length);
    expect(heads.length).toBeGreaterThanOrEqual(scheduled.length);
    expect(heads.length).toBeLessThanOrEqual(played);
    expect(new Set(maps.map((m) => m.content)).size).toBe(maps.length);
    expect(maps.length).toBeGreaterThanOrEqual(scheduled.length);
    expect(maps.length).toBeLessThanOrEqual(played);
    expect(fake.dmsTo(PEOPLE.referee.id).filter((m) => m.content.includes('All War') && /missed/.test(m.content))).toEqual([]);

    // `all`, past its cap of 2: nothing played, paused with the due time kept, the referee told once.
    const cappedNow = await stored(capped);
    expect(cappedNow).toMatchObject({ status: 'paused', dueAt: cappedDue, ticks: [] });
    expect(cappedNow.dueTicks).toEqual([cappedDue]);
    const pausedNote = fake.dmsTo(PEOPLE.referee.id).filter((m) => m.content.includes('(Capped War)'));
    expect(pausedNote).toHaveLength(1);
    expect(pausedNote[0]!.content).toContain('more than 2 scheduled ticks since');
    expect(pausedNote[0]!.content).toContain('the campaign is paused');
    expect(fake.postsIn(channels[1]!).filter((m) => / → /.test(m.content))).toEqual([]);

    // `one`: one played (the due tick of the first missed time), the rest skipped, the referee told once.
    const oneNow = await stored(one);
    const oneJournal = oneNow.dueTicks;
    expect(oneJournal[0]).toBe(oneDue);
    expect(oneNow.ticks).toEqual(oneNow.ticks.map((_, k) => k));
    expect(oneJournal).toHaveLength(oneNow.ticks.length);
    const skippedNote = fake.dmsTo(PEOPLE.referee.id).filter((m) => m.content.includes('(One War)'));
    expect(skippedNote).toHaveLength(1);
    const skipped = /Catch-up policy `one`: played one \(.*\) and skipped (\d+)\./.exec(skippedNote[0]!.content);
    expect(skipped, skippedNote[0]!.content).not.toBeNull();
    // All its missed times but the one played: those come by the store's return, or more if the
    // bot came back to it after a next minute struck (before the catch-up was seen done).
    expect(Number(skipped![1])).toBeGreaterThanOrEqual(missedAtUp[2]! - 1);
    expect(Number(skipped![1])).toBeLessThanOrEqual(timesBy(oneDue, doneAt) - 1);
    // The schedule goes on from now: the next due time is in the future, on a whole minute.
    expect(Date.parse(oneNow.dueAt!) % MINUTE).toBe(0);

    // Nothing doubled: one Discord message a nonce, every outbox row sent.
    const byNonce = new Map<string, number>();
    for (const m of fake.messages) if (m.nonce !== undefined) byNonce.set(m.nonce, (byNonce.get(m.nonce) ?? 0) + 1);
    expect([...byNonce.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(await sql("SELECT id, status FROM outbox_messages WHERE status <> 'sent'")).toEqual([]);
    expect(bot.stdout.filter((l) => l.includes('scheduler: the campaign store is unavailable'))).toHaveLength(1);
    expect(bot.logs().filter((l) => Number(l.level) >= 50)).toEqual([]);

    // Every campaign of the store replays exactly from its journal.
    expect((await bot.signal('SIGTERM')).code).toBe(0);
    const lines: string[] = [];
    const exact = await replayStore(url, (line) => lines.push(line));
    expect(lines.at(-1), lines.join('\n')).toBe(`${ids.length} campaign(s) replayed exactly.`);
    expect(exact).toBe(true);
  }, 900_000);
});
