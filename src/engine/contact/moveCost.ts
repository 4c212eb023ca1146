import type { Army } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import { arrivalBank, crossingNeeded, type Bank, type MapModel } from '../map/index.js';
import { crossingCost, dailyPoints, enterCost, otherBank } from '../movement/index.js';
import type { CampaignState } from '../state/index.js';
import { NO_WEATHER_EFFECTS, weatherEffects } from '../weather/index.js';

/**
 * Move points a land force pays to step from `from` into the adjacent `to`, for the short moves
 * of the contact rules (avoid, displacement, maneuver, relief, exploit): the one place where such
 * a move's hex entry is priced. Undefined when the hex cannot be entered (off the map, water).
 * The movement rules' own terrain costs apply; such a move is made at once and unformed if need
 * be; a river is crossed only where that takes no extra days (a bridge, a ford).
 */
export function contactMoveCost(map: MapModel, army: Army, from: Hex, to: Hex): number | undefined {
  const enter = enterCost(map, army, from, to, { period: 'day', night: false, unformed: true }, true);
  if (!enter.ok) return undefined;
  if (!crossingNeeded(map, from, army.bank, to)) return enter.value.cost;
  const cross = crossingCost(map, army, from, army.bank, army.bank ? otherBank(army.bank) : undefined, { weather: NO_WEATHER_EFFECTS, nightDouble: false });
  if (!cross.ok || cross.value.halves > 0) return undefined;
  return enter.value.cost + cross.value.points;
}

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
