import { describeStep, GRID_COLUMNS, GRID_ROWS, ORIENTATIONS, placeTerrainCardFromSide, terrainHand, terrainSeenBy, type BattlefieldCell, type HandCard } from '../../engine/contact/index.js';
import { echo, event, REFEREE, toArmy, type EngineEvent } from '../../engine/events/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { requireControl } from '../armies.js';
import { UserError, orRefuse } from '../errors.js';
import { ephemeral, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { routeEvents } from '../deliveries/routeEvents.js';
import { CARD_LABEL, VALID_CELLS, cellText, handText } from './terrainText.js';
import { pickCard, terrainContact } from './terrainCards.js';
import { sketchData, sketchFile, sketchFileName } from './battlefieldSketch.js';

export interface PlaceTerrainInput {
  readonly card?: string | undefined;
  readonly row?: string | undefined;
  readonly column?: string | undefined;
  /** Degrees clockwise; missing keeps the card's present orientation. */
  readonly turn?: number | undefined;
  readonly army?: string | undefined;
  readonly contact?: string | undefined;
}

function cellOf(input: PlaceTerrainInput): BattlefieldCell {
  const row = input.row?.trim().toLowerCase();
  const raw = input.column?.trim().toLowerCase();
  const column = raw === 'center' ? 'centre' : raw;
  if (!row || !column || !(GRID_ROWS as readonly string[]).includes(row) || !(GRID_COLUMNS as readonly string[]).includes(column)) {
    throw new UserError('terrain.badCell', `${echo(`${input.row ?? ''} ${input.column ?? ''}`)} is not a cell of the battlefield. The grid has ${VALID_CELLS}, e.g. \`row:far column:left\`.`, { rows: GRID_ROWS, columns: GRID_COLUMNS });
  }
  return { row, column } as BattlefieldCell;
}

/**
 * `/terrain place`: a commander places (or moves) one of their own terrain cards on the 3 x 3
 * battlefield grid, seen from their own side, during the contact's decision step. The other
 * commanders of the contact are told where it now lies (in their own frame); the referee may act
 * for any army (said in the messages and logged). The reply carries the new sketch.
 * @see RULINGS 5 Terrain reconnaissance
 */
export async function placeTerrain(app: App, actor: Actor, input: PlaceTerrainInput): Promise<Reply[]> {
  const { message, sketch, file } = inCampaign(app, { actor }, (tx) => {
    const { army, asReferee } = requireControl(tx, input.army);
    const c = terrainContact(tx.state, army, input.contact);
    if (c.step !== 'decision') {
      throw new UserError('terrain.wrongStep', `Contact ${c.id} is ${describeStep(c.step)}: terrain cards are placed only after the contact phase, while engage or evade is being decided. \`/terrain show\` still draws the sketch.`, { contactId: c.id, step: c.step });
    }
    if (!input.card) throw new UserError('terrain.cardMissing', `Say which card with \`card:\`. You hold ${handText(terrainHand(c, army.id, tx.state))}.`);
    const picked = pickCard(tx.state, c, army, input.card);
    const cell = cellOf(input);
    const turn = input.turn ?? picked.orientation ?? 0;
    if (!(ORIENTATIONS as readonly number[]).includes(turn)) throw new UserError('terrain.badTurn', `Turn a card by ${ORIENTATIONS.join(', ')} degrees (clockwise), not ${turn}.`);
    const state = orRefuse(placeTerrainCardFromSide(tx.state, c.id, army.id, picked.n, cell, turn)).state;
    const after = state.contacts[c.id] ?? c;
    const placed = terrainHand(after, army.id, state).find((h) => h.n === picked.n) as HandCard;
    const who = asReferee ? ' (by the referee)' : '';
    const label = CARD_LABEL[picked.card];
    // Everyone in the contact shares the table: the others learn where the card now lies, as they see it.
    const told: EngineEvent[] = after.armyIds.filter((id) => id !== army.id).map((id) => {
      const seen = terrainSeenBy(after, id, state).find((h) => h.armyId === army.id && h.n === picked.n);
      return event('terrainPlaced', toArmy(id), `Contact ${c.id}: ${army.name}${who} placed a ${label} card at ${cellText(seen?.cell)}, turned ${seen?.orientation ?? 0}° (as you see the table). \`/terrain show\` draws the sketch.`, { contactId: c.id, by: army.id, card: picked.card });
    });
    if (asReferee) told.push(event('terrainPlaced', toArmy(army.id), `Contact ${c.id}: the referee placed your ${label} card (${picked.n}) at ${cellText(placed.cell)}, turned ${placed.orientation ?? 0}°.`, { contactId: c.id, by: army.id, card: picked.card }));
    const log = event('terrainPlaced', REFEREE, `Contact ${c.id}: ${army.name}'s ${label} card ${picked.n} placed at ${cellText(placed.cell)}, turned ${placed.orientation ?? 0}°, from ${army.name}'s side${who}.`, { contactId: c.id, armyId: army.id, n: picked.n, cell: placed.cell, orientation: placed.orientation, byReferee: asReferee });
    const view = sketchData(state, after, army.id);
    const text = `Contact ${c.id}: ${army.name}'s ${label} card (${picked.n}) now lies at ${cellText(placed.cell)}, turned ${placed.orientation ?? 0}°, seen from your side${who}. Cards: ${handText(view.hand)}.`;
    return {
      state,
      events: [log, ...told],
      // The referee's log line stays in the log; only the armies are sent a message.
      outbox: routeEvents({ ...tx, state }, told),
      result: {
        message: ephemeral(text, { contactId: c.id, armyId: army.id, byReferee: asReferee, card: placed, ...view }),
        sketch: view.sketch,
        file: sketchFileName(c.id, army.id),
      },
    };
  });
  const png = await sketchFile(app, sketch, file);
  return [png ? { ...message, files: [png] } : message];
}

