import { resumableCampaigns } from '../../db/campaignRepo.js';
import type { App } from '../app.js';
import { resumeWhenPauseEnds } from '../campaign/lifecycle.js';
import { UserError } from '../errors.js';
import { isStoreUnavailable } from '../handleError.js';

/**
 * Ends every referee's pause whose `until:` has come (of this process's guilds): the campaign
 * runs again and the channel is told (one indexed query; paused campaigns without an end cost
 * nothing). A pause that ended meanwhile (resumed by hand, or by another process on the same
 * PostgreSQL) is passed over. Returns the campaigns resumed. Throws only when the campaign store is
 * out of reach (the scheduler's run ends); any other failure is logged with the campaign id and
 * tried again on the next run.
 */
export function resumeEndedPauses(app: App, opts: { ownsGuild?: (guildId: string) => boolean } = {}): string[] {
  const resumed: string[] = [];
  try {
    for (const { id, guildId } of resumableCampaigns(app.db, app.clock.now().toISOString())) {
      if (opts.ownsGuild && !opts.ownsGuild(guildId)) continue;
      try {
        resumeWhenPauseEnds(app, id);
        resumed.push(id);
      } catch (err) {
        // Resumed meanwhile: by the referee, or by another process on the same PostgreSQL.
        if (err instanceof UserError && (err.code === 'campaign.badStatus' || err.code === 'campaign.pauseNotOver')) continue;
        if (isStoreUnavailable(err)) throw err;
        app.logger.error({ campaignId: id, err: err instanceof Error ? { message: err.message } : String(err) }, 'scheduler: ending a pause failed; tried again on the next run');
      }
    }
  } catch (err) {
    // The store out of reach ends the scheduler's run (it says so once).
    if (isStoreUnavailable(err)) throw err;
    app.logger.error({ err: err instanceof Error ? { message: err.message } : String(err) }, 'scheduler: could not list pauses that have ended');
  }
  return resumed;
}
