import type { Army } from '../forces/index.js';
import { type Hex, isAdjacent } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import type { PricedMove } from '../movement/index.js';
import { fail, ok, type Result } from '../result.js';
import { armiesAt, type CampaignState } from '../state/index.js';
import { contactMoveCost, contactPointsLeft, forcedMarchExtra } from './moveCost.js';

/** What avoiding into a hex costs. */
export interface AvoidCost {
  /** Move points of the hex entered (and any river crossed on the way). */
  readonly points: number;
  /** The points left today fall short: only a forced march covers the move. */
  readonly forcedMarch: boolean;
  /** Points the forced march adds to the day (0 when no forced march is needed). */
  readonly extra: number;
  /** The hex demands unformed movement: the army will be unformed (stragglers, a rally day). */
  readonly unformed: boolean;
  /** The move as the movement rules priced it. */
  readonly move: PricedMove;
}

/**
 * Whether an army may avoid contact into a hex: adjacent, empty, a hex the movement rules let it
 * enter now (night limits, closed crossings, rain that halts all movement, with their own code and
 * sentence), and affordable with the points left today or, failing that, by a forced march (the
 * points left plus the forced march's extra for the day; none if it already force-marched today).
 * @see 001 Avoid, Evade, Delay, and Withdraw: Avoid ("or be able to conduct a forced march"); RULINGS 4
 */
export function canAvoidTo(state: CampaignState, map: MapModel, army: Army, to: Hex): Result<AvoidCost> {
  if (!isAdjacent(army.hex, to)) return fail('contact.avoidNotAdjacent', `To avoid contact, name a hex next to ${map.format(army.hex)}.`, { to: map.format(to) });
  const priced = contactMoveCost(state, map, army, [to]);
  if (!priced.ok) return priced;
  if (armiesAt(state, to).some((a) => a.id !== army.id)) {
    return fail('contact.avoidOccupied', `${map.format(to)} holds another commander; pick an empty hex (one commander per hex).`);
  }
  const move = priced.value;
  const pay = move.points;
  const have = contactPointsLeft(state, army);
  if (pay <= have) return ok({ points: pay, forcedMarch: false, extra: 0, unformed: move.unformed, move });
  const extra = forcedMarchExtra(state, army);
  if (extra > 0 && pay <= have + extra) return ok({ points: pay, forcedMarch: true, extra, unformed: move.unformed, move });
  const forced = army.march.forcedMarchDay === state.clock.day
    ? 'it has already force-marched today'
    : `a forced march would give it ${have + extra}`;
  return fail('contact.avoidNoPoints', `Avoiding into ${map.format(to)} needs ${pay} move points; ${army.name} has ${have} left today and ${forced}. Choose delay, proceed, or stay silent.`, { need: pay, have, withForcedMarch: have + extra });
}
