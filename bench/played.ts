import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { loadShippedScenario, mapOf } from '../src/app/scenarios.js';
import { prewarmDue } from '../src/app/scheduler/index.js';
import { playTick } from '../src/app/turn/playTick.js';
import { campaignsDueBetween } from '../src/db/campaignRepo.js';
import { closeRenderPool } from '../src/render/index.js';
import { lcg, openHarness, orderEveryArmy, type Harness } from './app.js';
import { line, report, stats, type Stats } from './stats.js';

/** tickPlayedMs and the keys beside it: Valormr ticks as played (`npm run bench -- --played`). */

/** CPU time of the whole process so far (every thread: the main one, the render thread, the encoder's), in ms. */
function processCpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** One tick as played: wall time, the process's CPU time over it (all threads), whether it drew a map. */
export interface PlayedTick {
  readonly ms: number;
  readonly cpuMs: number;
  readonly drewMap: boolean;
}

/**
 * tickPlayedMs: ONE Valormr tick as played, timed from the trigger to the last delivery: the
 * tick's transaction (`playTick`: rules, chronicle, DMs, prompts and the map queued as a picture
 * to draw), then the console delivery of its outbox (the map drawn, encoded and written to a
 * file, the chronicle and every DM). `drewMap` is false for a tick that posted "Nothing moved"
 * (a night or a rain that stops every march): no picture, a few ms.
 */
export async function tickPlayed(h: Harness, campaignId: string): Promise<PlayedTick> {
  h.out.length = 0;
  const c0 = processCpuMs();
  const t0 = performance.now();
  const outcome = playTick(h.app, { campaignId });
  await h.session.flush();
  const ms = performance.now() - t0;
  const cpuMs = processCpuMs() - c0;
  if (!outcome.played) throw new Error(`bench: the tick was not played (${outcome.reason})`);
  return { ms, cpuMs, drewMap: h.out.some((o) => (o.files?.length ?? 0) > 0) };
}

/**
 * The main thread's code as hours of idling leave it: V8 drops the bytecode of a function that did
 * not run over 5 full collections (`--bytecode-old-age`), which an idle bot's memory reducer and
 * minute checks go through; a collection forced by `gc()` ages nothing, so two are run with V8's
 * `--stress-flush-code` on for them (every function not running is dropped: the most hours idle
 * can do), then off again. Only where `gc` is exposed (`npm run bench` runs node with
 * --expose-gc); elsewhere nothing. Measured with it (load 6-10, 7-8 ticks each): the tick's
 * main-thread CPU 24 ms with only the map pre-warmed, 17 with `prewarmDue` (the tick computed
 * ahead), 15 with nothing dropped.
 */
function ageMainThreadCode(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  setFlagsFromString('--stress-flush-code');
  try {
    gc();
    gc();
  } finally {
    setFlagsFromString('--no-stress-flush-code');
  }
}

/**
 * Brings the bot to where a scheduled tick finds it: the render thread stopped by its idle timer
 * (`closeRenderPool()` stands for the idle stop), the main thread's code aged by hours idle, then the
 * scheduler's minute check a minute before the due time (the clock set there) running its pre-warm,
 * `prewarmDue` itself: the render thread held, the tick computed and thrown away on this thread, the
 * map drawn and thrown away on a new render thread; then `gapMs` of idling before the tick (the bot
 * waits up to a minute between its pre-warm and the due minute). Untimed.
 */
async function asScheduled(h: Harness, gapMs: number): Promise<void> {
  await closeRenderPool();
  ageMainThreadCode();
  const campaignId = h.campaignId();
  const due = campaignsDueBetween(h.app.db, '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z').find((c) => c.id === campaignId)?.nextTickAt;
  if (!due) throw new Error('bench: the campaign has no next tick');
  const minuteBefore = Date.parse(due) - 60_000;
  if (minuteBefore > h.clock.now().getTime()) h.clock.set(new Date(minuteBefore));
  const warmed = await prewarmDue(h.app);
  if (!warmed.includes(campaignId)) throw new Error(`bench: the scheduler's pre-warm did not warm the campaign (due ${due}, now ${h.clock.now().toISOString()})`);
  if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
}

type PlayedKind = 'scheduled' | 'warm' | 'coldest';

/** The kinds in the order they are played: a scheduled tick then a warm one, `perKind` times, a coldest one after every `perKind / coldest` pairs. */
export function playedKinds(perKind: number, coldest: number): PlayedKind[] {
  const kinds: PlayedKind[] = [];
  let cold = 0;
  for (let i = 0; i < perKind; i++) {
    kinds.push('scheduled', 'warm');
    // The coldest ticks spread over the run (Bresenham's rule), not all at its end.
    if (Math.floor(((i + 1) * coldest) / perKind) > cold) {
      kinds.push('coldest');
      cold++;
    }
  }
  return kinds;
}

