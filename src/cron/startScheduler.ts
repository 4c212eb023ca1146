import cron from 'node-cron';
import type { App } from '../app/app.js';
import { pruneInteractions } from '../app/interactionClaim.js';
import { isStoreUnavailable } from '../app/handleError.js';
import { pruneDelivered } from '../app/outbox.js';
import { keepExportParts } from '../app/campaign/exportKeep.js';
import { packCold } from '../app/packCold.js';
import { prewarmDue, resumeEndedPauses, runDueTicks, sendReminders, type DueTickReport, type ReminderReport } from '../app/scheduler/index.js';

/** What one scheduler run did. */
export interface SchedulerRun {
  readonly ticks: readonly DueTickReport[];
  readonly reminders: readonly ReminderReport[];
}

/** The trigger: something that calls `fn` every minute until stopped (node-cron by default; tests inject one). */
export type Trigger = (fn: () => void) => { stop(): void };

export interface SchedulerOptions {
  /** Called when a run fails outside the use-cases' own error handling (they log and go on). */
  readonly onError?: (err: unknown) => void;
  /** Called after each run (tests, metrics). */
  readonly onRun?: (run: SchedulerRun) => void;
  /** Replaces the node-cron trigger (tests). */
  readonly trigger?: Trigger;
  /** Plays only campaigns of the guilds this process owns (a shard). */
  readonly ownsGuild?: (guildId: string) => boolean;
  /** Days delivered messages are kept before they are deleted (default 14). */
  readonly retentionDays?: number;
  /** Checked before each run: false skips it (the database file is no longer the one opened). */
  readonly canRun?: () => boolean;
}

export interface Scheduler {
  stop(): void;
  /** Runs now unless a run is going on (then resolves to undefined). For tests and admin tools. */
  runNow(): Promise<SchedulerRun | undefined>;
}

/**
 * A node-cron trigger for `expression` (every minute by default; 6 fields give seconds, for
 * end-to-end tests). Created when the scheduler starts, never at import time. Throws on an
 * expression node-cron does not accept.
 */
export function cronTrigger(expression = '* * * * *'): Trigger {
  if (!cron.validate(expression)) throw new Error(`"${expression}" is not a cron expression node-cron accepts`);
  return (fn) => {
    const task = cron.schedule(expression, fn, { name: 'valormr-scheduler', noOverlap: true });
    return { stop: () => void task.stop() };
  };
}

const STORE_AWAY = 'scheduler: the campaign store is unavailable; due ticks wait and are played (by the catch-up policy) once it is back; every run tries again';

const everyMinute: Trigger = (fn) => cronTrigger()(fn);

/**
 * Starts the campaign clock. The database says when each campaign's next tick is due; cron only
 * triggers a check every minute: end referee's pauses whose time has come (resumeEndedPauses), play every due tick (runDueTicks), then send reminders
 * (sendReminders), then pre-warm the render thread for ticks due in the next two minutes (prewarmDue), then delete delivered messages past their retention (pruneDelivered), pack the rows gone cold (packCold) and start building the closed export parts long campaigns lack (keepExportParts, in the background). It runs once at start (catching up after downtime), never overlaps itself (a
 * trigger while a run is going on is skipped), and never lets an exception escape. While the
 * campaign store is out of reach each run stops at its first statement: one warning when it goes,
 * one line when it is back.
 */
export function startScheduler(app: App, opts: SchedulerOptions = {}): Scheduler {
  let running: Promise<SchedulerRun | undefined> | undefined;
  let stopped = false;
  // The campaign store out of reach: said once when it goes and once when it is back, not every run.
  let storeAway = false;

  const runOnce = async (): Promise<SchedulerRun | undefined> => {
    try {
      if (opts.canRun && !opts.canRun()) return undefined;
      const scope = { ...(opts.ownsGuild ? { ownsGuild: opts.ownsGuild } : {}), stopped: () => stopped };
      // A pause whose end has come resumes first, so its campaign's ticks and reminders follow.
      resumeEndedPauses(app, opts.ownsGuild ? { ownsGuild: opts.ownsGuild } : {});
      const ticks = await runDueTicks(app, scope);
      if (stopped) return { ticks, reminders: [] };
      const reminders = await sendReminders(app, opts.ownsGuild ? { ownsGuild: opts.ownsGuild } : {});
      // The render thread warmed (and held) for the ticks due in the next two minutes.
      await prewarmDue(app, opts.ownsGuild ? { ownsGuild: opts.ownsGuild } : {});
      try {
        pruneDelivered(app, opts.retentionDays);
        pruneInteractions(app);
        await packCold(app);
        // The closed parts of long campaigns' exports built in the background, a part at a time, not waited for (exportKeep.ts).
        void keepExportParts(app, { stopped: () => stopped, ...(opts.ownsGuild ? { ownsGuild: opts.ownsGuild } : {}) });
      } catch (err) {
        if (isStoreUnavailable(err)) throw err;
        app.logger.error({ err: err instanceof Error ? { message: err.message } : String(err) }, 'scheduler: pruning delivered messages or packing cold rows failed');
      }
      if (storeAway) app.logger.info({}, 'scheduler: the campaign store is back; due ticks are played');
      storeAway = false;
      const run = { ticks, reminders };
      opts.onRun?.(run);
      return run;
    } catch (err) {
      if (isStoreUnavailable(err)) {
        if (!storeAway) app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, STORE_AWAY);
        storeAway = true;
      } else app.logger.error({ err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'scheduler run failed');
      try {
        opts.onError?.(err);
      } catch {
        // An error handler that throws must not take the scheduler down.
      }
      return undefined;
    }
  };

  const runNow = (): Promise<SchedulerRun | undefined> => {
    if (stopped || running) return Promise.resolve(undefined);
    running = runOnce().finally(() => {
      running = undefined;
    });
    return running;
  };

  const trigger = (opts.trigger ?? everyMinute)(() => {
    if (running) app.logger.debug({}, 'scheduler: previous run still going; this trigger is skipped');
    void runNow();
  });
  void runNow();

  return {
    /** No new run starts, and a run in progress ends before its next tick. */
    stop() {
      stopped = true;
      trigger.stop();
    },
    runNow,
  };
}
