import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { withInvocation } from '../journal/invocation.js';
import { campaignInChannel } from '../access.js';
import { playTick, type TickOutcome } from './playTick.js';

/** Plays the next half period of the campaign in a channel as the scheduler would (console `!tick`). */
export function tickChannel(app: App, where: Pick<Actor, 'guildId' | 'channelId'>): TickOutcome {
  return withInvocation({ kind: 'tick', guildId: where.guildId, channelId: where.channelId }, () => playTick(app, { campaignId: campaignInChannel(app, where).id }));
}
