import { formatGameTime } from '../../engine/clock/gameTime.js';
import type { CampaignState } from '../../engine/state/campaign.js';
import type { Database } from '../../db/client.js';
import { getCampaignMeta, listCampaignIds, loadState, setSchedule, type CampaignMeta } from '../../db/campaignRepo.js';
import { eventsFor } from '../../db/eventRepo.js';
import type { App } from '../app.js';
import { discordTime } from '../format.js';
import { nextDue } from '../schedule.js';
import { afterTick, playTick, type TickOutcome } from '../turn/advanceTurn.js';
import { countDue } from './countDue.js';
import { tellReferees } from './tellReferees.js';

/** What the scheduler did for one campaign that was due. */
export interface DueTickReport {
  readonly campaignId: string;
  /** Half periods played in this run. */
  readonly played: number;
  /**
   * Why due ticks were not (all) played: 'battlePending' (waits for a battle result),
   * 'catchUp:one' / 'catchUp:none' (missed ticks passed over by the policy), 'error' (logged;
   * the tick stays due), 'alreadyPlayed' (the half period was in the ticks table), 'limit'
   * (the per-run cap was reached; the rest follow on the next run).
   */
  readonly skipped?: string;
  /** Scheduled ticks passed over by the catch-up policy. */
  readonly missed?: number;
}

export interface RunDueTicksOptions {
  /** At most this many ticks per campaign per run (a long downtime catches up over several runs). */
  readonly maxTicksPerCampaign?: number;
}

const DEFAULT_MAX_TICKS = 100;

type Attempt =
  | { readonly kind: 'played'; readonly outcome: TickOutcome; readonly missed?: number; readonly policy?: 'one' }
  | { readonly kind: 'passedOver'; readonly missed: number }
  | { readonly kind: 'held' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'alreadyPlayed' }
  | { readonly kind: 'notRunning' };

/** The due instant a battle held last (from the log), to tell a held tick from downtime. */
function lastHeldDue(db: Database, campaignId: string): string | undefined {
  const [last] = eventsFor(db, campaignId, ['referee'], { types: ['tickHeld'], limit: 1 });
  const due = (last?.data as { due?: unknown } | null | undefined)?.due;
  return typeof due === 'string' ? due : undefined;
}

function battleNames(state: CampaignState): string {
  return Object.values(state.contacts).filter((c) => c.step === 'battle')
    .map((c) => c.armyIds.map((id) => state.armies[id]?.name ?? id).join(' vs ')).join('; ');
}

/**
 * One attempt at the tick due at `dueIso`, in ONE immediate transaction (a second process waits
 * for the lock, then sees the new due time): compare the stored due time (a doubled trigger finds
 * it moved on and does nothing), apply the catch-up policy, play the tick (playTick runs inside
 * as a savepoint), and queue what the referee must hear. If anything throws, nothing is written.
 */
function attempt(app: App, campaignId: string, dueIso: string): Attempt {
  const now = app.clock.now();
  const nowIso = now.toISOString();
  return app.db.transaction((t) => {
    const db = t as unknown as Database;
    const meta = getCampaignMeta(db, campaignId);
    if (!meta || meta.nextTickAt !== dueIso) return { kind: 'stale' } as const;
    const state = loadState(db, campaignId);
    if (!state || state.status !== 'running') return { kind: 'notRunning' } as const;
    const { cadence, timezone, catchUp } = state.settings;
    const due = new Date(dueIso);
    // Catching up on every missed tick only needs to know that more than one is due; counting a
    // long downtime on a fast cadence (10,000 minutes) at every tick would hold the write lock for
    // half a second each time.
    const { count, next } = countDue(cadence, timezone, due, now, catchUp === 'all' ? 2 : undefined);
    const held = lastHeldDue(db, campaignId) === dueIso;
    // More than one scheduled instant has passed: the bot was down (a battle hold is not downtime).
    const downtime = count > 1 && !held;
    const nextIso = next.toISOString();
    const nextText = `${discordTime(nextIso)} (${discordTime(nextIso, 'R')})`;

    if (downtime && catchUp === 'none') {
      setSchedule(db, campaignId, nextIso, null);
      tellReferees(db, meta, state, 'ticksMissed',
        `The bot was not running: ${count} scheduled tick(s) since ${discordTime(dueIso)} were missed. Catch-up policy \`none\`: none was played; the game stays at ${formatGameTime(state.clock)}. Next tick ${nextText}. (Change it with \`/campaign settings catch-up:\`.)`,
        `catchUp:${campaignId}:${dueIso}`, { due: dueIso, missed: count, policy: 'none', next: nextIso }, nowIso);
      return { kind: 'passedOver', missed: count } as const;
    }

    const outcome = playTick(app, { campaignId }, { scheduledFor: due });
    if (!outcome.played) {
      if (outcome.reason === 'battlePending') {
        tellReferees(db, meta, state, 'tickHeld',
          `The tick due ${discordTime(dueIso)} (${formatGameTime(state.clock)}) waits for a battle result: ${battleNames(state)}. Record it with \`/battle result\`; the tick is played within a minute after. To play on regardless: \`/turn advance force:true\`.`,
          `battleHold:${campaignId}:${dueIso}`, { due: dueIso }, nowIso);
        return { kind: 'held' } as const;
      }
      return { kind: outcome.reason === 'alreadyPlayed' ? 'alreadyPlayed' : 'notRunning' } as const;
    }
    if (held) {
      // The held tick is played now; the next one follows the schedule from now, not in a burst.
      setSchedule(db, campaignId, nextIso, null);
      return { kind: 'played', outcome } as const;
    }
    if (downtime && catchUp === 'one') {
      setSchedule(db, campaignId, nextIso, null);
      const skipped = count - 1;
      tellReferees(db, meta, state, 'ticksMissed',
        `The bot was not running: ${count} scheduled tick(s) since ${discordTime(dueIso)} were missed. Catch-up policy \`one\`: played one (${outcome.from} → ${outcome.to}) and skipped ${skipped}. Next tick ${nextText}. (Change it with \`/campaign settings catch-up:\`.)`,
        `catchUp:${campaignId}:${dueIso}`, { due: dueIso, missed: skipped, policy: 'one', next: nextIso }, nowIso);
      return { kind: 'played', outcome, missed: skipped, policy: 'one' } as const;
    }
    return { kind: 'played', outcome } as const;
  }, { behavior: 'immediate' });
}

