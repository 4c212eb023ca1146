import {
  battlefieldSketchOf, describeStep, GRID_COLUMNS, GRID_ROWS, terrainHand,
  type BattlefieldCell, type HandCard, type TerrainCard,
} from '../../engine/contact/index.js';
import type { Army } from '../../engine/forces/index.js';
import type { CampaignState } from '../../engine/state/index.js';
import type { ContactRecord } from '../../engine/contact/index.js';
import type { BattlefieldSketch } from '../../engine/views/index.js';
import { renderBattlefield } from '../../render/index.js';
import type { App } from '../app.js';
import { contactOfArmy } from '../contact/contactCommon.js';
import { UserError } from '../errors.js';
import type { MessageFile } from '../messages.js';

/** How a terrain card reads in a message. */
export const CARD_LABEL: Readonly<Record<TerrainCard, string>> = {
  hill: 'hill',
  woods: 'woods',
  marsh: 'marsh',
  river: 'river',
  stream: 'stream',
  pond: 'pond',
  gully: 'gully',
  roughGround: 'rough ground',
  blank: 'blank (open ground)',
};

const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

export const cellText = (cell: BattlefieldCell | undefined): string => (cell ? `${cell.row} ${cell.column}` : 'not on the table');

export function handCardText(c: HandCard): string {
  return `${c.n}. ${CARD_LABEL[c.card]}: ${cellText(c.cell)}${c.cell ? `, turned ${c.orientation ?? 0}°` : ''}`;
}

export function handText(hand: readonly HandCard[]): string {
  return hand.length > 0 ? hand.map(handCardText).join('; ') : 'no terrain cards';
}

export const VALID_CELLS = `rows ${GRID_ROWS.join(', ')} (near is your own baseline) and columns ${GRID_COLUMNS.join(', ')}`;

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
  throw new UserError('terrain.noSuchCard', `${army.name} holds no "${text}" card in contact ${record.id}. ${yours}`, { contactId: record.id, hand });
}

/** The sketch an army sees and its hand, as plain data for a reply. */
export function sketchData(state: CampaignState, record: ContactRecord, armyId: string): { sketch: BattlefieldSketch; hand: HandCard[] } {
  return { sketch: battlefieldSketchOf(state, record, armyId), hand: terrainHand(record, armyId, state) };
}

export const sketchFileName = (contactId: string, armyId: string): string => `battlefield-${contactId}-${armyId}.png`;

/** Draws a sketch as a PNG file; a failed drawing is logged and yields nothing (the text still goes). */
export async function sketchFile(app: App, sketch: BattlefieldSketch, name: string): Promise<MessageFile | undefined> {
  try {
    return { name, data: new Uint8Array(await renderBattlefield(sketch)) };
  } catch (err) {
    app.logger.warn({ err: (err as Error).message, file: name }, 'battlefield sketch failed');
    return undefined;
  }
}
