import { ensureBuilt } from './startup.js';
import { runStartedChild } from './startSettings.js';
import { figure, line, stats } from './stats.js';

/**
 * The scale section (`npm run bench -- --scale`): each measure in a fresh process running the
 * compiled bot (dist/, built first) with the allocator settings and node flags of `npm start`
 * (bench/scaleChild.mjs says what it does; this file spawns it and states its figures).
 *
 * Busy minute: `campaigns` Valormr campaigns (default 1,000) all due on the same minute, every army
 * ordered, so every campaign's tick posts its map; by default every map a picture of its own (each
 * campaign's name is in its title), as different campaigns' maps are; `same: true` (`--same`) the
 * old easy case, copies posting identical maps that the render pool draws once. Everything is
 * handed to a fake Discord enforcing 50 requests a second. Figures:
 * - scaleTotalMs against the floor the rate limit sets (messages / 50 s): scaleVsFloor;
 * - scaleLoopGapMs: the longest event-loop gap in the main thread throughout (scaleGapsOver100:
 *   how many gaps were over 100 ms);
 * - scaleAnswerP99Ms: interaction answers while it runs: every 100 ms a `/turn status` or
 *   `/army status` is run as an interaction would be (command executed, reply built), timed from
 *   when it was due to start (so time spent waiting for a blocked event loop counts);
 * - scaleRssMb: the highest resident memory of the process seen (every thread);
 * - scalePicturesAhead: the most messages at once drawing their maps or holding them drawn while
 *   they wait for a lane and the rate (the delivery's picturesAhead bounds it; each map's bytes,
 *   about 1.3 MB, are held meanwhile);
 * - scaleTicksMs: playing every due tick (runDueTicks); scaleLimited: requests the fake Discord
 *   answered 429; scaleRenderThreads: the most render threads running at once;
 * - scaleHeapMb / scaleHeapUsedMb: the main thread's V8 heap at its highest, reserved and in use
 *   (what waits for a full collection is in them: the busy minute's garbage);
 * - scaleCpuMs: CPU time of the whole process (every thread) from the due minute to the last message.
 * - scaleWalMb: the database's WAL file at its largest (its checkpoints run on a thread of their
 *   own, src/db/walCheckpoints.ts: while the ticks write without a pause it cannot start again);
 *   scaleGapsOver50: gaps over 50 ms, each with the main thread's own CPU time and its wait for a
 *   core in it (/proc/thread-self/schedstat), printed: a gap with little of either was the
 *   thread blocked (an fsync, a GC waiting for its helper threads); scaleGapLessWaitMs: the
 *   longest gap less its wait for a core (scaleGapsLessWaitOver100: how many over 100 ms), what
 *   the bot does to its own event loop whatever the machine's load.
 *
 * Idle: `idle` campaigns (default 10,000), none due: idleRssMb (after a garbage collection) and
 * idleScanMs (median of the scheduler's minute scan: due ticks and reminders, nothing due).
 */
export interface ScaleFigures {
  readonly scaleCampaigns: number;
  readonly scaleMessages: number;
  readonly scaleTotalMs: number;
  readonly scaleFloorMs: number;
  readonly scaleVsFloor: number;
  readonly scaleLoopGapMs: number;
  readonly scaleGapsOver100: number;
  readonly scaleAnswerP99Ms: number;
  readonly scaleRssMb: number;
  /** The most messages at once drawing their maps or holding them drawn, ahead of their lane (undefined from a tree without the bound). */
  readonly scalePicturesAhead?: number;
  readonly scaleTicksMs: number;
  readonly scaleLimited: number;
  readonly scaleRenderThreads: number;
  /** The main thread's V8 heap at its highest during the busy minute: reserved (scaleHeapMb) and in use. */
  readonly scaleHeapMb: number;
  readonly scaleHeapUsedMb: number;
  /** CPU time of the whole process (every thread) from the due minute to the last message: steadier than wall time under load. */
  readonly scaleCpuMs: number;
  /** The database's WAL file at its largest (MB). */
  readonly scaleWalMb: number;
  /** Gaps over 50 ms in the main thread's event loop. */
  readonly scaleGapsOver50: number;
  /**
   * The longest gap less the main thread's wait for a core in it (its own CPU and the time it was
   * blocked: an fsync, a collection waiting for helper threads), and how many such were over 100
   * ms: what the bot itself does to its event loop, steadier than scaleLoopGapMs on a loaded machine.
   */
  readonly scaleGapLessWaitMs: number;
  readonly scaleGapsLessWaitOver100: number;
  readonly idleCampaigns: number;
  readonly idleRssMb: number;
  readonly idleScanMs: number;
}

