import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { closeRenderPool } from '../src/render/index.js';
import { benchCommands, benchDir, benchFirstMove, benchScan, benchSyntheticTick } from './app.js';
import { benchTickPlayed, type TickPlayedFigures } from './played.js';
import { crashRounds } from '../tests/support/crashRounds.js';
import { freshPostgresDatabase } from '../tests/support/postgres.js';
import { benchHeldDm, benchLanesBurst } from './heldDm.js';
import { benchMovement } from './movement.js';
import { benchBands } from './bands.js';
import { benchRender, renderFigures } from './render.js';
import { benchRoute } from './route.js';
import { benchScale } from './scale.js';
import { benchStartup, ensureBuilt } from './startup.js';
import { benchMemory, type MemoryRun } from './memory.js';
import { figure, line, median, round2 } from './stats.js';
import { benchWebIdleRss } from './web.js';

/**
 * `npm run bench` prints the quality bars of DESIGN.md, measured on this machine, as readable
 * lines; `npm run bench -- --json` prints the same lines and then ONE JSON object on the last
 * line. Keys (times in ms, medians unless said otherwise):
 * - snapshotMs: the full public Valormr map as posted after a tick (`renderMap` with the
 *   campaign's cache key, every other hex id, static layer warm): draw + encode, plus handing the
 *   job to a render thread and the PNG back where rendering runs off the main thread.
 * - snapshotBytes: that PNG's size.
 * - blankEncodeMs: the fastest opaque encode of a blank of the same size (`encodePng` on an
 *   opaque canvas, or sharp fed RGB directly, whichever is faster: every PNG encoder the bot has).
 * - snapshotEncodeCpuMs, blankEncodeCpuMs: CPU time of `encodePng` on that snapshot (drawn in
 *   this thread) and of the blank's fastest encode (bench/render.ts).
 * - `--render` runs the render section alone (snapshotMs … loopMaxGapMs).
 * - `--bands` (`--band-rows N`) runs the banded PNG writer (bench/bandedPng.ts, kept as a measured
 *   alternative) against the bot's encoder on the posted snapshot, alternated: bandsEncodeMs,
 *   bandsEncodeCpuMs, bandsColdCpuMs, sharpEncodeMs, sharpEncodeCpuMs, bandsChangedPct, bandsBytes,
 *   sharpBytes (bench/bands.ts).
 * - moveWorstMs: the slowest of five `/move` requests on a 200 x 200 map through `planMove` (route
 *   search, walk, schedule; corner to corner for infantry, cavalry and a courier, and a target
 *   that cannot be reached); no database.
 * - firstMoveMs: the first `/move` a freshly started (compiled) bot handles on a 200 x 200 map
 *   (fresh process each run), the route tables the last process kept beside the database found.
 * - firstMoveColdMs: the same with no route tables on disk (built on the way, then kept): the
 *   first `/move` after a campaign's creation or a new version of the engine.
 * - tick200Ms, tick800Ms: a whole tick of 200 / 800 armies on 100 x 100 hexes as played:
 *   `playTick`, the tick's one transaction (load, engine, save, log, outbox with its map as a
 *   picture to draw), then its delivery (the 100 x 100 map drawn off the main thread); the
 *   transaction alone is on the human line. Every army is given a fresh `/move` before each tick
 *   (untimed; the line says how many took it), and each tick meets the bot as a scheduled tick does:
 *   the render thread idle-stopped, then pre-warmed for the map by the scheduler's minute check
 *   (untimed). tick800TxCpuMs: the 800-army tick's transaction in the main thread's
 *   CPU time (steadier than wall time on a loaded machine; the map the render thread draws meanwhile
 *   is not counted). tick800Ms is the median of 4 ticks of
 *   which some post a new map and some "Nothing moved"; tick800MapMs and tick800NoMapMs are the
 *   medians of each kind apart (the upper of two).
 * - tick800ColdestMs: one more 800-army tick with the render thread idle-stopped and nothing
 *   pre-warmed (a `/turn advance` after a quiet spell): a new thread reads the static layer's file.
 * - commandMedianMs, commandP99Ms: console commands in the app layer on a WAL database file, a
 *   mix of `/army status`, `/move`, `/turn status`, `/campaign status`, `/army edit`.
 * - scan1000Ms: `runDueTicks` + `sendReminders` with 1,000 running campaigns, none due.
 * - startupMs: `npm start` (npm, the prestart staleness check, then the compiled bot, console
 *   mode) to its first answered command; startupNodeMs: package.json's start script alone (`sh -c`,
 *   as npm runs it: the bundled entry dist/src/main.js with the script's node flags; no npm, no
 *   prestart). `--startup` runs them alone (`--runs N` starts of each, default 9); `--startup --vs
 *   DIR` alternates them with another checkout's (built there first), start by start:
 *   startupVsMs and startupNodeVsMs are that checkout's medians (a before beside an after).
 *   startupNodeFirstMs (startupNodeFirstVsMs): one start of the script with the code caches
 *   removed first (src/codeCache.ts): a start with no cache of its flags (the build makes the one
 *   of `npm start`'s flags: scripts/warmCodeCache.mjs).
 * - rss100Mb: resident memory (MB) of a fresh compiled process after 100 campaigns each played a
 *   tick with an army marching, so every tick drew and posted its map (bench/memoryChild.mjs), right after the last picture, with the
 *   allocator settings `npm start` uses, its code loaded as `npm start` loads it (one bundle from a code cache; before
 *   session 22 some 650 ES modules one by one: 8 MB more on the same code); the first tick draws the static layer and writes its file, the render thread is
 *   then stopped, so the other 99 are drawn by a thread that read the layer from its file, as a scheduled tick's thread
 *   does (before 29 Nov 2026 all ran on the thread that drew it: 7 MB less on the same code); rss100IdleMb: the same once the idle render thread and
 *   the WAL's checkpoint thread stopped (as a minute after the ticks; before 29 Nov 2026 the
 *   checkpoint thread, which ends itself half a minute after the last write, was still counted). Medians of 3 processes (one moves 10-20 MB from run to run;
 *   bench/memory.ts), rss100MinMb and rss100MaxMb the lowest and highest, rss100Runs how many.
 *   `--memory` runs them alone (`--runs N`, default 5); `--memory --vs DIR` alternates them with
 *   another checkout's (built there first): rss100VsMb and rss100IdleVsMb are its medians.
 * - webIdleRssMb: what the campaign web page adds to an idle compiled bot (3 campaigns): resident
 *   memory with the page on minus with WEB=off (idleRssWebOnMb, idleRssWebOffMb; bench/web.ts).
 * - loopMaxGapMs: the longest event-loop gap in the main thread during a burst of 10 map renders.
 * - The scale section runs alone with `--scale` (`--campaigns N`, default 1,000; `--idle N`,
 *   default 10,000; every campaign's map a picture of its own, or with `--same` copies posting
 *   identical maps, drawn once (`--distinct`, the default now, is still accepted); `--render-threads
 *   N`: N render threads instead of the pool's default, to compare pool sizes; `--profile DIR`: the
 *   busy minute's process writes a CPU profile there): scaleTotalMs, scaleFloorMs, scaleVsFloor,
 *   scaleLoopGapMs, scaleGapsOver100, scaleAnswerP99Ms, scaleRssMb, scaleTicksMs, scaleLimited,
 *   scaleRenderThreads, scaleHeapMb, scaleHeapUsedMb, scaleCpuMs, scaleWalMb, scaleGapsOver50, scaleGapLessWaitMs, scaleGapsLessWaitOver100, idleRssMb, idleScanMs (see bench/scale.ts). Each measure runs in a fresh
 *   process on the compiled bot with the allocator settings and node flags `npm start` uses, so its
 *   memory is the bot's as it runs.
 * - `--ticks` runs tick200Ms and tick800Ms alone.
 * - tickPlayedMs: a Valormr tick as played (`playTick`, then its map drawn and encoded, then the
 *   console delivery; see `tickPlayed` in bench/played.ts), on a WAL database file, as a scheduled
 *   tick finds the bot: its render thread stopped by the idle timer, the main thread's code aged
 *   (V8's code flushing forced, as hours idle can leave it; bench/played.ts), then the scheduler's own pre-warm (`prewarmDue`)
 *   a minute before the due time (untimed); tickPlayedWarmMs: right after a scheduled one (render
 *   thread up); tickPlayedColdestMs: thread stopped and not pre-warmed. Taken in turn, medians of
 *   20 ticks of each kind (5 coldest) that drew a map (a tick that posted "Nothing moved", a night
 *   or a rain that stops every march, is played and passed over: tickPlayedPassedOver);
 *   tickPlayedRatio = tickPlayedMs / tickPlayedWarmMs; tickPlayedCpuMs and tickPlayedWarmCpuMs the
 *   process's CPU time of those ticks (all threads: main, render, encoder), steadier than wall
 *   time on a busy machine. About 60 s. `--played` runs them alone (`--runs N` ticks of each
 *   kind, default 20; `--gap S`: S seconds idle between the pre-warm and each scheduled tick, as the
 *   bot waits up to a minute there: tickPlayedGapS says which).
 */
