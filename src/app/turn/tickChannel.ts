import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { campaignInChannel } from '../session.js';
import { afterTick, playTick, type TickOutcome } from './advanceTurn.js';

/** Plays the next half period of the campaign in a channel as the scheduler would (console `!tick`). */
export async function tickChannel(app: App, where: Pick<Actor, 'guildId' | 'channelId'>): Promise<TickOutcome> {
  const meta = campaignInChannel(app, { userId: '', userName: '', roleIds: [], ...where });
  const outcome = playTick(app, { campaignId: meta.id }, {});
  await afterTick(app, meta.id, outcome);
  return outcome;
}
