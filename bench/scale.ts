import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { findCommand } from '../commands/index.js';
import type { App } from '../src/app/app.js';
import { createApp } from '../src/app/createApp.js';
import { seededDice } from '../src/console/seededDice.js';
import { DeliveryLanes, DRAW_AHEAD, type DeliveryOutcome, type OutboxItem } from '../src/app/outbox.js';
import { ManualClock, type Clock } from '../src/app/ports.js';
import { resumeEndedPauses, runDueTicks, sendReminders } from '../src/app/scheduler/index.js';
import { readCampaign } from '../src/app/unitOfWork.js';
import { consoleContext } from '../src/console/consoleContext.js';
import { parseLine } from '../src/console/parseLine.js';
import { ConsoleSession } from '../src/console/session.js';
import { closeRenderPool } from '../src/render/index.js';
import { figure, line, stats } from './stats.js';
import { rawSqlite } from '../src/db/client.js';

/**
 * The scale section (`npm run bench -- --scale`), one process, one WAL database file:
 *
 * Busy minute: `campaigns` Valormr campaigns (default 1,000), all started together so all are due
 * on the same minute, every army of every campaign ordered to march (so every tick moves armies
 * and posts its map). One campaign is made through the console (create, start, a `/move` for each
 * of its 24 armies); the others are copies of its rows (each its own id, channel and referee), so
 * setting up a thousand campaigns does not take a thousand times 24 commands. Then the clock is
 * set to the due minute and the scheduler's run is called as the cron trigger calls it (ended
 * pauses, due ticks, reminders), while a delivery pool like the Discord transport's (16 lanes,
 * 50 starts a second, maps drawn ahead without holding a lane, polled every 500 ms) hands every message to a fake Discord that enforces the
 * global limit of 50 requests a second itself (a request over it is answered 429 with its
 * retry-after) and answers each accepted one after 20 ms. Measured until every tick is played
 * and the outbox is empty:
 * - scaleTotalMs against the floor the rate limit sets (messages / 50 s): scaleVsFloor;
 * - scaleLoopGapMs: the longest event-loop gap in the main thread throughout;
 * - scaleAnswerP99Ms: interaction answers while it runs: every 100 ms a `/turn status` or
 *   `/army status` is run as an interaction would be (command executed, reply built), timed from
 *   when it was due to start (so time spent waiting for a blocked event loop counts);
 * - scaleRssMb: the highest resident memory of the process seen.
 *
 * Idle: `idle` campaigns (default 10,000) on another database file, copies as above, none due:
 * idleRssMb (after a garbage collection) and idleScanMs (median of the scheduler's minute scan:
 * due ticks and reminders, nothing due).
 */
export interface ScaleFigures {
  readonly scaleCampaigns: number;
  readonly scaleMessages: number;
  readonly scaleTotalMs: number;
  readonly scaleFloorMs: number;
  readonly scaleVsFloor: number;
  readonly scaleLoopGapMs: number;
  readonly scaleAnswerP99Ms: number;
  readonly scaleRssMb: number;
  readonly scaleTicksMs: number;
  readonly idleCampaigns: number;
  readonly idleRssMb: number;
  readonly idleScanMs: number;
}

const START = new Date('2026-11-22T10:00:00Z');

/** Tables holding a campaign's rows that a copy takes (logs, the outbox and claims are not copied). */
const SKIP = new Set(['events', 'outbox_messages', 'ticks', 'interaction_claims', 'campaigns', '__drizzle_migrations']);

/**
 * Copies campaign `from` (with every row of every table keyed by campaign_id) `count` times, in
 * one transaction; copy i gets id `${from}-${i}`, channel `s${i}` and every user id suffixed with
 * `-${i}` (its own referee and commanders, so DMs go to different people as in real life).
 * `distinct`: each copy's name is suffixed too, so its map (whose title names the campaign) is a
 * picture of its own, as different campaigns' maps are; without it every copy posts the same map,
 * which the render pool draws once.
 */
function copyCampaign(app: App, from: string, count: number, distinct = false): string[] {
  const db = rawSqlite(app.db);
  const tables = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string }[]).map((t) => t.name);
  const columns = (table: string): string[] => (db.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name);
  const userish = (c: string): boolean => c === 'user_id' || c === 'owner_user_id';
  const plans = [['campaigns', 'id'] as const, ...tables.filter((t) => !SKIP.has(t) && columns(t).includes('campaign_id')).map((t) => [t, 'campaign_id'] as const)].map(([table, key]) => {
    const cols = columns(table);
    const select = cols.map((c) => (c === key ? '@id' : c === 'channel_id' && table === 'campaigns' ? '@channel' : userish(c) ? `${c} || @suffix`
      : distinct && c === 'name' && table === 'campaigns' ? `${c} || @suffix` : c)).join(', ');
    return db.prepare(`insert into ${table} (${cols.join(', ')}) select ${select} from ${table} where ${key} = @from`);
  });
  const ids: string[] = [];
  db.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const id = `${from}-${i}`;
      for (const p of plans) p.run({ id, channel: `s${i}`, suffix: `-${i}`, from });
      ids.push(id);
    }
  })();
  return ids;
}