const { values: args } = parseArgs({ options: { json: { type: 'boolean', default: false }, scale: { type: 'boolean', default: false }, delivery: { type: 'boolean', default: false }, ticks: { type: 'boolean', default: false }, render: { type: 'boolean', default: false }, bands: { type: 'boolean', default: false }, 'band-rows': { type: 'string' }, crash: { type: 'boolean', default: false }, rounds: { type: 'string', default: '60' }, campaigns: { type: 'string', default: '1000' }, distinct: { type: 'boolean', default: false }, same: { type: 'boolean', default: false }, profile: { type: 'string' }, idle: { type: 'string', default: '10000' }, 'render-threads': { type: 'string' }, store: { type: 'string', default: 'sqlite' }, startup: { type: 'boolean', default: false }, played: { type: 'boolean', default: false }, gap: { type: 'string' }, memory: { type: 'boolean', default: false }, runs: { type: 'string' }, vs: { type: 'string' } } });
const json = args.json;
const dir = benchDir();
// Its databases and pictures (hundreds of MB; a gigabyte with --scale) go when the bench ends, however it ends but killed.
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const figures: Record<string, number> = {};

if (args.scale) {
  // `npm run bench -- --scale`: the scale section alone (minutes long; see bench/scale.ts).
  line(`Valormr bench, scale section — node ${process.version}`);
  if (args.same && args.distinct) throw new Error('bench: --same and --distinct ask for opposite busy minutes');
  const renderThreads = args['render-threads'] === undefined ? undefined : Number(args['render-threads']);
  const nodeFlags = args.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${args.profile}`];
  Object.assign(figures, await benchScale(dir, { campaigns: Number(args.campaigns), idle: Number(args.idle), same: args.same, renderThreads, nodeFlags }));
  finish();
  process.exit(0);
}

if (args.crash) {
  line(`Valormr bench, crash section — node ${process.version}`);
  const found = await crashRounds(Number(args.rounds));
  Object.assign(figures, { crashRounds: found.rounds, crashProblems: found.problems.length, crashPlayed: found.played, crashDeliveries: found.deliveries, crashRepeats: found.repeats, crashOwed: found.owed });
  figure(`crashProblems: ${found.rounds} kill -9 rounds, then a run that catches up`, String(found.problems.length), '0');
  for (const p of found.problems) line(`  ${p}`);
  figure('crashRepeats: deliveries repeated under their own id (one per kill at most)', String(found.repeats), `<= ${found.rounds}`);
  figure('crashPlayed / crashDeliveries / crashOwed', `${found.played} / ${found.deliveries} / ${found.owed}`, 'owed <= 2');
  finish();
  process.exit(found.problems.length === 0 ? 0 : 1);
}

if (args.startup) {
  // `npm run bench -- --startup [--runs N] [--vs DIR]`: the start-up figures alone.
  line(`Valormr bench, start-up section — node ${process.version}`);
  startFigures(await benchStartup(dir, Number(args.runs ?? 9), args.vs));
  finish();
  process.exit(0);
}

if (args.memory) {
  // `npm run bench -- --memory [--runs N] [--vs DIR]`: rss100Mb and rss100IdleMb alone.
  line(`Valormr bench, memory section — node ${process.version}`);
  ensureBuilt();
  memoryFigures(await benchMemory(Number(args.runs ?? 5), args.vs));
  finish();
  process.exit(0);
}

if (args.store === 'postgres') {
  // `npm run bench -- --store postgres`: the app layer on PostgreSQL beside SQLite, in turn (a busy
  // machine slows both alike). DATABASE_URL names an empty database to use; without it, a
  // throwaway local cluster (tests/support/postgres.ts) gives a fresh one per measure.
  line(`Valormr bench, PostgreSQL beside SQLite — node ${process.version}`);
  const url = (): string => process.env.DATABASE_URL ?? freshPostgresDatabase();
  const sqliteCommands = await benchCommands(dir);
  const pgCommands = await benchCommands(dir, url());
  // 20 ticks of each kind a store, so the scheduled ratio holds from run to run on a busy machine.
  const sqliteTick = await benchTickPlayed(dir);
  const pgTick = await benchTickPlayed(dir, { store: url() });
  Object.assign(figures, {
    commandMedianMs: sqliteCommands.median, commandMedianPgMs: pgCommands.median, commandPgRatio: pgCommands.median / sqliteCommands.median,
    commandP99Ms: sqliteCommands.p99, commandP99PgMs: pgCommands.p99,
    tickPlayedMs: sqliteTick.scheduled.median, tickPlayedPgMs: pgTick.scheduled.median, tickPgRatio: pgTick.scheduled.median / sqliteTick.scheduled.median,
    tickPlayedWarmMs: sqliteTick.warm.median, tickPlayedWarmPgMs: pgTick.warm.median,
  });
  figure('commandPgRatio: command median, PostgreSQL / SQLite', `${figures.commandPgRatio?.toFixed(2)}x`, '<= 3x');
  figure('tickPgRatio: tick as played (scheduled), PostgreSQL / SQLite', `${figures.tickPgRatio?.toFixed(2)}x`, '<= 1.5x');
  await closeRenderPool();
  finish();
  process.exit(0);
} else if (args.store !== 'sqlite') {
  process.stderr.write(`--store takes sqlite or postgres, not "${args.store}"\n`);
  process.exit(2);
}

if (args.played) {
  // `npm run bench -- --played [--runs N]`: tickPlayedMs, tickPlayedWarmMs and tickPlayedColdestMs alone.
  line(`Valormr bench, ticks as played — node ${process.version}`);
  playedFigures(await benchTickPlayed(dir, { perKind: Number(args.runs ?? 20), gapMs: Number(args.gap ?? 0) * 1000 }));
  figures.tickPlayedGapS = Number(args.gap ?? 0);
  await closeRenderPool();
  finish();
  process.exit(0);
}

if (args.ticks) {
  // `npm run bench -- --ticks`: tick200Ms and tick800Ms alone (a profile of the big tick:
  // `node --cpu-prof --import tsx bench/index.ts --ticks`).
  line(`Valormr bench, synthetic ticks — node ${process.version}`);
  await syntheticTicks();
  await closeRenderPool();
  finish();
  process.exit(0);
}

if (args.render) {
  // `npm run bench -- --render`: the render section alone (a profile of the snapshot:
  // `node --cpu-prof --import tsx bench/index.ts --render`).
  line(`Valormr bench, render section — node ${process.version}`);
  Object.assign(figures, renderFigures(await benchRender()));
  await closeRenderPool();
  finish();
  process.exit(0);
}

if (args.bands) {
  // `npm run bench -- --bands`: the banded PNG writer (bench/bandedPng.ts) against the bot's encoder.
  line(`Valormr bench, banded PNG encode — node ${process.version}`);
  Object.assign(figures, await benchBands(args['band-rows'] === undefined ? undefined : Number(args['band-rows'])));
  finish();
  process.exit(0);
}

if (args.delivery) {
  line(`Valormr bench, delivery section — node ${process.version}`);
  await benchDelivery();
  finish();
  process.exit(0);
}

line(`Valormr bench — node ${process.version}${json ? ' (--json: one JSON object on the last line)' : ''}`);

line('\n## Start-up and memory (fresh processes)');
startFigures(await benchStartup(dir));
ensureBuilt();
memoryFigures(await benchMemory(3));
Object.assign(figures, await benchWebIdleRss(dir));

line('\n## Render');
Object.assign(figures, renderFigures(await benchRender()));

line('\n## Route search');
figures.moveWorstMs = benchRoute().worstMs;
{
  const firstMove = await benchFirstMove(dir);
  figures.firstMoveMs = firstMove.warm.median;
  figures.firstMoveColdMs = firstMove.cold.median;
}

line('\n## App layer (console transport, WAL database files)');
const commands = await benchCommands(dir);
figures.commandMedianMs = commands.median;
figures.commandP99Ms = commands.p99;
playedFigures(await benchTickPlayed(dir));
await syntheticTicks();
figures.scan1000Ms = (await benchScan(dir)).median;

await benchDelivery();

line('\n## Engine only: movement resolution (not in the JSON)');
benchMovement(30);
await closeRenderPool();

finish();

/** tick200Ms, tick800Ms and the 800-army tick's parts (see the list above). */
async function syntheticTicks(): Promise<void> {
  figures.tick200Ms = (await benchSyntheticTick(dir, 200, 8)).stats.median;
  const tick800 = await benchSyntheticTick(dir, 800, 4);
  figures.tick800Ms = tick800.stats.median;
  figures.tick800TxCpuMs = tick800.transactionCpu.median;
  figures.tick800MapMs = tick800.withMap.median;
  figures.tick800NoMapMs = tick800.withoutMap.median;
  figures.tick800ColdestMs = tick800.coldest;
}

/** tickPlayedMs and the keys beside it (see the list above). */
function playedFigures(played: TickPlayedFigures): void {
  figures.tickPlayedMs = played.scheduled.median;
  figures.tickPlayedWarmMs = played.warm.median;
  figures.tickPlayedColdestMs = played.coldest.median;
  figures.tickPlayedRatio = played.scheduled.median / played.warm.median;
  figures.tickPlayedCpuMs = played.scheduledCpu.median;
  figures.tickPlayedWarmCpuMs = played.warmCpu.median;
  figures.tickPlayedPassedOver = played.passedOver;
}

function startFigures(starts: Awaited<ReturnType<typeof benchStartup>>): void {
  figures.startupMs = median(starts.here.npm);
  figures.startupNodeMs = median(starts.here.node);
  figure('startupMs: `npm start` to the first answered command', `${figures.startupMs.toFixed(0)} ms`, '< 600 ms');
  figure('startupNodeMs: the start script alone (no npm, no prestart)', `${figures.startupNodeMs.toFixed(0)} ms`);
  figures.startupNodeFirstMs = starts.here.nodeFirst;
  figure('startupNodeFirstMs: a start with no code cache of its flags (one run)', `${figures.startupNodeFirstMs.toFixed(0)} ms`);
  if (starts.vs === undefined) return;
  figures.startupNodeFirstVsMs = starts.vs.nodeFirst;
  figures.startupVsMs = median(starts.vs.npm);
  figures.startupNodeVsMs = median(starts.vs.node);
  figure(`startupVsMs: the same, ${args.vs}`, `${figures.startupVsMs.toFixed(0)} ms (this one ${(figures.startupMs / figures.startupVsMs).toFixed(2)}x)`);
  figure(`startupNodeVsMs: the same, ${args.vs}`, `${figures.startupNodeVsMs.toFixed(0)} ms (this one ${(figures.startupNodeMs / figures.startupNodeVsMs).toFixed(2)}x)`);
}

function finish(): void {
  if (!json) return;
  const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, k === 'snapshotBytes' ? v : round2(v)]));
  process.stdout.write(`${JSON.stringify(rounded)}\n`);
}

async function benchDelivery(): Promise<void> {
  line('\n## Delivery (real discord.js client, fake Discord on loopback)');
  const held = await benchHeldDm();
  figures.heldDmOthersMaxMs = held.maxMs;
  figures.heldDmOthersMedianMs = held.medianMs;
  figures.lanesBurst120Ms = await benchLanesBurst();
}

/**
 * rss100Mb and rss100IdleMb: medians of fresh processes, so nothing measured before inflates them
 * (with `npm start`'s allocator settings and node flags; docs/deploy.md), with the lowest and the
 * highest beside them; with `--vs`, the other checkout's medians.
 */
function memoryFigures(runs: { readonly here: readonly MemoryRun[]; readonly vs?: readonly MemoryRun[] }): void {
  const rss = runs.here.map((r) => r.rssMb);
  figures.rss100Mb = median(rss);
  figures.rss100IdleMb = median(runs.here.map((r) => r.rssIdleMb));
  figures.rss100MinMb = Math.min(...rss);
  figures.rss100MaxMb = Math.max(...rss);
  figures.rss100Runs = rss.length;
  figure(`rss100Mb: 100 campaigns, each a tick drawing its map (right after; median of ${rss.length} processes, ${figures.rss100MinMb.toFixed(0)}-${figures.rss100MaxMb.toFixed(0)})`, `${figures.rss100Mb.toFixed(0)} MB`, '< 150 MB');
  figure('rss100IdleMb: the same once the idle render and checkpoint threads stopped', `${figures.rss100IdleMb.toFixed(0)} MB`);
  if (!runs.vs) return;
  figures.rss100VsMb = median(runs.vs.map((r) => r.rssMb));
  figures.rss100IdleVsMb = median(runs.vs.map((r) => r.rssIdleMb));
  figure(`rss100VsMb: the same, ${args.vs} (alternated)`, `${figures.rss100VsMb.toFixed(0)} MB (this one ${(figures.rss100Mb - figures.rss100VsMb).toFixed(0)} MB apart)`);
  figure(`rss100IdleVsMb: the same, ${args.vs}`, `${figures.rss100IdleVsMb.toFixed(0)} MB (this one ${(figures.rss100IdleMb - figures.rss100IdleVsMb).toFixed(0)} MB apart)`);
}