/** A running campaign without a due time (e.g. from before the scheduler): schedule it from now. */
function scheduleMissing(app: App, campaignId: string): void {
  app.db.transaction((t) => {
    const db = t as unknown as Database;
    const meta = getCampaignMeta(db, campaignId);
    const state = loadState(db, campaignId);
    if (!meta || meta.nextTickAt !== null || state?.status !== 'running') return;
    setSchedule(db, campaignId, nextDue(state.settings.cadence, state.settings.timezone, app.clock.now()).toISOString(), null);
  }, { behavior: 'immediate' });
}

function isDue(meta: CampaignMeta | undefined, now: Date): meta is CampaignMeta & { nextTickAt: string } {
  return meta?.nextTickAt != null && Date.parse(meta.nextTickAt) <= now.getTime();
}

async function runCampaign(app: App, campaignId: string, maxTicks: number): Promise<DueTickReport | undefined> {
  let played = 0;
  let skipped: string | undefined;
  let missed: number | undefined;
  let wasDue = false;
  try {
    for (let n = 0; ; n++) {
      const meta = getCampaignMeta(app.db, campaignId);
      if (meta && meta.nextTickAt === null) {
        scheduleMissing(app, campaignId);
        break;
      }
      if (!isDue(meta, app.clock.now())) break;
      wasDue = true;
      if (n >= maxTicks) {
        skipped = 'limit';
        break;
      }
      const a = attempt(app, campaignId, meta.nextTickAt);
      if (a.kind === 'played') {
        played++;
        if (a.missed !== undefined) {
          missed = a.missed;
          skipped = 'catchUp:one';
        }
        try {
          await afterTick(app, campaignId, a.outcome);
        } catch (err) {
          app.logger.error({ campaignId, err: describe(err) }, 'scheduler: map snapshot failed (the tick is played)');
        }
        continue;
      }
      if (a.kind === 'stale') continue; // another trigger moved the due time on: look again
      if (a.kind === 'passedOver') {
        missed = a.missed;
        skipped = 'catchUp:none';
      } else if (a.kind === 'held') {
        skipped = 'battlePending';
      } else if (a.kind === 'alreadyPlayed') {
        skipped = 'alreadyPlayed';
        app.logger.warn({ campaignId, due: meta.nextTickAt }, 'scheduler: the due half period is already in the ticks table; left due');
      }
      break;
    }
  } catch (err) {
    app.logger.error({ campaignId, err: describe(err) }, 'scheduler: tick failed; it stays due and is tried again on the next run');
    skipped = 'error';
    wasDue = true;
  }
  if (!wasDue) return undefined;
  return { campaignId, played, ...(skipped !== undefined ? { skipped } : {}), ...(missed !== undefined ? { missed } : {}) };
}

function describe(err: unknown): { message: string; stack?: string } {
  return err instanceof Error ? { message: err.message, ...(err.stack ? { stack: err.stack } : {}) } : { message: String(err) };
}

/**
 * Plays every tick that is due, for every running campaign. The database says when a tick is
 * due (campaigns.next_tick_at); this is what the cron trigger calls every minute and once at
 * start-up. Per campaign:
 * - each due tick is played in its own transaction, and the next due time is computed from the
 *   schedule starting at the instant that was due (not from now);
 * - after downtime (more than one scheduled instant passed) the campaign's catch-up policy
 *   applies: 'all' plays every missed tick in order; 'one' plays one, schedules the next after
 *   now and tells the referee how many were skipped; 'none' plays none, reschedules after now
 *   and tells the referee;
 * - a pending battle holds the tick (it stays due; the referee is told once). Once the battle is
 *   recorded the held tick is played and the next follows the schedule from then on;
 * - idempotent: a doubled trigger or a second process finds the due time already moved on (or
 *   the half period in the ticks table) and plays nothing;
 * - never throws: a failure is logged with the campaign id and the tick stays due.
 * A map snapshot is posted after each tick played.
 */
export async function runDueTicks(app: App, opts: RunDueTicksOptions = {}): Promise<DueTickReport[]> {
  const reports: DueTickReport[] = [];
  let ids: string[];
  try {
    ids = listCampaignIds(app.db, 'running');
  } catch (err) {
    app.logger.error({ err: describe(err) }, 'scheduler: could not list campaigns');
    return reports;
  }
  for (const campaignId of ids) {
    const r = await runCampaign(app, campaignId, opts.maxTicksPerCampaign ?? DEFAULT_MAX_TICKS);
    if (r) reports.push(r);
  }
  return reports;
}
