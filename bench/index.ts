import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { closeRenderPool } from '../src/render/index.js';
import { benchCommands, benchDir, benchScan, benchSyntheticTick, benchTickPlayed } from './app.js';
import { benchMovement } from './movement.js';
import { benchRender } from './render.js';
import { benchRoute } from './route.js';
import { benchStartup, ensureBuilt } from './startup.js';
import { figure, line, median, round2 } from './stats.js';

/**
 * `npm run bench` prints the quality bars of DESIGN.md, measured on this machine, as readable
 * lines; `npm run bench -- --json` prints the same lines and then ONE JSON object on the last
 * line. Keys (times in ms, medians unless said otherwise):
 * - snapshotMs: the full public Valormr map as posted after a tick (`renderMap` with the
 *   campaign's cache key, every other hex id, static layer warm): draw + encode, plus handing the
 *   job to a render thread and the PNG back where rendering runs off the main thread.
 * - snapshotBytes: that PNG's size.
 * - blankEncodeMs: the same encoder (`encodePng`) on a blank canvas of the same size.
 * - moveWorstMs: the slowest of five `/move` requests on a 200 x 200 map through `planMove` (route
 *   search, walk, schedule; corner to corner for infantry, cavalry and a courier, and a target
 *   that cannot be reached); no database.
 * - tick200Ms, tick800Ms: a whole tick of 200 / 800 armies on 100 x 100 hexes: `playTick`, the
 *   tick's one transaction (load, engine, save, log, outbox with its map as a picture to draw);
 *   its delivery (the 100 x 100 map drawn off the main thread) is reported apart on the human
 *   line. Every army is given a fresh `/move` before each tick (untimed; the line says how many
 *   took it).
 * - commandMedianMs, commandP99Ms: console commands in the app layer on a WAL database file, a
 *   mix of `/army status`, `/move`, `/turn status`, `/campaign status`, `/army edit`.
 * - scan1000Ms: `runDueTicks` + `sendReminders` with 1,000 running campaigns, none due.
 * - startupMs: spawning the compiled console (what `npm start` runs, without npm) to its first
 *   answer, one-line script.
 * - rss100Mb: resident memory (MB) of a fresh compiled process after 100 campaigns each played a
 *   tick and drew its map (bench/memoryChild.mjs), right after the last picture, with the
 *   allocator settings `npm start` uses; rss100IdleMb: the same once the idle render thread
 *   stopped (as between ticks).
 * - loopMaxGapMs: the longest event-loop gap in the main thread during a burst of 10 map renders.
 * - tickPlayedMs: a Valormr tick as played: `playTick`, then its map drawn and encoded, then the
 *   console delivery (see `tickPlayed` in bench/app.ts), on a WAL database file.
 */
const json = process.argv.includes('--json');
const dir = benchDir();
const figures: Record<string, number> = {};

line(`Valormr bench — node ${process.version}${json ? ' (--json: one JSON object on the last line)' : ''}`);

line('\n## Start-up and memory (fresh processes)');
const starts = await benchStartup(dir);
figures.startupMs = median(starts);
figure('startupMs: console spawned to first answer', `${figures.startupMs.toFixed(0)} ms`, '< 400 ms');
const memory = await memoryInChild();
figures.rss100Mb = memory.rssMb;
figures.rss100IdleMb = memory.rssIdleMb;
figure('rss100Mb: 100 campaigns, each a tick and a map (right after)', `${figures.rss100Mb.toFixed(0)} MB`, '< 150 MB');
figure('rss100IdleMb: the same once the idle render thread stopped', `${figures.rss100IdleMb.toFixed(0)} MB`);

line('\n## Render');
const render = await benchRender();
Object.assign(figures, { snapshotMs: render.snapshotMs, snapshotBytes: render.snapshotBytes, blankEncodeMs: render.blankEncodeMs, loopMaxGapMs: render.loopMaxGapMs });

line('\n## Route search');
figures.moveWorstMs = benchRoute().worstMs;

line('\n## App layer (console transport, WAL database files)');
const commands = await benchCommands(dir);
figures.commandMedianMs = commands.median;
figures.commandP99Ms = commands.p99;
figures.tickPlayedMs = (await benchTickPlayed(dir)).stats.median;
figures.tick200Ms = (await benchSyntheticTick(dir, 200, 8)).stats.median;
figures.tick800Ms = (await benchSyntheticTick(dir, 800, 4)).stats.median;
figures.scan1000Ms = (await benchScan(dir)).median;

line('\n## Engine only: movement resolution (not in the JSON)');
benchMovement(30);
await closeRenderPool();

if (json) {
  const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, k === 'snapshotBytes' ? v : round2(v)]));
  process.stdout.write(`${JSON.stringify(rounded)}\n`);
}

/** rss100Mb in a fresh process, so nothing measured before inflates it. */
async function memoryInChild(): Promise<{ rssMb: number; rssIdleMb: number }> {
  ensureBuilt();
  const script = fileURLToPath(new URL('./memoryChild.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    // With the allocator settings `npm start` uses (package.json, docs/deploy.md).
    const env = { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
    const child = spawn(process.execPath, ['--expose-gc', script], { stdio: ['ignore', 'pipe', 'inherit'], env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(last) as { rssMb: number; rssIdleMb: number });
      } catch {
        reject(new Error(`bench/memoryChild.mjs failed (exit ${code}): ${out}`));
      }
    });
  });
}