/** Makes the template campaign through the console: created, started, every army ordered. */
async function template(app: App & { close(): void }, orderAll: boolean): Promise<{ id: string; due: string }> {
  let id = '';
  const session = new ConsoleSession(app, {
    where: { guildId: 'scale', channelId: 's0', baseDir: process.cwd() }, outDir: join(process.cwd(), 'tmp-scale-out'), saveFiles: false,
    write: (o) => {
      const c = (o.data as { campaignId?: string } | undefined)?.campaignId;
      if (c) id = c;
    },
  });
  await session.handle('@referee /campaign create scenario:valormr name:"Scale"');
  await session.handle('@referee /campaign start');
  const state = readCampaign(app, { campaignId: id }, (tx) => ({ armies: Object.values(tx.state.armies), map: tx.map }));
  let ordered = 0;
  if (orderAll) {
    const held = new Set(state.armies.map((a) => `${a.hex.q},${a.hex.r}`));
    for (const a of state.armies) {
      // A march to a free neighbour two hexes on, the first that is accepted.
      for (const [dq, dr] of [[2, 0], [-2, 0], [0, 2], [0, -2], [2, -2], [-2, 2], [1, 1], [-1, -1]] as const) {
        const to = { q: a.hex.q + dq, r: a.hex.r + dr };
        if (!state.map.inBounds(to) || held.has(`${to.q},${to.r}`)) continue;
        let refused = false;
        const probe = new ConsoleSession(app, { where: { guildId: 'scale', channelId: 's0', baseDir: process.cwd() }, outDir: '.', saveFiles: false, write: (o) => {
          if ((o.data as { error?: string } | undefined)?.error) refused = true;
        } });
        await probe.handle(`@referee /move army:${a.id} to:${state.map.format(to)} unformed:true`);
        if (!refused) {
          ordered++;
          break;
        }
      }
    }
    if (ordered < state.armies.length) line(`  (template: ${ordered} of ${state.armies.length} armies took an order)`);
  }
  await session.flush();
  const due = readCampaign(app, { campaignId: id }, (tx) => tx.meta.nextTickAt);
  if (!due) throw new Error('bench: the template campaign has no due time');
  return { id, due };
}

/** A fake Discord enforcing the global rate limit: 50 requests in any second, 429 beyond. */
function fakeDiscord(): { deliver: (item: OutboxItem) => Promise<DeliveryOutcome>; accepted: () => number; limited: () => number } {
  const window: number[] = [];
  let accepted = 0;
  let limited = 0;
  return {
    deliver: async () => {
      const now = performance.now();
      while (window.length > 0 && (window[0] as number) <= now - 1000) window.shift();
      if (window.length >= 50) {
        limited++;
        return { result: 'retry', reason: '429', retryAfterMs: Math.ceil((window[0] as number) + 1000 - now) };
      }
      window.push(now);
      await new Promise((r) => setTimeout(r, 20));
      accepted++;
      return 'sent';
    },
    accepted: () => accepted,
    limited: () => limited,
  };
}

/**
 * The busy minute's clock: still while the campaigns are set up, then running with real time from
 * the due minute on, as a running bot's clock does. (Held still, a message answered 429 would be
 * due again "in 15 ms" for ever, and the messages behind it in its channel never sent.)
 */
function clockFrom(start: Date): Clock & { runFrom(at: Date): void } {
  let base = start.getTime();
  let since: number | undefined;
  return {
    now: () => new Date(base + (since === undefined ? 0 : Math.floor(performance.now() - since))),
    runFrom(at) {
      base = at.getTime();
      since = performance.now();
    },
  };
}

/** Resident memory now, in MB. */
const rssMb = (): number => process.memoryUsage().rss / 1024 / 1024;

