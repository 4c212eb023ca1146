import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { readTransaction } from '../../db/client.js';
import { allCampaignIds, closedContactBytes } from '../../db/campaignRepo.js';
import { eventCountBetween } from '../../db/eventRepo.js';
import { lastJournalSeq } from '../../db/journalRepo.js';
import { finalEventsUpTo } from '../../db/tickRepo.js';
import type { App } from '../app.js';
import { readCampaign } from '../unitOfWork.js';
import { yieldToEventLoop } from '../scheduler/yieldToEventLoop.js';
import { eachEventsPart, eachKeptContactsRun, eachJournalPart, exportPlan, forgetCampaign, keptFolder, type PartSizes } from './exportChunks.js';
import { contactRuns } from './exportContacts.js';

/*
 * The closed parts of long campaigns' exports built in the background (issue 25: the referee's
 * first export of a season after a deploy is fast too, not only the next ones). The scheduler starts
 * a run after each of its own (src/cron/startScheduler.ts) without waiting for it; one run at a time.
 * The first run in a process looks at every campaign (a deploy's new code keeps its parts under
 * another version: all are built again), and removes the kept parts of campaigns the database no
 * longer has; later runs look only at the campaigns changed since, and build a campaign's parts only
 * when one has closed since the builder last made them all kept. A part is built as an export builds
 * it (its own short read transaction, compressed on zlib's threads), and after each part built the
 * builder rests as long as the part took (at least PAUSE_MS): it takes at most half of the event
 * loop's time, in slices of one part. Never on a command's path: an export finds the parts kept, or
 * builds the few still missing itself.
 */

/** The least rest after a part built. */
const PAUSE_MS = 20;

/** The longest the builder looks at campaigns (whether one has parts to build) without letting the event loop turn. */
const SLICE_MS = 4;

/** What a run of the builder did. */
export interface KeepReport {
  /** Parts and runs of closed contacts built. */
  readonly built: number;
  /** Campaigns whose kept parts were removed (the database has them no more). */
  readonly removed: number;
}

/**
 * Options of a run: `stopped` ends it between two parts (the campaigns it did not reach stay to do);
 * `ownsGuild` (a shard's scheduler) limits it to the campaigns of the guilds the process plays;
 * `pause` rests after a part built (ms: how long it took); `sliceMs` how long campaigns are looked at between turns of the event loop.
 */
export interface KeepOptions {
  readonly stopped?: () => boolean;
  readonly ownsGuild?: (guildId: string) => boolean;
  readonly pause?: (ms: number) => Promise<unknown>;
  /** How long campaigns are looked at before the event loop is let turn (ms; SLICE_MS). */
  readonly sliceMs?: number;
}

/** Builds the closed export parts the app's campaigns lack (one run at a time: a run asked for while one goes on is that run). */
export function keepExportParts(app: App, opts: KeepOptions = {}): Promise<KeepReport> {
  const folder = keptFolder(app);
  if (folder === undefined) return Promise.resolve({ built: 0, removed: 0 });
  const { keep } = folder;
  const running = keep.running as Promise<KeepReport> | undefined;
  if (running !== undefined) return running;
  const run = keepRun(app, folder.dir, folder.sizes, opts).finally(() => {
    keep.running = undefined;
  });
  keep.running = run;
  return run;
}

