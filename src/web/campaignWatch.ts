import type { App } from '../app/app.js';
import { onCampaignCommit } from '../app/campaignCommits.js';
import { campaignsPulse } from '../app/web/webAccess.js';

/**
 * How the watch's rounds are run: `check` again and again until the returned function is called.
 * By default every `everyMs`; a test may run the rounds itself (one after each command), so that
 * which changes an open page is told of does not depend on timing.
 */
export type PollSchedule = (check: () => void) => () => void;

/** Told that a campaign moved (committed here, or its pulse moved in the store), with its stored revision (undefined: gone). */
export type Moved = (campaignId: string, revision: number | undefined) => void;

/**
 * The web transport's ONE watch of the campaigns it serves (issue 28): the campaigns of open pages
 * (live updates, eventStream.ts) and of recent readers (first views drawn ahead, drawAhead.ts).
 * - A write this process commits (src/app/campaignCommits.ts, from `inCampaign`) is told to the
 *   listeners at once: on the next turn of the event loop, after the command that committed.
 * - What other processes commit (another shard, another machine) and what moves without a save
 *   (a delivery refusing a DM, a DM read with /intel: the referee's inbox) is found by a round
 *   every `everyMs` (2 s): ONE statement reads the pulse of every watched campaign together
 *   (`campaignsPulse`: revision, last event, inbox), however many pages are open, none when
 *   nothing is watched; the campaigns whose pulse moved are told.
 * With a test's `schedule`, a commit is told at the next round the test runs (deterministic).
 */
export class CampaignWatch {
  /** The last pulse seen of each watched campaign (undefined: gone). */
  private readonly pulses = new Map<string, string | undefined>();
  /** The last stored revision known of each campaign told (undefined: gone). */
  private readonly revisions = new Map<string, number | undefined>();
  /** Campaigns moved, their listeners not told yet. */
  private readonly due = new Set<string>();
  private readonly watched = new Set<() => Iterable<string>>();
  private readonly moved = new Set<Moved>();
  private readonly rounds = new Set<() => void>();
  private readonly stop: () => void;
  private readonly stopListening: () => void;
  private readonly deferred: boolean;
  private flushSoon: NodeJS.Immediate | undefined;

  constructor(private readonly app: App, opts: { readonly everyMs: number; readonly schedule?: PollSchedule | undefined }) {
    this.deferred = opts.schedule !== undefined;
    this.stopListening = onCampaignCommit(app, (campaignId, revision) => this.committed(campaignId, revision));
    const schedule: PollSchedule = opts.schedule ?? ((check) => {
      const timer = setInterval(check, opts.everyMs);
      timer.unref();
      return () => clearInterval(timer);
    });
    this.stop = schedule(() => this.round());
  }

  /** Watches the campaigns `campaigns` names at each round (asked anew each time); the returned function stops. */
  watch(campaigns: () => Iterable<string>): () => void {
    this.watched.add(campaigns);
    return () => this.watched.delete(campaigns);
  }

  /** Told of each campaign that moved; the returned function stops. A listener must not throw (it is logged). */
  onMoved(listener: Moved): () => void {
    this.moved.add(listener);
    return () => this.moved.delete(listener);
  }

  /** Told after each round (a heartbeat, a test waiting for one); the returned function stops. */
  onRound(listener: () => void): () => void {
    this.rounds.add(listener);
    return () => this.rounds.delete(listener);
  }

  close(): void {
    this.stopListening();
    this.stop();
    if (this.flushSoon) clearImmediate(this.flushSoon);
  }

  private committed(campaignId: string, revision: number | undefined): void {
    this.revisions.set(campaignId, revision);
    this.due.add(campaignId);
    if (!this.deferred) this.flushSoon ??= setImmediate(() => this.flush());
  }

  /** One round: the pulse of every watched campaign in one statement; those that moved are told. */
  round(): void {
    const ids = new Set<string>();
    for (const campaigns of this.watched) for (const id of campaigns()) ids.add(id);
    try {
      const now = campaignsPulse(this.app, [...ids]);
      for (const id of this.pulses.keys()) if (!ids.has(id)) this.pulses.delete(id);
      for (const id of ids) {
        const seen = now.get(id);
        if (this.pulses.has(id) && this.pulses.get(id) === seen?.pulse) continue;
        this.pulses.set(id, seen?.pulse);
        this.revisions.set(id, seen?.revision);
        this.due.add(id);
      }
    } catch (err) {
      // The store unavailable, mostly: the next round tries again.
      this.app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'web page: checking the watched campaigns for changes failed');
    }
    this.flush();
    for (const listener of [...this.rounds]) this.tell(() => listener());
  }

  private flush(): void {
    this.flushSoon = undefined;
    for (const id of [...this.due]) {
      this.due.delete(id);
      const revision = this.revisions.get(id);
      for (const listener of [...this.moved]) this.tell(() => listener(id, revision));
    }
    if (this.revisions.size > 4096) this.revisions.clear();
  }

  private tell(f: () => void): void {
    try {
      f();
    } catch (err) {
      this.app.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'web page: a listener of campaign changes failed');
    }
  }
}
