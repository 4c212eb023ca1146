import { findCampaignInChannel } from '../db/campaignRepo.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import { readCampaign } from './session.js';

export interface Choice {
  readonly name: string;
  readonly value: string;
}

type Where = Pick<Actor, 'userId' | 'guildId' | 'channelId' | 'roleIds'>;

/** Armies to offer: the caller's own, or every army for the referee (or when `all`). Read-only; no campaign yields none. */
export function armyChoices(app: App, where: Where, partial: string, opts: { all?: boolean } = {}): Choice[] {
  if (!findCampaignInChannel(app.db, where.guildId, where.channelId)) return [];
  return readCampaign(app, { actor: { ...where, userName: '' } }, (c) => {
    const mine = new Set(c.members.filter((m) => m.role === 'commander' && m.userId === where.userId).map((m) => m.armyId));
    const q = partial.trim().toLowerCase();
    return Object.values(c.state.armies)
      .filter((a) => opts.all || c.isReferee || mine.has(a.id))
      .filter((a) => !q || a.id.includes(q) || a.name.toLowerCase().includes(q) || a.commander.toLowerCase().includes(q))
      .slice(0, 25)
      .map((a) => ({ name: `${a.name} (${a.commander})`.slice(0, 100), value: a.id }));
  });
}
