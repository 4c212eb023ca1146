/**
 * The scale section's two measures, each in a fresh process running the COMPILED bot (dist/, as
 * `npm start` runs it, with its allocator settings and node flags: bench/scale.ts spawns this file
 * with them, after building). Prints one JSON line of raw figures; bench/scale.ts states them.
 *
 *   node FLAGS bench/scaleChild.mjs busy DIR CAMPAIGNS same|distinct [RENDER_THREADS]
 *   node FLAGS bench/scaleChild.mjs idle DIR CAMPAIGNS
 *
 * busy: CAMPAIGNS Valormr campaigns all due on the same minute, every army of every campaign ordered
 * to march (so every tick moves armies and posts its map). A few template campaigns are made
 * through the console (create, start, a `/move` for each of its 24 armies; each template tries the
 * marching directions in another order, so their armies end the tick on other hexes); the other
 * campaigns are copies of their rows (each its own id, channel and referee). `distinct` (the
 * default of the bench): every copy's name is its own too, and the map's title names the campaign,
 * so every campaign's map is a picture of its own, as different campaigns' maps are; `same`: every
 * copy of a template posts that template's map, which the render pool draws once. Then the clock
 * is set to a minute before the due minute and the render threads pre-warmed as the scheduler's
 * minute check does then (prewarmDue), then to the due minute, and the scheduler's run is called as
 * the cron trigger calls it (ended pauses, due ticks, reminders), while a delivery pool like the Discord transport's (16 lanes, 50
 * starts a second, maps drawn ahead without holding a lane, at most PICTURES_AHEAD drawing or drawn at once, polled every 500 ms) hands every
 * message to a fake Discord that enforces the global limit of 50 requests a second itself (a
 * request over it is answered 429 with its retry-after) and answers each accepted one after 20 ms.
 * Measured until every tick is played and the outbox is empty: the total, the event loop's gaps
 * (the longest, and every gap over 100 ms with when it began; every gap over 50 ms also with the
 * main thread's own CPU time and its wait for a core meanwhile, from /proc/thread-self/schedstat
 * on Linux), the database's WAL file at its largest, interaction answers (every 100 ms a
 * `/turn status` or `/army status` run as an interaction runs it, timed from when it was due), the
 * highest resident memory of the process.
 *
 * idle: CAMPAIGNS campaigns created and running, none due: resident memory after a garbage
 * collection, and the scheduler's minute scan (5 samples).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearInterval, setImmediate, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';

const [what, dir, countText, kind = 'distinct', renderThreads] = process.argv.slice(2);
const count = Number(countText);
if (!['busy', 'idle'].includes(what ?? '') || !dir || !Number.isInteger(count) || count < 1 || !['same', 'distinct'].includes(kind)) {
  throw new Error('usage: node bench/scaleChild.mjs busy|idle DIR CAMPAIGNS [same|distinct] [RENDER_THREADS]');
}

const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { findCommand } = await load('commands/index.js');
const { createApp } = await load('src/app/createApp.js');
const { seededDice } = await load('src/console/seededDice.js');
const { DeliveryLanes, DRAW_AHEAD, PICTURES_AHEAD } = await load('src/app/outbox.js');
const { ManualClock } = await load('src/app/ports.js');
const { prewarmDue, resumeEndedPauses, runDueTicks, sendReminders } = await load('src/app/scheduler/index.js');
const { readCampaign } = await load('src/app/unitOfWork.js');
const { consoleContext } = await load('src/console/consoleContext.js');
const { parseLine } = await load('src/console/parseLine.js');
const { ConsoleSession } = await load('src/console/session.js');
const { closeRenderPool } = await load('src/render/index.js');
const { configureRenderPool, renderPoolState } = await load('src/render/renderPool.js');
const { rawSqlite } = await load('src/db/client.js');

const START = new Date('2026-11-22T10:00:00Z');
/** Templates made through the console for the busy minute: each its own marches. */
const TEMPLATES = 4;
/** Tables holding a campaign's rows that a copy takes (logs, the outbox and claims are not copied). */
const SKIP = new Set(['events', 'outbox_messages', 'ticks', 'interaction_claims', 'campaigns', '__drizzle_migrations']);
/** The marches a template tries for each army, two hexes on; template k starts at the k-th. */
const MARCHES = [[2, 0], [-2, 0], [0, 2], [0, -2], [2, -2], [-2, 2], [1, 1], [-1, -1]];

