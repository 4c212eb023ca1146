import { echo } from '../events/index.js';
import { isHostile } from '../forces/index.js';
import { fail, ok, type Result } from '../result.js';
import { type BattlefieldCell, type CampaignState, type ContactRecord, type DealtCard, GRID_COLUMNS, GRID_ROWS } from '../state/index.js';
import { withData } from './contactRecord.js';
import { getContact, putContact } from './records.js';

/**
 * Terrain cards as their commander sees them. Cells are stored from the side of the first army
 * dealt a card (the frame battlefieldSketchOf draws from); every other army sees the table turned
 * round, so its "near left" is the stored "far right" and its orientations are turned by 180
 * degrees. These helpers translate between the two, so that a commander places cards in the same
 * frame as the sketch they are shown. @see RULINGS 5 Terrain reconnaissance
 */

export const ORIENTATIONS = [0, 90, 180, 270] as const;

/** One card of a commander's hand: its number among their cards (from 1), and where it lies as they see it. */
export interface HandCard {
  readonly n: number;
  readonly card: DealtCard['card'];
  readonly cell?: BattlefieldCell;
  readonly orientation?: number;
}

const FLIP_ROW = { near: 'far', middle: 'middle', far: 'near' } as const;
const FLIP_COLUMN = { left: 'right', centre: 'centre', right: 'left' } as const;

/**
 * True when the army sees the stored grid turned round: it is not the frame's owner and (when the
 * state is given) not the owner's ally; allies share a side of the table.
 */
function seesTableTurned(record: ContactRecord, armyId: string, state?: CampaignState): boolean {
  const owner = (record.data.terrain ?? [])[0]?.armyId;
  if (owner === undefined || owner === armyId) return false;
  const a = state?.armies[owner];
  const b = state?.armies[armyId];
  return !(state && a && b && !isHostile(state.sides, a.side, b.side));
}

function turn(cell: BattlefieldCell, orientation: number, turned: boolean): { cell: BattlefieldCell; orientation: number } {
  if (!turned) return { cell, orientation: ((orientation % 360) + 360) % 360 };
  return { cell: { row: FLIP_ROW[cell.row], column: FLIP_COLUMN[cell.column] }, orientation: (((orientation + 180) % 360) + 360) % 360 };
}

/** Every dealt card, with its owner and its number among the owner's cards, seen from `viewerId`'s side. */
export function terrainSeenBy(record: ContactRecord, viewerId: string, state?: CampaignState): (HandCard & { readonly armyId: string })[] {
  const turned = seesTableTurned(record, viewerId, state);
  const count = new Map<string, number>();
  return (record.data.terrain ?? []).map((c) => {
    const n = (count.get(c.armyId) ?? 0) + 1;
    count.set(c.armyId, n);
    if (!c.cell) return { armyId: c.armyId, n, card: c.card };
    const seen = turn(c.cell, c.orientation ?? 0, turned);
    return { armyId: c.armyId, n, card: c.card, cell: seen.cell, orientation: seen.orientation };
  });
}

/** The army's own terrain cards in deal order, with cells and orientations seen from its side. */
export function terrainHand(record: ContactRecord, armyId: string, state?: CampaignState): HandCard[] {
  return terrainSeenBy(record, armyId, state).filter((c) => c.armyId === armyId).map(({ armyId: _owner, ...card }) => card);
}

/**
 * A commander places (or moves) their `n`-th card at a cell and orientation given from their own
 * side of the table. Checks what placeTerrainCard does not: the army takes part in the contact,
 * and the cell and orientation are valid, before translating into the stored frame.
 */
export function placeTerrainCardFromSide(
  state: CampaignState, contactId: string, armyId: string, n: number, cell: BattlefieldCell, orientation: number,
): Result<{ state: CampaignState }> {
  const record = state.contacts[contactId];
  if (!record) return fail('contact.notFound', `There is no contact ${echo(contactId)}.`, { contactId });
  if (!record.armyIds.includes(armyId)) return fail('contact.notInvolved', `That army is not part of contact ${contactId}.`, { contactId, armyId });
  if (!GRID_ROWS.includes(cell.row) || !GRID_COLUMNS.includes(cell.column)) {
    return fail('contact.badCell', `Place a card on a row (${GRID_ROWS.join(', ')}) and a column (${GRID_COLUMNS.join(', ')}).`, { contactId });
  }
  if (!(ORIENTATIONS as readonly number[]).includes(orientation)) return fail('contact.badOrientation', `Turn a card by ${ORIENTATIONS.join(', ')} degrees.`, { contactId });
  const stored = turn(cell, orientation, seesTableTurned(record, armyId, state));
  return placeTerrainCard(state, contactId, armyId, n, stored.cell, stored.orientation);
}

/**
 * A commander places one of their terrain cards (their `n`-th, from 1) on the 3 x 3 battlefield
 * grid, with an orientation of 0, 90, 180 or 270 degrees, in the stored frame; a card may be
 * moved until the battle. @see RULINGS 5 Terrain reconnaissance; 001 Chainmail's Terrain Selection Clarification
 */
export function placeTerrainCard(state: CampaignState, contactId: string, armyId: string, n: number, cell: BattlefieldCell, orientation = 0): Result<{ state: CampaignState }> {
  const got = getContact(state, contactId, 'decision');
  if (!got.ok) return fail('contact.placeNotNow', 'Terrain cards are placed after the contact phase, before engage or evade is settled.', { contactId });
  const cards = got.value.data.terrain ?? [];
  const mine = cards.map((c, i) => ({ c, i })).filter((x) => x.c.armyId === armyId);
  const pick = mine[n - 1];
  if (!pick) return fail('contact.noSuchCard', `You hold ${mine.length} terrain card(s); name one from 1 to ${mine.length}.`);
  if (!GRID_ROWS.includes(cell.row) || !GRID_COLUMNS.includes(cell.column)) return fail('contact.badCell', 'Place a card on near/middle/far and left/centre/right.');
  if (!(ORIENTATIONS as readonly number[]).includes(orientation)) return fail('contact.badOrientation', 'Orientation is 0, 90, 180 or 270 degrees.');
  const terrain = cards.map((c, i) => (i === pick.i ? { ...c, cell, orientation } : c));
  return ok({ state: putContact(state, withData(got.value, { terrain })) });
}