async function busyMinute(dir: string, campaigns: number, distinct: boolean): Promise<Omit<ScaleFigures, 'idleCampaigns' | 'idleRssMb' | 'idleScanMs'>> {
  const clock = clockFrom(START);
  const app = createApp({ databasePath: join(dir, 'scale.db'), clock, dice: seededDice(1) });
  const t = await template(app, true);
  const copies = copyCampaign(app, t.id, campaigns - 1, distinct);
  const ids = [t.id, ...copies];
  clock.runFrom(new Date(t.due));
  const pending = (): number => (rawSqlite(app.db).prepare("select count(*) as n from outbox_messages where status = 'pending'").get() as { n: number }).n;

  const discord = fakeDiscord();
  const lanes = new DeliveryLanes(app, discord.deliver, { lanes: 16, perSecond: 50, drawAhead: DRAW_AHEAD });
  const poll = setInterval(() => lanes.fill(), 500);

  // The event loop: the longest gap between the ticks of a 5 ms timer, and node's own histogram.
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let last = performance.now();
  let worstGap = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    worstGap = Math.max(worstGap, now - last);
    last = now;
  }, 5);

  // Interactions: every 100 ms a command as an interaction runs it, timed from when it was due.
  const answers: number[] = [];
  const lines = ['/turn status', '/army status army:hadewych'];
  let asked = 0;
  const interaction = setInterval(() => {
    const due = performance.now();
    const k = asked++;
    const campaign = k % campaigns;
    const parsed = parseLine(`@referee${campaign === 0 ? '' : `-${campaign}`} ${lines[k % lines.length]}`);
    if (parsed.kind !== 'command') return;
    const command = findCommand(parsed.command);
    if (!command) return;
    setImmediate(() => {
      void (async () => {
        try {
          await command.execute(consoleContext(app, command, parsed.user, parsed.words, parsed.options, { guildId: 'scale', channelId: campaign === 0 ? 's0' : `s${campaign}`, baseDir: process.cwd() }));
        } catch {
          // a refusal is an answer too
        }
        answers.push(performance.now() - due);
      })();
    });
  }, 100);

  let peak = rssMb();
  const memory = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 250);

  const t0 = performance.now();
  resumeEndedPauses(app);
  const played = await runDueTicks(app);
  const ticksMs = performance.now() - t0;
  await sendReminders(app);
  lanes.fill();
  while (pending() > 0 || lanes.busy > 0) await new Promise((r) => setTimeout(r, 50));
  const totalMs = performance.now() - t0;

  clearInterval(poll);
  clearInterval(probe);
  clearInterval(interaction);
  clearInterval(memory);
  histogram.disable();
  await lanes.close();
  const playedCount = played.reduce((n, r) => n + r.played, 0);
  if (playedCount < campaigns) throw new Error(`bench: only ${playedCount} of ${campaigns} due ticks were played`);
  const pictures = (rawSqlite(app.db).prepare("select count(*) as n from outbox_messages where pictures is not null and pictures != '[]'").get() as { n: number }).n;
  app.close();
  await closeRenderPool();
  const messages = discord.accepted();
  const floorMs = (messages / 50) * 1000;
  const a = stats(answers);
  line(`busy minute: ${campaigns} campaigns due at once${distinct ? ' (each its own name, so each map a picture of its own)' : ' (copies of one campaign: identical maps, drawn once)'}, ${playedCount} ticks played, ${messages} messages (${pictures} with a map) handed to a fake Discord (50 requests/s; ${discord.limited()} answered 429)`);
  figure('  scaleTotalMs: due minute to the last message accepted', `${(totalMs / 1000).toFixed(1)} s`, `<= 1.3x floor ${(floorMs / 1000).toFixed(1)} s (${(totalMs / floorMs).toFixed(2)}x)`);
  figure('  of which playing every due tick (runDueTicks)', `${(ticksMs / 1000).toFixed(1)} s`);
  figure('  scaleLoopGapMs: longest event-loop gap throughout', `${worstGap.toFixed(0)} ms`, `< 100 ms (node histogram max ${(histogram.max / 1e6).toFixed(0)} ms)`);
  figure(`  scaleAnswerP99Ms: interaction answers while it ran (n=${a.n})`, `${a.p99.toFixed(0)} ms`, `< 300 ms (median ${a.median.toFixed(1)} ms, max ${a.max.toFixed(0)} ms)`);
  figure('  scaleRssMb: highest resident memory seen', `${peak.toFixed(0)} MB`, '< 400 MB');
  return { scaleCampaigns: ids.length, scaleMessages: messages, scaleTotalMs: totalMs, scaleFloorMs: floorMs, scaleVsFloor: totalMs / floorMs, scaleLoopGapMs: worstGap, scaleAnswerP99Ms: a.p99, scaleRssMb: peak, scaleTicksMs: ticksMs };
}

async function idleCampaigns(dir: string, count: number): Promise<Pick<ScaleFigures, 'idleCampaigns' | 'idleRssMb' | 'idleScanMs'>> {
  const clock = new ManualClock(START);
  const app = createApp({ databasePath: join(dir, 'idle.db'), clock, dice: seededDice(1) });
  const t = await template(app, false);
  copyCampaign(app, t.id, count - 1);
  clock.advance(60_000);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const played = await runDueTicks(app);
    await sendReminders(app);
    samples.push(performance.now() - t0);
    if (played.length > 0) throw new Error('bench: an idle campaign was due');
  }
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 100));
  const rss = rssMb();
  app.close();
  const scan = stats(samples).median;
  line(`idle: ${count} campaigns created and running, none due`);
  figure('  idleRssMb: resident memory after the scans', `${rss.toFixed(0)} MB`, '< 300 MB');
  figure('  idleScanMs: the scheduler\'s minute scan (median of 5)', `${scan.toFixed(2)} ms`, '< 5 ms');
  return { idleCampaigns: count, idleRssMb: rss, idleScanMs: scan };
}

export async function benchScale(dir: string, opts: { campaigns?: number; idle?: number; distinct?: boolean } = {}): Promise<ScaleFigures> {
  // Idle first, so its memory is not what the busy minute left behind.
  const idle = await idleCampaigns(dir, opts.idle ?? 10_000);
  const busy = await busyMinute(dir, opts.campaigns ?? 1000, opts.distinct ?? false);
  return { ...busy, ...idle };
}