export interface TickPlayedFigures {
  readonly scheduled: Stats;
  readonly warm: Stats;
  readonly coldest: Stats;
  /** The process's CPU time of the scheduled and the warm ticks (all threads): steadier than wall time on a busy machine. */
  readonly scheduledCpu: Stats;
  readonly warmCpu: Stats;
  /** Ticks played and not counted: they drew no map (a night, a rain that stops every march). */
  readonly passedOver: number;
  readonly minOrdered: number;
  readonly armies: number;
}

/**
 * Valormr ticks as played, every army ordered before each tick (WAL file), three kinds in turn (so
 * a busy machine slows each alike and their ratios hold), `perKind` scheduled and warm ticks and
 * `coldest` coldest ones:
 * - scheduled (tickPlayedMs): as a scheduled tick finds the bot (`asScheduled`: the render thread
 *   idle-stopped, the main thread's code aged, then the scheduler's own pre-warm a minute before
 *   the due time, untimed), then the tick is timed;
 * - warm (tickPlayedWarmMs): the next tick right after a scheduled one, the render thread still up;
 * - coldest (tickPlayedColdestMs): the render thread stopped and nothing pre-warmed (a tick the
 *   pre-warm did not see coming, e.g. a referee's `/turn advance` after a quiet hour): a new
 *   thread starts for the tick's map and reads the static layer from the file beside the database.
 * Only ticks that drew a map count: one that posted "Nothing moved" (a night, a rain level that
 * stops every march: about one tick in four of the Valormr season) is played, passed over, and
 * its kind played again on the next tick. Three runs at load 7-10 read 66-106 ms (their CPU time
 * 60-77) against 77-170 for the 4 of each taken before, alternated: on a busy machine the wall
 * time is mostly the wait for a core, and the CPU keys are the ones to compare. About 45-95 s.
 * `gapMs` (default 0) idles that long between the pre-warm and the scheduled tick, as the bot does
 * (the pre-warm comes at the minute checks one and two minutes before): measured at load 7-12, a
 * 20 s idle there cost the tick 12-25 ms more CPU (V8's helper threads and the render thread), with
 * no more collections in it (--trace-gc: the same or fewer) and the same encode CPU for libvips's
 * threads started anew (they end when idle): cause not found. So the default figure is the
 * pre-warmed tick at its best.
 */
export async function benchTickPlayed(dir: string, opts: { readonly perKind?: number; readonly store?: string; readonly coldest?: number; readonly gapMs?: number } = {}): Promise<TickPlayedFigures> {
  const { perKind = 20, store, coldest = 5, gapMs = 0 } = opts;
  const h = openHarness(store ?? join(dir, 'played.db'), 'bench', join(dir, 'out'));
  await h.handle('@referee /campaign create scenario:valormr name:Played');
  await h.handle('@referee /campaign start');
  const map = mapOf(loadShippedScenario('valormr'));
  const rnd = lcg(7);
  const ticks: Record<PlayedKind, PlayedTick[]> = { scheduled: [], warm: [], coldest: [] };
  let passedOver = 0;
  let minOrdered = Infinity;
  let armies = 0;
  // One tick first so the static layer file exists beside the database, as after any first tick.
  await orderEveryArmy(h, map, rnd);
  await tickPlayed(h, h.campaignId());
  const plan = playedKinds(perKind, coldest);
  for (let i = 0; i < plan.length;) {
    const kind = plan[i] as PlayedKind;
    const o = await orderEveryArmy(h, map, rnd);
    minOrdered = Math.min(minOrdered, o.ordered);
    armies = o.armies;
    if (kind === 'scheduled') await asScheduled(h, gapMs);
    else if (kind === 'coldest') await closeRenderPool();
    const tick = await tickPlayed(h, h.campaignId());
    if (!tick.drewMap) {
      if (++passedOver > plan.length) throw new Error('bench: most ticks drew no map');
      continue;
    }
    ticks[kind].push(tick);
    i++;
  }
  h.close();
  const wall = (k: PlayedKind): Stats => stats(ticks[k].map((t) => t.ms));
  const cpu = (k: PlayedKind): Stats => stats(ticks[k].map((t) => t.cpuMs));
  const [s, w, c] = [wall('scheduled'), wall('warm'), wall('coldest')];
  report(`tick as played${store ? ' on PostgreSQL' : ''}, SCHEDULED (thread idle-stopped, then pre-warmed${gapMs > 0 ? `, ${gapMs / 1000} s idle` : ''}), ordered >= ${minOrdered}/${armies}`, s, store ? 'within 1.5x SQLite\'s' : '< 75 ms and <= 1.3x warm');
  report('tick as played, warm (right after another tick)', w);
  report('tick as played, coldest (thread idle-stopped, no pre-warm)', c);
  report('  scheduled, the process\'s CPU time (all threads)', cpu('scheduled'));
  report('  warm, the process\'s CPU time (all threads)', cpu('warm'));
  line(`  scheduled / warm: ${(s.median / w.median).toFixed(2)}x; coldest / warm: ${(c.median / w.median).toFixed(2)}x; ${passedOver} ticks drew no map (played, not counted)`);
  return { scheduled: s, warm: w, coldest: c, scheduledCpu: cpu('scheduled'), warmCpu: cpu('warm'), passedOver, minOrdered, armies };
}
