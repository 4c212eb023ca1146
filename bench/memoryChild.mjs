/**
 * rss100Mb, in a fresh process running the COMPILED bot (dist/, as `npm start` runs it, with its
 * allocator settings and node flags, bench/startSettings.ts; the bench builds it first): 100 Valormr campaigns on one WAL database file, each created, started and
 * played one tick with the console's `!tick` (the tick, then its public map drawn on a render
 * thread, encoded and delivered as a file). The first tick draws the map's static layer and
 * writes its file; the render thread is then stopped, so the other 99 are drawn by a thread that
 * read the layer from its file, as a scheduled tick's thread does (started anew after a minute idle). Resident memory of the whole process (every thread)
 * after a garbage collection, right after the last picture (rssMb) and once the idle render
 * thread has stopped, as it does a minute after its last picture (rssIdleMb; here the pool is
 * closed instead of waiting the minute: the thread ends the same way). By then the WAL's
 * checkpoint thread (src/db/walCheckpoints.ts, started once the ticks' WAL passed 4 MB, ~9 MB: an
 * isolate and a connection) has ended too: it ends itself about half a minute after the last
 * write (IDLE_LOOKS x EVERY_MS there); so it is stopped here with the render pool (before 29 Nov
 * 2026 it was not, and rssIdleMb counted a thread a bot idle for a minute no longer has: in one
 * process left to idle for real, 161.8 MB 35 s after the ticks with the render thread still up
 * and the checkpoint thread gone, 125.7 MB at 60 s with both gone). The render thread's idle
 * timer keeps its real length, so rssMb is never read after the thread stopped (on a loaded
 * machine a one-second timer did run out first); rssMb counts the checkpoint thread, which runs
 * right after a burst of ticks. Prints one JSON line: { rssMb, rssIdleMb, pictures,
 * renderThreads, checkpointThreads } (the last two: running when rssMb was read).
 *
 * The bot's code is loaded as `npm start` loads it: one CommonJS bundle compiled from a V8 code
 * cache by src/codeCache.ts (benchMemory.cjs: the app, console session and render pool of this
 * checkout's dist/, bundled as main.cjs is by scripts/bundle.mjs; made, with its cache for these
 * flags, by a `--warm` run of this script in a process of its own before anything is measured, in
 * the folder `--bundle-dir` names, else one of its own; before session 23 it was made in dist/src/,
 * so a `--vs` run wrote into the other checkout). Before 29 Nov 2026
 * (session 22) the child imported the tsc output's ES modules one by one, some 650 of them, which
 * `npm start` never does: each module's record and its source stayed in the main thread's heap
 * (heap used after the ticks 23.9 against 19.7 MB bundled), and rssMb read 8 MB more than the
 * same code run as the bot runs it (e111375, `--memory --runs 5 --vs` with the old child, load
 * 15-16: 165 against 157 MB, 156-159).
 *
 * `--breakdown` (diagnosis, run by hand; the figures above stay the last line) also prints, on
 * stderr, where the memory is: process.memoryUsage(), V8's heap, /proc/self/smaps grouped by
 * mapping (the node binary, each native library, anonymous memory), the caches' sizes, and what
 * resident memory each cache gives back when dropped in turn (recent pictures and the render
 * threads' static layers, the campaign state copies, SQLite's page cache, the render thread
 * itself, the WAL's checkpoint thread), with V8's spaces (committed and used). The drops come
 * after rssMb is read but before rssIdleMb: in this mode rssIdleMb is lower than the job's. The
 * `after` line also gives lastTickPeakRssMb: the peak resident memory (VmHWM, reset before the
 * 100th campaign's tick) while the last tick played, its map drawn, encoded and delivered (Linux).
 * `--no-tick` leaves the ticks out (100 campaigns that drew no map).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { fileURLToPath, URL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url);
const { runCached } = await import(new URL('src/codeCache.js', dist).href);
// Resolves the bundle's packages from this checkout's build, wherever the bundle is.
const requireFrom = fileURLToPath(new URL('src/main.cjs', dist));

// The bundle and its code cache go in `--bundle-dir` (a folder of the bench that runs this child,
// bench/memory.ts, reused by its runs and removed when it is done) or, run by hand, in a temporary
// folder of this process's own: never into dist/, which may be another checkout's (`--vs`).
const bundleAt = process.argv.indexOf('--bundle-dir');
const bundleDir = bundleAt > 0 ? process.argv[bundleAt + 1] : undefined;
if (process.argv.includes('--warm')) {
  // Run by the child below in a process of its own: the bundle made if the build is newer, then
  // its code cache for these flags (what scripts/warmCodeCache.mjs does for npm start's), so the
  // measured process compiles from a cache as every `npm start` does.
  const { bundleBenchMemory } = await import('../scripts/bundle.mjs');
  runCached(await bundleBenchMemory(fileURLToPath(dist), bundleDir), 'never', requireFrom).save();
  process.exit(0);
}
/** The temporary folders this process made: removed when it exits, however (but killed by a signal: bench/startSettings.ts's folder around it then goes). */
const made = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const madeDir = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
const bundleFolder = bundleDir ?? madeDir('valormr-bench-bundle-');
const warm = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--warm', '--bundle-dir', bundleFolder], { stdio: 'inherit' });
if (warm.status !== 0) throw new Error(`bench: the memory bench's bundle could not be made (exit ${warm.status ?? warm.signal})`);
const bot = runCached(join(bundleFolder, 'benchMemory.cjs'), 'never', requireFrom).exports;
const { createApp, ManualClock, seededDice, ConsoleSession, closeRenderPool, renderPoolState } = bot;