interface BusyRaw {
  readonly campaigns: number;
  readonly played: number;
  readonly messages: number;
  readonly limited: number;
  readonly pictures: number;
  readonly totalMs: number;
  readonly cpuMs: number;
  readonly ticksMs: number;
  readonly worstGap: number;
  readonly gaps: readonly { readonly atMs: number; readonly gapMs: number }[];
  /** Gaps over 50 ms: the main thread's own CPU and its wait for a core during each (ms). */
  readonly gaps50: readonly { readonly atMs: number; readonly gapMs: number; readonly cpuMs: number; readonly waitMs: number }[];
  readonly walPeakMb: number;
  readonly answers: readonly number[];
  readonly peakRssMb: number;
  readonly atPeak: { readonly heapMb?: number; readonly externalMb?: number; readonly atMs?: number; readonly workers?: number; readonly picturesAhead?: number };
  readonly picturesAheadPeak?: number;
  readonly heapTotalPeakMb: number;
  readonly heapUsedPeakMb: number;
  readonly renderThreads: number;
  readonly ordered: readonly string[];
}

interface IdleRaw {
  readonly campaigns: number;
  readonly rssMb: number;
  readonly scanSamples: readonly number[];
}

/** Runs bench/scaleChild.mjs with `args` on the compiled bot, as `npm start` runs it; its JSON line. */
function child<T>(args: readonly string[], nodeFlags: readonly string[] = []): Promise<T> {
  return runStartedChild<T>('scaleChild.mjs', args, nodeFlags);
}

export interface BusyOptions {
  readonly campaigns: number;
  /** Copies posting identical maps (drawn once) instead of every map a picture of its own. */
  readonly same?: boolean;
  /** Render threads instead of the pool's default. */
  readonly renderThreads?: number;
  /** Node flags for the child (e.g. `--cpu-prof`, to find what blocks the event loop). */
  readonly nodeFlags?: readonly string[];
}

