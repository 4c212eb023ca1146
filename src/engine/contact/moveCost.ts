import type { Army } from '../forces/army.js';
import type { Hex } from '../hex/hex.js';
import { arrivalBank, crossingNeeded, type Bank, type MapModel } from '../map/mapModel.js';
import { crossingCost } from '../movement/crossing.js';
import { enterCost } from '../movement/terrainCost.js';
import { otherBank } from '../movement/walkPath.js';
import { NO_WEATHER_EFFECTS } from '../weather/types.js';

/**
 * Move points a land force pays to step from `from` into the adjacent `to`, for the short moves
 * of the contact rules (avoid, displacement, maneuver, relief, exploit). Undefined when the hex
 * cannot be entered (off the map, water).
 */
export type MoveCostFn = (map: MapModel, army: Army, from: Hex, to: Hex) => number | undefined;

/**
 * The default cost: the movement rules' own terrain costs. Such a move is made at once and
 * unformed if need be; a river is crossed only where that takes no extra days (a bridge, a ford).
 */
export const contactMoveCost: MoveCostFn = (map, army, from, to) => {
  const enter = enterCost(map, army, from, to, { period: 'day', night: false, unformed: true }, true);
  if (!enter.ok) return undefined;
  if (!crossingNeeded(map, from, army.bank, to)) return enter.value.cost;
  const cross = crossingCost(map, army, from, army.bank, army.bank ? otherBank(army.bank) : undefined, { weather: NO_WEATHER_EFFECTS, nightDouble: false });
  if (!cross.ok || cross.value.halves > 0) return undefined;
  return enter.value.cost + cross.value.points;
};

/** The bank a force stands on after stepping into `to`. */
export function bankAfter(map: MapModel, army: Army, to: Hex): Bank | undefined {
  return arrivalBank(map, army.hex, army.bank, to);
}

/** Charges move points to an army (points left down, points spent today and this period up). */
export function spendPoints(army: Army, points: number): Army {
  if (points === 0) return army;
  const m = army.march;
  return { ...army, march: { ...m, pointsLeft: m.pointsLeft - points, spentToday: (m.spentToday ?? 0) + points, spentPeriod: (m.spentPeriod ?? 0) + points } };
}
