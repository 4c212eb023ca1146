import { campaignsDueBetween } from '../../db/campaignRepo.js';
import { publicMapView } from '../../engine/views/index.js';
import { holdRenderThreads, renderMap } from '../../render/index.js';
import type { App } from '../app.js';
import { readCampaign } from '../unitOfWork.js';
import { campaignDice } from '../campaignDice.js';
import type { DiceSource } from '../dice/diceSource.js';
import { tickChange } from '../turn/playTick.js';
import { staticsOf } from '../statics.js';
import { isStoreUnavailable } from '../handleError.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';

/** Ticks due within this window are pre-warmed for (the minute check runs twice before each). */
const WINDOW_MS = 2 * 60_000;
/** Distinct maps warmed per run at most (the soonest due first): the render threads keep only a few static layers. */
const MAX_MAPS = 4;
/** Render threads are held this long after the last due tick warmed for: its map is drawn by then. */
const AFTER_DUE_MS = 60_000;

/**
 * Draws, on a render thread, the public map of a campaign as its tick will post it, and throws the
 * picture away: the thread is started (its code loaded), its fonts registered, the map's static
 * layer read from the file beside the database (or drawn and written) and the encoder warmed. The
 * tick that follows then draws its map as fast as a warm one.
 */
export async function warmMapPicture(app: App, campaignId: string): Promise<void> {
  const { map, mapKey } = staticsOf(app, campaignId);
  const view = readCampaign(app, { campaignId }, (tx) => publicMapView(tx.state));
  // Never answered from the pictures drawn lately: the point is to reach a render thread.
  await renderMap(map, view, { title: { campaign: '', time: '', weather: '' }, hexIds: 'subset', cacheKey: mapKey }, { reuse: false });
}

/** Seeds for a tick computed only to be thrown away: fixed, so no seed of the bot's dice source is drawn. */
const THROWAWAY_SEEDS: Pick<DiceSource, 'newSeed' | 'newMaster'> = { newSeed: () => '0'.repeat(32), newMaster: () => '0'.repeat(32) };

/**
 * Computes the tick a campaign will play, on this thread, and throws it away: the tick's code (the
 * engine's steps, the chronicle, the deliveries, the map's view) runs once before the due minute,
 * so the first tick of a busy minute is not the first time it runs (measured: the first tick of a
 * process took 31 ms of CPU against 4-10 for the ones after, in one turn of the event loop). Read
 * only: one read transaction, the campaign's own dice copied from its state with no script, fixed
 * seeds; nothing is written, no die of the bot's dice source is used, nothing is sent.
 */
export function warmTickCode(app: App, campaignId: string): void {
  readCampaign(app, { campaignId }, (tx) => {
    tickChange({ ...tx, dice: campaignDice(tx.state, []), seeds: THROWAWAY_SEEDS });
  });
}

/** warmTickCode, its failure logged and passed over: it only costs the first tick its warm start. */
function warmTick(app: App, campaignId: string): void {
  try {
    warmTickCode(app, campaignId);
  } catch (err) {
    if (isStoreUnavailable(err)) throw err;
    app.logger.debug({ campaignId, err: err instanceof Error ? { message: err.message } : String(err) }, 'scheduler: computing a tick ahead to warm its code failed; the first tick runs cold');
  }
}

/**
 * Pre-warms for the ticks due in the next two minutes (called by the minute check after the due
 * ticks and reminders): the tick's code on this thread (warmTickCode, the soonest due campaign's
 * tick computed and thrown away), and the render threads: one warm picture per distinct map (at most four, the
 * soonest due first), and the threads held until a minute after the last of those ticks is due,
 * so the idle stop does not take them away in between. Then the tick finds the render thread as
 * warm as the bench's back-to-back ticks. Throws only when the campaign store is out of reach (the
 * scheduler's run ends); any other failure is logged and only costs the tick its warm start. Returns the campaigns warmed for.
 */
export async function prewarmDue(app: App, opts: { ownsGuild?: (guildId: string) => boolean } = {}): Promise<string[]> {
  const now = app.clock.now();
  const warmed: string[] = [];
  try {
    const due = campaignsDueBetween(app.db, now.toISOString(), new Date(now.getTime() + WINDOW_MS).toISOString())
      .filter((c) => !opts.ownsGuild || opts.ownsGuild(c.guildId));
    if (due.length === 0) return warmed;
    const last = Math.max(...due.map((c) => Date.parse(c.nextTickAt ?? '')).filter(Number.isFinite));
    holdRenderThreads(last - now.getTime() + AFTER_DUE_MS);
    const maps = new Set<string>();
    let tickWarmed = false;
    for (const c of due) {
      // A campaign's statics are read from its stored scenario the first time (a few ms each): on a
      // minute when a thousand campaigns are due, one at a time between turns of the event loop,
      // not a thousand in one block (measured: 3.7 s without a turn at load 30).
      await yieldToEventLoop();
      const { mapKey } = staticsOf(app, c.id);
      if (!tickWarmed) {
        // The tick's code in a slice of its own: its first run is some tens of ms (the statics' first read is too).
        tickWarmed = true;
        await yieldToEventLoop();
        warmTick(app, c.id);
        await yieldToEventLoop();
      }
      if (maps.has(mapKey)) continue;
      if (maps.size >= MAX_MAPS) break;
      maps.add(mapKey);
      await warmMapPicture(app, c.id);
      warmed.push(c.id);
    }
  } catch (err) {
    // The store out of reach ends the scheduler's run (it says so once).
    if (isStoreUnavailable(err)) throw err;
    app.logger.warn({ err: err instanceof Error ? { message: err.message } : String(err) }, 'scheduler: pre-warming the render thread failed; the next tick draws its map cold');
  }
  return warmed;
}
