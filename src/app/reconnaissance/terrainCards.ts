import { echo } from '../../engine/events/index.js';
import { describeStep, terrainHand, type ContactRecord, type HandCard, type TerrainCard } from '../../engine/contact/index.js';
import type { Army } from '../../engine/forces/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import { contactOfArmy } from '../contact/whichContact.js';
import { UserError } from '../errors.js';
import { CARD_LABEL, handText } from './terrainText.js';

const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The contact whose terrain an army looks at: the one named, or its only open contact. Refuses before the cards are dealt. */
export function terrainContact(state: CampaignState, army: Army, contactText: string | undefined): ContactRecord {
  const c = contactOfArmy(state, army, contactText);
  if ((c.data.terrain ?? []).length === 0) {
    throw new UserError('terrain.notDealt', `Contact ${c.id} is ${describeStep(c.step)}: the terrain cards are dealt at the contact phase, when both sides proceed. Try again once you have your estimate.`, { contactId: c.id, step: c.step });
  }
  return c;
}

/**
 * Which of the commander's cards a `card:` text names: its number (1, 2, ...) or its name (hill,
 * rough ground, blank) when the commander holds exactly one of that name. Refusals list the hand.
 */
export function pickCard(state: CampaignState, record: ContactRecord, army: Army, text: string): HandCard {
  const hand = terrainHand(record, army.id, state);
  const q = squash(text);
  const yours = `You hold ${handText(hand)}. Name a card by its number or its name.`;
  if (/^\d+$/.test(q)) {
    const hit = hand.find((c) => c.n === Number(q));
    if (!hit) throw new UserError('terrain.noSuchCard', `${army.name} has no card ${q} in contact ${record.id}. ${yours}`, { contactId: record.id, hand });
    return hit;
  }
  const named = (card: TerrainCard): boolean => squash(card) === q || squash(CARD_LABEL[card]) === q || (card === 'blank' && ['open', 'openground', 'clear'].includes(q));
  const hits = hand.filter((c) => named(c.card));
  if (hits.length === 1) return hits[0] as HandCard;
  if (hits.length > 1) {
    throw new UserError('terrain.whichCard', `${army.name} holds ${hits.length} ${CARD_LABEL[(hits[0] as HandCard).card]} cards (${hits.map((c) => c.n).join(' and ')}): say which by number, e.g. \`card:${(hits[0] as HandCard).n}\`. ${yours}`, { contactId: record.id, hand });
  }
  const others = (record.data.terrain ?? []).filter((c) => c.armyId !== army.id && named(c.card));
  if (others.length > 0) {
    const owners = [...new Set(others.map((c) => state.armies[c.armyId]?.name ?? c.armyId))].join(' and ');
    throw new UserError('terrain.notYourCard', `That ${CARD_LABEL[(others[0] as { card: TerrainCard }).card]} card is ${owners}'s, not ${army.name}'s: each commander places only their own cards. ${yours}`, { contactId: record.id, hand });
  }
  throw new UserError('terrain.noSuchCard', `${army.name} holds no ${echo(text)} card in contact ${record.id}. ${yours}`, { contactId: record.id, hand });
}