async function keepRun(app: App, dir: string, sizes: Required<PartSizes>, opts: KeepOptions): Promise<KeepReport> {
  const folder = keptFolder(app);
  if (folder === undefined) return { built: 0, removed: 0 };
  const { keep } = folder;
  let removed = 0;
  if (!keep.swept) {
    try {
      const all = readTransaction(app.db, () => allCampaignIds(app.db));
      removed = removeGone(app, dir, new Set(all.map((c) => c.id)));
      for (const c of all) if (opts.ownsGuild?.(c.guildId) ?? true) keep.dirty.add(c.id);
      keep.swept = true;
    } catch (err) {
      // The store away (or closed): the next run looks again.
      app.logger.debug({ err: err instanceof Error ? err.message : String(err) }, 'export parts: campaigns not listed');
      return { built: 0, removed: 0 };
    }
  }
  const pause = opts.pause ?? ((ms: number) => sleep(Math.max(PAUSE_MS, ms)));
  const slice = opts.sliceMs ?? SLICE_MS;
  let built = 0;
  let since = performance.now();
  for (const id of [...keep.dirty]) {
    // Looking at a campaign is a short read transaction; thousands of them (the first run after a
    // start, or every campaign a busy minute ticked) are looked at in slices, between turns of the
    // event loop.
    if (performance.now() - since >= slice) {
      await yieldToEventLoop();
      since = performance.now();
    }
    if (opts.stopped?.()) break;
    keep.dirty.delete(id);
    try {
      if (!partsClosedSince(app, id, sizes, keep.done.get(id))) continue;
      built += await buildCampaignParts(app, id, pause);
    } catch (err) {
      // A campaign deleted meanwhile, or the store away: its next export builds what it lacks.
      app.logger.debug({ campaignId: id, err: err instanceof Error ? err.message : String(err) }, 'export parts: not built in the background');
    }
  }
  return { built, removed };
}

/** Removes the kept parts of every campaign not in `ids` (deleted while the bot was down, or another database in the same place). */
function removeGone(app: App, dir: string, ids: ReadonlySet<string>): number {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return 0;
  }
  const gone = names.filter((name) => !ids.has(name));
  for (const id of gone) forgetCampaign(app, id);
  return gone.length;
}

/** More rows than any campaign has (a PostgreSQL integer's largest value). */
const ALL = 2_147_483_647;

/**
 * Whether a part of the campaign's journal or log closed since the builder last made its parts all
 * kept (`done`; never: whether the campaign has a closed part at all, so a short one's state is
 * never loaded): counts on the index, the events only after the last closed one.
 */
function partsClosedSince(app: App, campaignId: string, sizes: Required<PartSizes>, done: { journalParts: number; tailAfter: number } = { journalParts: 0, tailAfter: 0 }): boolean {
  return readTransaction(app.db, () => {
    const entries = lastJournalSeq(app.db, campaignId) + 1;
    if (entries > 0 && Math.floor((entries - 1) / sizes.journal) > done.journalParts) return true;
    const final = finalEventsUpTo(app.db, campaignId);
    const after = eventCountBetween(app.db, campaignId, done.tailAfter, ALL);
    const finalAfter = final === undefined ? after : eventCountBetween(app.db, campaignId, done.tailAfter, final);
    return Math.min(finalAfter, after - 1) >= sizes.events;
  });
}

/**
 * Builds the closed parts (and runs of closed contacts) one campaign's export lacks, resting after
 * each one built; answers how many were built, and notes the campaign's parts as all kept.
 */
async function buildCampaignParts(app: App, campaignId: string, pause: (ms: number) => Promise<unknown>): Promise<number> {
  // The plan without its tails: which parts are closed, and which of them are kept and good.
  const plan = readCampaign(app, { campaignId }, (tx) => exportPlan(app, tx, { meta: { id: campaignId } }, false));
  let built = 0;
  let since = performance.now();
  const rest = async (_: unknown, kept: boolean): Promise<void> => {
    if (kept) return;
    built++;
    await pause(performance.now() - since);
    since = performance.now();
  };
  await eachJournalPart(app, plan, new Set(), rest);
  await eachEventsPart(app, plan, new Set(), rest);
  const contacts = readTransaction(app.db, () => closedContactBytes(app.db, campaignId));
  await eachKeptContactsRun(app, campaignId, contactRuns(contacts, plan.sizes.contacts).closed, new Set(), rest);
  keptFolder(app)?.keep.done.set(campaignId, { journalParts: plan.journalParts, tailAfter: plan.tailAfter });
  return built;
}
