import { dueCampaigns, getCampaignMeta } from '../../db/campaignRepo.js';
import { ifCampaignFree } from '../../db/campaignHold.js';
import type { App } from '../app.js';
import { isStoreBusy, isStoreUnavailable } from '../handleError.js';
import { playDueTick, scheduleMissing } from './playDueTick.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';

/** What the scheduler did for one campaign that was due. */
export interface DueTickReport {
  readonly campaignId: string;
  /** Half periods played in this run. */
  readonly played: number;
  /**
   * Why due ticks were not (all) played: 'battlePending' (waits for a battle result),
   * 'catchUp:one' / 'catchUp:none' (missed ticks passed over by the policy), 'catchUp:paused'
   * (more missed than the cap: paused for the referee), 'clockBehind' (the clock went backwards),
   * 'error' (logged; the tick stays due), 'alreadyPlayed' (the half period was in the ticks table), 'limit' (the per-run cap was reached;
   * the rest follow on the next run), 'busy' (another process on the same PostgreSQL holds the
   * campaign: it is playing the tick).
   */
  readonly skipped?: string;
  /** Scheduled ticks passed over by the catch-up policy. */
  readonly missed?: number;
}

export interface RunDueTicksOptions {
  /** At most this many ticks per campaign per run (a long downtime catches up over several runs). */
  readonly maxTicksPerCampaign?: number;
  /** Plays only campaigns of the guilds this process owns (a shard of a sharded bot). */
  readonly ownsGuild?: (guildId: string) => boolean;
  /** Checked before every tick: true ends the run there (the process is stopping). */
  readonly stopped?: () => boolean;
}

const DEFAULT_MAX_TICKS = 100;

function describe(err: unknown): { message: string; stack?: string } {
  return err instanceof Error ? { message: err.message, ...(err.stack ? { stack: err.stack } : {}) } : { message: String(err) };
}

async function runCampaign(app: App, campaignId: string, maxTicks: number, stopped: () => boolean): Promise<DueTickReport | undefined> {
  let played = 0;
  let skipped: string | undefined;
  let missed: number | undefined;
  let wasDue = false;
  try {
    for (let n = 0; ; n++) {
      const meta = getCampaignMeta(app.db, campaignId);
      if (!meta || meta.status !== 'running') break;
      if (meta.nextTickAt === null) {
        scheduleMissing(app, campaignId);
        break;
      }
      if (Date.parse(meta.nextTickAt) > app.clock.now().getTime()) break;
      wasDue = true;
      if (n >= maxTicks) {
        skipped = 'limit';
        break;
      }
      if (stopped()) break;
      const due = meta.nextTickAt;
      const r = ifCampaignFree(app.db, campaignId, () => playDueTick(app, campaignId, due));
      if (r === undefined) {
        skipped = 'busy';
        break;
      }
      if (r.kind === 'played') {
        played++;
        // Between ticks of a long catch-up the process answers its users.
        await yieldToEventLoop();
        if (r.missed !== undefined) {
          missed = r.missed;
          skipped = 'catchUp:one';
        }
        continue;
      }
      if (r.kind === 'stale') continue; // another trigger moved the due time on: look again
      if (r.kind === 'passedOver') {
        missed = r.missed;
        skipped = 'catchUp:none';
      } else if (r.kind === 'pausedForCatchUp') {
        missed = r.missed;
        skipped = 'catchUp:paused';
      } else if (r.kind === 'held') {
        skipped = 'battlePending';
      } else if (r.kind === 'clockBehind') {
        skipped = 'clockBehind';
        app.logger.warn({ campaignId, due: meta.nextTickAt, lastTickAt: meta.lastTickAt, now: app.clock.now().toISOString() }, 'scheduler: the clock is behind the last tick played; nothing is played until it has caught up');
      } else if (r.kind === 'alreadyPlayed') {
        skipped = 'alreadyPlayed';
        app.logger.warn({ campaignId, due: meta.nextTickAt }, 'scheduler: the due half period is already in the ticks table; left due');
      }
      break;
    }
  } catch (err) {
    // The store out of reach: no other campaign can be played either; the run ends (startScheduler says so once).
    if (isStoreUnavailable(err)) throw err;
    if (isStoreBusy(err)) skipped = 'busy';
    else {
      app.logger.error({ campaignId, err: describe(err) }, 'scheduler: tick failed; it stays due and is tried again on the next run');
      skipped = 'error';
    }
    wasDue = true;
  }
  if (!wasDue) return undefined;
  return { campaignId, played, ...(skipped !== undefined ? { skipped } : {}), ...(missed !== undefined ? { missed } : {}) };
}

/**
 * Plays every tick that is due, for every running campaign (of this process's guilds). The
 * database says when a tick is due (campaigns.next_tick_at); one indexed query finds them, so the
 * cost does not grow with campaigns that are not due. This is what the cron trigger calls every
 * minute and once at start-up. Per campaign:
 * - each due tick is played in its own transaction (playDueTick), which also decides catch-up
 *   after downtime (RULINGS 8: 'all' plays up to the cap, then pauses for the referee; 'one';
 *   'none'), holds a tick while a battle waits, and plays nothing while the clock is behind the
 *   last tick's run;
 * - idempotent: a doubled trigger or a second process finds the due time already moved on (or
 *   the half period in the ticks table) and plays nothing;
 * - shared: on PostgreSQL every process finds the same campaigns due and skips, without waiting,
 *   each one another process is playing (ifCampaignFree), so any number of processes share the
 *   minute's ticks;
 * - never throws but for the store being out of reach (StoreUnavailableError: the run ends there,
 *   every tick stays due and is played by the catch-up policy once it is back); any other failure
 *   is logged with the campaign id and the tick stays due.
 * The map after each tick is in the outbox with the chronicle: delivery draws it.
 * Many due campaigns are worked through one campaign (one tick) a slice: the event loop runs
 * between two, so interactions are answered and deliveries go on while a busy minute plays.
 */
export async function runDueTicks(app: App, opts: RunDueTicksOptions = {}): Promise<DueTickReport[]> {
  const reports: DueTickReport[] = [];
  let due;
  try {
    due = dueCampaigns(app.db, app.clock.now().toISOString());
  } catch (err) {
    if (isStoreUnavailable(err)) throw err;
    app.logger.error({ err: describe(err) }, 'scheduler: could not list due campaigns');
    return reports;
  }
  const stopped = opts.stopped ?? (() => false);
  // The scan (a thousand rows on a busy minute) and the first tick are two slices, not one.
  if (due.length > 0) await yieldToEventLoop();
  for (const c of due) {
    if (stopped()) break;
    if (opts.ownsGuild && !opts.ownsGuild(c.guildId)) continue;
    const r = await runCampaign(app, c.id, opts.maxTicksPerCampaign ?? DEFAULT_MAX_TICKS, stopped);
    if (r) reports.push(r);
    // One campaign a slice: what waits (an interaction, a delivery ending) runs before the next.
    await yieldToEventLoop();
  }
  return reports;
}