const breakdown = process.argv.includes('--breakdown');
const noTick = process.argv.includes('--no-tick');
const breakdownTools = breakdown ? await import('./memoryBreakdown.mjs') : undefined;
const memoryReport = breakdownTools?.memoryReport;
const report = async (stage, extra) => {
  if (memoryReport) process.stderr.write(`${JSON.stringify({ stage, ...(await memoryReport()), ...extra })}\n`);
};
await report('loaded');

const dir = madeDir('valormr-bench-');
let pictures = 0;
const databasePath = join(dir, 'many.db');
const app = createApp({ databasePath, clock: new ManualClock(new Date('2026-11-22T10:00:00Z')), dice: seededDice(1) });
for (let i = 0; i < 100; i++) {
  const session = new ConsoleSession(app, { where: { guildId: 'bench', channelId: `c${i}`, baseDir: process.cwd() }, outDir: join(dir, 'out'), write: (o) => {
    if (o.files?.length) pictures++;
  } });
  await session.handle(`@referee /campaign create scenario:valormr name:"Campaign ${i}"`);
  await session.handle('@referee /campaign start');
  await session.handle('@referee /move army:hadewych to:1114 unformed:true');
  // The peak (VmHWM) from here on: the last campaign's tick, its picture drawn, encoded and delivered.
  if (i === 99) breakdownTools?.resetPeakRss();
  if (!noTick) await session.handle('!tick');
  if (i === 0) await report('first');
  if (i === 0 && !noTick) {
    // The first tick drew the map's static layer and wrote its file beside the database. A bot's
    // render thread stops after a minute idle, and the one a scheduled tick finds (the scheduler's
    // pre-warm) started anew and read that file: so the other 99 ticks draw on a thread started
    // after the file was written, as users meet it. (Before 29 Nov 2026 all 100 ticks ran on the
    // thread that drew the layer, which holds it as drawn: not the state a tick is played in.)
    await closeRenderPool();
    if (!readdirSync(`${databasePath}-layers`).some((f) => f.endsWith('.layer'))) throw new Error('bench: the first tick wrote no static layer file');
  }
}
if (pictures < 100 && !noTick) throw new Error(`bench: only ${pictures} of 100 ticks delivered a map`);
globalThis.gc?.();
await new Promise((r) => setTimeout(r, 100));
const rssMb = process.memoryUsage().rss / 1024 / 1024;
// The render thread is still up here (it stops after a minute idle): the figure counts it.
const renderThreads = renderPoolState().workers;
const checkpointThreads = app.db.checkpoints?.threadRunning() ? 1 : 0;
if (renderThreads < 1 && !noTick) throw new Error('bench: the render thread stopped before rss100Mb was read');
if (memoryReport) {
  const { dropEach } = await import('./memoryBreakdown.mjs');
  await report('after', { rssMb, lastTickPeakRssMb: breakdownTools.peakRssMb() });
  await dropEach(app, bot, report);
}
// What the idle stops do, without waiting a minute: the threads end and their memory goes back.
await closeRenderPool();
app.db.checkpoints?.stop();
await new Promise((r) => setTimeout(r, 1500));
globalThis.gc?.();
const rssIdleMb = process.memoryUsage().rss / 1024 / 1024;
app.close();
// The database, its WAL, the layer file and the 100 pictures (about 17 MB): not left in the
// temporary folder (the exit handler above removes it too when a run fails).
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ rssMb, rssIdleMb, pictures, renderThreads, checkpointThreads })}\n`);
