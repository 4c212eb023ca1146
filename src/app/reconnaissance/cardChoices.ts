import { byId } from '../../engine/state/index.js';
import { isOpen, terrainHand } from '../../engine/contact/index.js';
import { findCampaignInChannel } from '../../db/campaignRepo.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { findArmy } from '../armies.js';
import type { Choice } from '../autocomplete.js';
import { readCampaign } from '../unitOfWork.js';
import { handCardText } from './terrainText.js';

/**
 * Autocomplete for `/terrain place card:`: the caller's terrain cards in their contact (the one
 * named with `contact:`, else the open one with cards), each with where it lies now. The value is
 * the card's number. Read-only; no campaign or no cards simply yields no choices.
 */
export function terrainCardChoices(
  app: App, where: Pick<Actor, 'userId' | 'guildId' | 'channelId' | 'roleIds'>, input: { army?: string | undefined; contact?: string | undefined; partial: string },
): Choice[] {
  if (!findCampaignInChannel(app.db, where.guildId, where.channelId)) return [];
  return readCampaign(app, { actor: { ...where, userName: '' } }, ({ state, members, isReferee: referee }) => {
    const mine = members.filter((m) => m.role === 'commander' && m.userId === where.userId).map((m) => m.armyId);
    const army = input.army ? findArmy(state, input.army) : mine.length === 1 ? state.armies[mine[0] as string] : undefined;
    if (!army || (!referee && !mine.includes(army.id))) return [];
    const named = input.contact ? byId(state.contacts, input.contact.trim()) : undefined;
    const contact = named ?? Object.values(state.contacts).find((c) => isOpen(c) && c.armyIds.includes(army.id) && (c.data.terrain ?? []).length > 0);
    if (!contact || !contact.armyIds.includes(army.id)) return [];
    const q = input.partial.trim().toLowerCase();
    return terrainHand(contact, army.id, state)
      .map((c) => ({ name: handCardText(c).slice(0, 100), value: String(c.n) }))
      .filter((c) => !q || c.name.toLowerCase().includes(q))
      .slice(0, 25);
  });
}
