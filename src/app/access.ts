import { findCampaignInChannel, findEndedCampaignInChannel, type CampaignMeta } from '../db/campaignRepo.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import type { CampaignTx } from './campaignTx.js';
import { UserError } from './errors.js';

function noCampaign(): never {
  throw new UserError('campaign.none', 'There is no campaign in this channel. A referee can start one with `/campaign create scenario:valormr name:"..."`.');
}

/** The campaign of the actor's channel, or a refusal saying how to start one. */
export function campaignInChannel(app: App, actor: Pick<Actor, 'guildId' | 'channelId'>): CampaignMeta {
  return findCampaignInChannel(app.db, actor.guildId, actor.channelId) ?? noCampaign();
}

/**
 * The campaign of the actor's channel or, when none runs there, the one that ended there last: for
 * what may still be read of a campaign after `/campaign end` (its export, book and time-lapse),
 * while the channel is free for a new one.
 */
export function campaignOrEndedInChannel(app: App, actor: Pick<Actor, 'guildId' | 'channelId'>): CampaignMeta {
  return findCampaignInChannel(app.db, actor.guildId, actor.channelId) ?? findEndedCampaignInChannel(app.db, actor.guildId, actor.channelId) ?? noCampaign();
}

/** Refuses unless the actor referees this campaign (`what`: what only the referee can do). */
export function requireReferee(tx: CampaignTx, what: string): void {
  if (!tx.isReferee) throw new UserError('campaign.refereeOnly', `Only the referee can ${what}.`);
}