const rssMb = () => process.memoryUsage().rss / 1024 / 1024;

/**
 * Copies campaign `from` (every row of every table keyed by campaign_id) into campaigns `first` ..
 * `first + n - 1`, in one transaction: copy i gets id `${from}-${i}`, channel `s${i}` and every
 * user id suffixed with `-${i}` (its own referee and commanders, so DMs go to different people as
 * in real life); with `distinct` its name is suffixed too (its map a picture of its own).
 */
function copyCampaign(app, from, first, n, distinct) {
  const db = rawSqlite(app.db);
  const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all().map((t) => t.name);
  const columns = (table) => db.prepare('select name from pragma_table_info(?)').all(table).map((c) => c.name);
  const userish = (c) => c === 'user_id' || c === 'owner_user_id';
  const plans = [['campaigns', 'id'], ...tables.filter((t) => !SKIP.has(t) && columns(t).includes('campaign_id')).map((t) => [t, 'campaign_id'])].map(([table, key]) => {
    const cols = columns(table);
    const select = cols.map((c) => (c === key ? '@id' : c === 'channel_id' && table === 'campaigns' ? '@channel' : userish(c) ? `${c} || @suffix`
      : distinct && c === 'name' && table === 'campaigns' ? `${c} || @suffix` : c)).join(', ');
    return db.prepare(`insert into ${table} (${cols.join(', ')}) select ${select} from ${table} where ${key} = @from`);
  });
  const ids = [];
  db.transaction(() => {
    for (let i = first; i < first + n; i++) {
      const id = `${from}-${i}`;
      for (const p of plans) p.run({ id, channel: `s${i}`, suffix: `-${i}`, from });
      ids.push(id);
    }
  })();
  return ids;
}

/** Makes a template campaign through the console in channel `channel`: created, started, and with `marchFrom` every army ordered. */
async function template(app, channel, name, marchFrom) {
  let id = '';
  const where = { guildId: 'scale', channelId: channel, baseDir: process.cwd() };
  const session = new ConsoleSession(app, { where, outDir: dir, saveFiles: false, write: (o) => {
    if (o.data?.campaignId) id = o.data.campaignId;
  } });
  await session.handle(`@referee /campaign create scenario:valormr name:"${name}"`);
  await session.handle('@referee /campaign start');
  let ordered = 0;
  let armies = 0;
  if (marchFrom !== undefined) {
    const state = readCampaign(app, { campaignId: id }, (tx) => ({ armies: Object.values(tx.state.armies), map: tx.map }));
    armies = state.armies.length;
    const held = new Set(state.armies.map((a) => `${a.hex.q},${a.hex.r}`));
    const marches = [...MARCHES.slice(marchFrom % MARCHES.length), ...MARCHES.slice(0, marchFrom % MARCHES.length)];
    for (const a of state.armies) {
      // A march to a free hex two on, the first that is accepted.
      for (const [dq, dr] of marches) {
        const to = { q: a.hex.q + dq, r: a.hex.r + dr };
        if (!state.map.inBounds(to) || held.has(`${to.q},${to.r}`)) continue;
        let refused = false;
        const probe = new ConsoleSession(app, { where, outDir: dir, saveFiles: false, write: (o) => {
          if (o.data?.error) refused = true;
        } });
        await probe.handle(`@referee /move army:${a.id} to:${state.map.format(to)} unformed:true`);
        if (!refused) {
          ordered++;
          break;
        }
      }
    }
  }
  await session.flush();
  const due = readCampaign(app, { campaignId: id }, (tx) => tx.meta.nextTickAt);
  if (!due) throw new Error('bench: a template campaign has no due time');
  return { id, due, ordered, armies };
}

/** A fake Discord enforcing the global rate limit: 50 requests in any second, 429 beyond. */
function fakeDiscord() {
  const window = [];
  const counts = { accepted: 0, limited: 0 };
  return {
    counts,
    deliver: async () => {
      const now = performance.now();
      while (window.length > 0 && window[0] <= now - 1000) window.shift();
      if (window.length >= 50) {
        counts.limited++;
        return { result: 'retry', reason: '429', retryAfterMs: Math.ceil(window[0] + 1000 - now) };
      }
      window.push(now);
      await sleep(20);
      counts.accepted++;
      return 'sent';
    },
  };
}

