import { toArmy } from '../events/index.js';
import type { Army } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import { dailyPoints, moveAtOnce, pointsLeftNow, priceMove, priceOwnHex, type MoveMoment, type PricedMove } from '../movement/index.js';
import type { Result } from '../result.js';
import type { CampaignState } from '../state/index.js';
import { weatherEffects } from '../weather/index.js';
import type { ContactFact } from './contactEvents.js';

/**
 * The one place where the contact rules price a move (avoid, displacement, exploit, relief and
 * support switches, maneuver, aggressive pursuit). They price nothing themselves: the movement
 * rules do, as for a march, at the campaign's clock and weather and with its flying setting
 * (src/engine/movement/immediateMove.ts). A refusal carries the movement rules' code and sentence.
 * @see RULINGS 4 (every move is priced by the movement rules, whoever orders it)
 */

/** The moment of a contact move: the half period now, its weather, the flying setting. */
export function contactMoment(state: CampaignState): MoveMoment {
  return { clock: state.clock, weather: weatherEffects(state.weather, state.settings), flyingIgnoresTerrain: state.settings.flyingIgnoresTerrain };
}

/** Prices a contact move from the army's hex along `path` (adjacent hexes in order). */
export function contactMoveCost(state: CampaignState, map: MapModel, army: Army, path: readonly Hex[]): Result<PricedMove> {
  return priceMove(map, army, path, contactMoment(state));
}

/** Prices a move into the army's own hex: the maneuver action. */
export function ownHexCost(state: CampaignState, map: MapModel, army: Army): Result<number> {
  return priceOwnHex(map, army, contactMoment(state));
}

/** The points an army has left now for a contact move. */
export function contactPointsLeft(state: CampaignState, army: Army): number {
  return pointsLeftNow(army, contactMoment(state));
}

/**
 * Makes a priced contact move: the movement rules charge the points (`charge`: the first switch
 * of a turn is free, an exploit pays its last hex only), move the army, leave it unformed where
 * the ground demanded it and lose the stragglers it leaves at its rally point; the commander is
 * told of both.
 */
export function makeContactMove(state: CampaignState, map: MapModel, army: Army, move: PricedMove, charge: number = move.points): { army: Army; facts: ContactFact[] } {
  const done = moveAtOnce(army, move, state.clock, charge);
  const becameUnformed = army.formation !== 'unformed' && done.army.formation === 'unformed';
  if (!becameUnformed && done.stragglersLost === 0) return { army: done.army, facts: [] };
  return { army: done.army, facts: [{ type: 'contactMoveNoted', audience: toArmy(army.id), data: { armyId: army.id, to: map.format(move.to), becameUnformed, stragglersLost: done.stragglersLost, rallyPoint: map.format(army.hex) } }] };
}

/**
 * The points a forced march would add to the army's day now: its daily points on a forced march
 * less its ordinary daily points, as the movement rules compute them (+50 % of the class rate,
 * then fatigue, weather and yesterday's rest). None when it has already force-marched today: its
 * points left already hold the extra.
 * @see 000 Overland Travel: Forced March; 001 Avoid, Evade, Delay, and Withdraw: Avoid
 */
export function forcedMarchExtra(state: CampaignState, army: Army): number {
  if (army.march.forcedMarchDay === state.clock.day) return 0;
  const weather = weatherEffects(state.weather, state.settings);
  return Math.max(0, dailyPoints(army, true, weather) - dailyPoints(army, false, weather));
}

/**
 * Puts an army on a forced march today: the extra points join today's points, and the next day
 * must be rest or the army is fatigued (the movement rules read `forcedMarchDay`).
 */
export function forceMarch(army: Army, extra: number, day: number): Army {
  const m = army.march;
  return { ...army, march: { ...m, pointsLeft: m.pointsLeft + extra, allowanceToday: m.allowanceToday + extra, forcedMarchDay: day } };
}
