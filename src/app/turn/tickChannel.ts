import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { campaignInChannel } from '../session.js';
import { playTick, type TickOutcome } from './advanceTurn.js';
import { postSnapshot } from '../map/postSnapshot.js';
import { postSketches } from '../terrain/postSketches.js';

/** Plays the next half period of the campaign in a channel as the scheduler would (console `!tick`). */
export async function tickChannel(app: App, where: Pick<Actor, 'guildId' | 'channelId'>): Promise<TickOutcome> {
  const meta = campaignInChannel(app, { userId: '', userName: '', roleIds: [], ...where });
  const outcome = playTick(app, { campaignId: meta.id }, {});
  if (outcome.played) {
    await postSnapshot(app, meta.id, `Map after ${outcome.from}`);
    await postSketches(app, meta.id);
  }
  return outcome;
}
