import { findCampaignInChannel, loadState } from '../db/campaignRepo.js';
import { listMembers } from '../db/memberRepo.js';
import type { Actor } from './actor.js';
import type { App } from './app.js';
import { isReferee } from './referees.js';

export interface Choice {
  readonly name: string;
  readonly value: string;
}

type Where = Pick<Actor, 'userId' | 'guildId' | 'channelId' | 'roleIds'>;

/** Read-only lookups for autocomplete; a missing campaign simply yields no choices. */
function context(app: App, where: Where) {
  const meta = findCampaignInChannel(app.db, where.guildId, where.channelId);
  if (!meta) return undefined;
  const state = loadState(app.db, meta.id);
  if (!state) return undefined;
  const members = listMembers(app.db, meta.id);
  return { meta, state, members, referee: isReferee(meta, members, state.settings, where) };
}

/** Armies to offer: the caller's own, or every army for the referee (or when `all`). */
export function armyChoices(app: App, where: Where, partial: string, opts: { all?: boolean } = {}): Choice[] {
  const c = context(app, where);
  if (!c) return [];
  const mine = new Set(c.members.filter((m) => m.role === 'commander' && m.userId === where.userId).map((m) => m.armyId));
  const q = partial.trim().toLowerCase();
  return Object.values(c.state.armies)
    .filter((a) => opts.all || c.referee || mine.has(a.id))
    .filter((a) => !q || a.id.includes(q) || a.name.toLowerCase().includes(q) || a.commander.toLowerCase().includes(q))
    .slice(0, 25)
    .map((a) => ({ name: `${a.name} (${a.commander})`.slice(0, 100), value: a.id }));
}