async function busyMinute(dir: string, opts: BusyOptions): Promise<Omit<ScaleFigures, 'idleCampaigns' | 'idleRssMb' | 'idleScanMs'>> {
  const args = ['busy', dir, String(opts.campaigns), opts.same === true ? 'same' : 'distinct', ...(opts.renderThreads === undefined ? [] : [String(opts.renderThreads)])];
  const r = await child<BusyRaw>(args, opts.nodeFlags);
  const floorMs = (r.messages / 50) * 1000;
  const a = stats(r.answers);
  line(`busy minute: ${r.campaigns} campaigns due at once${opts.same === true ? ' (copies of 4 campaigns: identical maps, drawn once)' : ' (each map a picture of its own)'}, ${r.played} ticks played, ${r.messages} messages (${r.pictures} with a map) handed to a fake Discord (50 requests/s; ${r.limited} answered 429); ${r.renderThreads} render threads; armies ordered per template ${r.ordered.join(', ')}`);
  figure('  scaleTotalMs: due minute to the last message accepted', `${(r.totalMs / 1000).toFixed(1)} s`, `<= 1.3x floor ${(floorMs / 1000).toFixed(1)} s (${(r.totalMs / floorMs).toFixed(2)}x)`);
  figure('  of which playing every due tick (runDueTicks)', `${(r.ticksMs / 1000).toFixed(1)} s`);
  figure('  scaleCpuMs: CPU time of the process meanwhile (every thread)', `${(r.cpuMs / 1000).toFixed(1)} s`);
  figure('  scaleLoopGapMs: longest event-loop gap throughout', `${r.worstGap.toFixed(0)} ms`, `< 100 ms (${r.gaps.length} gaps over 100 ms)`);
  if (r.gaps.length > 0) line(`    gaps over 100 ms (ms from the due minute: length): ${r.gaps.slice(0, 20).map((g) => `${g.atMs}: ${g.gapMs}`).join(', ')}${r.gaps.length > 20 ? ', ...' : ''}`);
  const worst = [...r.gaps50].sort((x, y) => y.gapMs - x.gapMs).slice(0, 10);
  const own = r.gaps50.map((g) => g.gapMs - g.waitMs);
  if (worst.length > 0) line(`    ${r.gaps50.length} gaps over 50 ms; the longest (at: length = main thread's CPU + wait for a core + blocked): ${worst.map((g) => `${g.atMs}: ${g.gapMs} = ${g.cpuMs} + ${g.waitMs} + ${Math.max(0, g.gapMs - g.cpuMs - g.waitMs)}`).join(', ')}`);
  figure(`  scaleAnswerP99Ms: interaction answers while it ran (n=${a.n})`, `${a.p99.toFixed(0)} ms`, `< 300 ms (median ${a.median.toFixed(1)} ms, max ${a.max.toFixed(0)} ms)`);
  figure('  scaleRssMb: highest resident memory seen', `${r.peakRssMb.toFixed(0)} MB`, `< 400 MB (then: main heap ${r.atPeak.heapMb ?? '?'} MB in use, buffers ${r.atPeak.externalMb ?? '?'} MB, ${r.atPeak.workers ?? '?'} render threads, ${r.atPeak.picturesAhead ?? '?'} maps drawing or drawn ahead of their lane)`);
  if (r.picturesAheadPeak !== undefined) figure('  scalePicturesAhead: maps drawing or drawn ahead of their lane at most', `${r.picturesAheadPeak}`);
  figure('  scaleHeapMb: the main thread\'s V8 heap at its highest', `${r.heapTotalPeakMb.toFixed(0)} MB`, `(in use at most ${r.heapUsedPeakMb.toFixed(0)} MB)`);
  figure('  scaleGapLessWaitMs: the longest gap less its wait for a core', `${Math.max(0, ...own).toFixed(0)} ms`, `(${own.filter((g) => g > 100).length} over 100 ms)`);
  figure('  scaleWalMb: the database\'s WAL file at its largest', `${r.walPeakMb.toFixed(0)} MB`);
  return {
    scaleCampaigns: r.campaigns, scaleMessages: r.messages, scaleTotalMs: r.totalMs, scaleFloorMs: floorMs, scaleVsFloor: r.totalMs / floorMs, scaleLoopGapMs: r.worstGap,
    scaleGapsOver100: r.gaps.length, scaleAnswerP99Ms: a.p99, scaleRssMb: r.peakRssMb, ...(r.picturesAheadPeak === undefined ? {} : { scalePicturesAhead: r.picturesAheadPeak }), scaleTicksMs: r.ticksMs, scaleLimited: r.limited, scaleRenderThreads: r.renderThreads,
    scaleHeapMb: r.heapTotalPeakMb, scaleHeapUsedMb: r.heapUsedPeakMb, scaleCpuMs: r.cpuMs, scaleWalMb: r.walPeakMb, scaleGapsOver50: r.gaps50.length,
    scaleGapLessWaitMs: Math.max(0, ...own), scaleGapsLessWaitOver100: own.filter((g) => g > 100).length,
  };
}

async function idleCampaigns(dir: string, count: number): Promise<Pick<ScaleFigures, 'idleCampaigns' | 'idleRssMb' | 'idleScanMs'>> {
  const r = await child<IdleRaw>(['idle', dir, String(count)]);
  const scan = stats(r.scanSamples).median;
  line(`idle: ${count} campaigns created and running, none due`);
  figure('  idleRssMb: resident memory after the scans', `${r.rssMb.toFixed(0)} MB`, '< 300 MB');
  figure('  idleScanMs: the scheduler\'s minute scan (median of 5)', `${scan.toFixed(2)} ms`, '< 5 ms');
  return { idleCampaigns: count, idleRssMb: r.rssMb, idleScanMs: scan };
}

export async function benchScale(dir: string, opts: { campaigns?: number; idle?: number; same?: boolean; renderThreads?: number; nodeFlags?: readonly string[] } = {}): Promise<ScaleFigures> {
  ensureBuilt();
  const idle = await idleCampaigns(dir, opts.idle ?? 10_000);
  const busy = await busyMinute(dir, { campaigns: opts.campaigns ?? 1000, same: opts.same, renderThreads: opts.renderThreads, nodeFlags: opts.nodeFlags });
  return { ...busy, ...idle };
}