/**
 * The busy minute's clock: still while the campaigns are set up, then running with real time from
 * the due minute on, as a running bot's clock does (held still, a message answered 429 would be due
 * again "in 15 ms" for ever).
 */
function clockFrom(start) {
  let base = start.getTime();
  let since;
  return {
    now: () => new Date(base + (since === undefined ? 0 : Math.floor(performance.now() - since))),
    runFrom(at) {
      base = at.getTime();
      since = performance.now();
    },
  };
}

async function busy() {
  if (renderThreads !== undefined) configureRenderPool({ threads: Number(renderThreads) });
  const clock = clockFrom(START);
  const app = createApp({ databasePath: join(dir, 'scale.db'), clock, dice: seededDice(1) });
  const templates = [];
  for (let k = 0; k < Math.min(TEMPLATES, count); k++) templates.push(await template(app, `t${k}`, `Scale ${k}`, k));
  const due = templates[0].due;
  if (templates.some((t) => t.due !== due)) throw new Error('bench: the templates are not due on the same minute');
  const ids = templates.map((t) => t.id);
  // The copies, shared out among the templates, numbered from 1 (channel s1 ...).
  const rest = count - templates.length;
  let next = 1;
  for (let k = 0; k < templates.length; k++) {
    const share = Math.floor(rest / templates.length) + (k < rest % templates.length ? 1 : 0);
    ids.push(...copyCampaign(app, templates[k].id, next, share, kind === 'distinct'));
    next += share;
  }
  // A minute before the due minute, as the scheduler's minute check does then: render threads pre-warmed.
  clock.runFrom(new Date(Date.parse(due) - 60_000));
  const db = rawSqlite(app.db);
  const pendingQuery = db.prepare("select count(*) as n from outbox_messages where status = 'pending'");
  const pending = () => pendingQuery.get().n;
  const channels = ids.map((id) => db.prepare('select channel_id as c, owner_user_id as u from campaigns where id = ?').get(id));

  const discord = fakeDiscord();
  const lanes = new DeliveryLanes(app, discord.deliver, { lanes: 16, perSecond: 50, drawAhead: DRAW_AHEAD, picturesAhead: PICTURES_AHEAD });
  const poll = setInterval(() => lanes.fill(), 500);

  // The event loop: every gap between the ticks of a 5 ms timer.
  let t0 = performance.now();
  let last = t0;
  let worstGap = 0;
  const gaps = [];
  const gaps50 = [];
  // This thread's time on a core and waiting for one (ns), Linux only (zeros elsewhere).
  const readSched = () => {
    try {
      return readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    } catch {
      return [0, 0];
    }
  };
  let lastSched = readSched();
  const probe = setInterval(() => {
    const now = performance.now();
    const gap = now - last;
    if (gap > worstGap) worstGap = gap;
    // clockUs: the monotonic clock in µs, as a CPU profile (--profile) stamps its samples.
    if (gap > 100) gaps.push({ at: last, gapMs: Math.round(gap), clockUs: Math.round(Number(process.hrtime.bigint() / 1000n) - gap * 1000) });
    const sched = readSched();
    if (gap > 50) gaps50.push({ at: last, gapMs: Math.round(gap), clockUs: Math.round(Number(process.hrtime.bigint() / 1000n) - gap * 1000), cpuMs: Math.round((sched[0] - lastSched[0]) / 1e6), waitMs: Math.round((sched[1] - lastSched[1]) / 1e6) });
    lastSched = sched;
    last = now;
  }, 5);

  // Interactions: every 100 ms a command as an interaction runs it, timed from when it was due.
  const answers = [];
  const lines = ['/turn status', '/army status army:hadewych'];
  let asked = 0;
  const interaction = setInterval(() => {
    const at = performance.now();
    const k = asked++;
    const c = channels[k % channels.length];
    const parsed = parseLine(`@${c.u} ${lines[k % lines.length]}`);
    if (parsed.kind !== 'command') return;
    const command = findCommand(parsed.command);
    if (!command) return;
    setImmediate(() => {
      void (async () => {
        try {
          await command.execute(consoleContext(app, command, parsed.user, parsed.words, parsed.options, { guildId: 'scale', channelId: c.c, baseDir: process.cwd() }));
        } catch {
          // a refusal is an answer too
        }
        answers.push(performance.now() - at);
      })();
    });
  }, 100);

  let peak = rssMb();
  let threadsSeen = 0;
  // At the peak: this thread's JavaScript heap and the memory outside it (buffers), in MB.
  let atPeak = {};
  // This thread's V8 heap at its highest (reserved, in use): garbage waiting for a full collection shows here.
  let heapTotalPeak = 0;
  let heapUsedPeak = 0;
  // The database's WAL file at its largest (its checkpoints run on a thread of their own: src/db/walCheckpoints.ts).
  let walPeak = 0;
  const memory = setInterval(() => {
    try {
      walPeak = Math.max(walPeak, statSync(`${join(dir, 'scale.db')}-wal`).size);
    } catch {
      // no WAL at this moment
    }
    const m = process.memoryUsage();
    heapTotalPeak = Math.max(heapTotalPeak, m.heapTotal);
    heapUsedPeak = Math.max(heapUsedPeak, m.heapUsed);
    if (m.rss / 1024 / 1024 > peak) {
      peak = m.rss / 1024 / 1024;
      atPeak = { heapMb: Math.round(m.heapUsed / 1048576), externalMb: Math.round(m.external / 1048576), atMs: Math.round(performance.now() - t0), workers: renderPoolState().workers, picturesAhead: lanes.pictures.now };
    }
    threadsSeen = Math.max(threadsSeen, renderPoolState().workers);
  }, 250);

  // The pre-warm's gaps count too (listed before the due minute, at negative times).
  await prewarmDue(app);
  clock.runFrom(new Date(due));
  t0 = performance.now();
  const cpu0 = process.cpuUsage();
  resumeEndedPauses(app);
  const played = await runDueTicks(app);
  const ticksMs = performance.now() - t0;
  await sendReminders(app);
  lanes.fill();
  while (pending() > 0 || lanes.busy > 0) await sleep(50);
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);

  clearInterval(poll);
  clearInterval(probe);
  clearInterval(interaction);
  clearInterval(memory);
  await lanes.close();
  // When each gap began, from the due minute (the pre-warm's, before it, at negative times).
  const fromDue = ({ at, ...g }) => ({ atMs: Math.round(at - t0), ...g });
  const playedCount = played.reduce((n, r) => n + r.played, 0);
  if (playedCount < count) throw new Error(`bench: only ${playedCount} of ${count} due ticks were played`);
  const pictures = db.prepare("select count(*) as n from outbox_messages where pictures is not null and pictures != '[]'").get().n;
  app.close();
  await closeRenderPool();
  return {
    campaigns: ids.length, played: playedCount, messages: discord.counts.accepted, limited: discord.counts.limited, pictures, totalMs, cpuMs: (cpu.user + cpu.system) / 1000, ticksMs, worstGap, gaps: gaps.map(fromDue), gaps50: gaps50.map(fromDue), t0Perf: t0, t0Epoch: performance.timeOrigin + t0, walPeakMb: walPeak / 1048576,
    answers, peakRssMb: peak, atPeak, picturesAheadPeak: lanes.pictures.peak, heapTotalPeakMb: heapTotalPeak / 1048576, heapUsedPeakMb: heapUsedPeak / 1048576, renderThreads: threadsSeen, ordered: templates.map((t) => `${t.ordered}/${t.armies}`),
  };
}

async function idle() {
  const clock = new ManualClock(START);
  const app = createApp({ databasePath: join(dir, 'idle.db'), clock, dice: seededDice(1) });
  const t = await template(app, 's0', 'Scale', undefined);
  copyCampaign(app, t.id, 1, count - 1, false);
  clock.advance(60_000);
  const samples = [];
  for (let i = 0; i < 5; i++) {
    const s0 = performance.now();
    const played = await runDueTicks(app);
    await sendReminders(app);
    samples.push(performance.now() - s0);
    if (played.length > 0) throw new Error('bench: an idle campaign was due');
  }
  globalThis.gc?.();
  await sleep(100);
  const rss = rssMb();
  app.close();
  return { campaigns: count, rssMb: rss, scanSamples: samples };
}

const result = what === 'busy' ? await busy() : await idle();
process.stdout.write(`${JSON.stringify(result)}\n`);
