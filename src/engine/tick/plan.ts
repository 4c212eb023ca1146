import { makeContactStep, type MoveCostFn } from '../contact/index.js';
import { crossingNeeded } from '../map/mapModel.js';
import { beginHalfStep, crossingCost, enterCost, marchFormation, movementStep, otherBank } from '../movement/index.js';
import { courierStep, fleetStep } from '../water/index.js';
import { droughtCasualtyStep, weatherEffects, weatherStep } from '../weather/index.js';
import { NO_WEATHER_EFFECTS } from '../weather/types.js';
import type { TickPlan } from './resolveTick.js';

/**
 * The cost of the short moves of the contact rules (avoid, displacement, maneuver, relief,
 * exploit) by the movement rules' own terrain costs. Such a move is made at once and unformed if
 * need be; a river is crossed only where that takes no extra days (a bridge, a ford).
 */
export const contactMoveCost: MoveCostFn = (map, army, from, to) => {
  const enter = enterCost(map, army, from, to, { period: 'day', night: false, unformed: true }, true);
  if (!enter.ok) return undefined;
  if (!crossingNeeded(map, from, army.bank, to)) return enter.value.cost;
  const cross = crossingCost(map, army, from, army.bank, army.bank ? otherBank(army.bank) : undefined, { weather: NO_WEATHER_EFFECTS, nightDouble: false });
  if (!cross.ok || cross.value.halves > 0) return undefined;
  return enter.value.cost + cross.value.points;
};

export const contactStep = makeContactStep({ moveCost: contactMoveCost, marchFormation });

/**
 * The rules that run at every tick, in the order RULINGS 2-5 require: contact deadlines, then
 * every move of the half period (armies, then fleets, then couriers, who may ride a fleet); then the clock moves on and the new half period opens with its
 * weather (and drought), the daily books and contacts between forces standing still.
 */
export const TICK_PLAN: TickPlan = {
  closeHalf: [contactStep, movementStep, fleetStep, courierStep],
  openHalf: [weatherStep, droughtCasualtyStep, beginHalfStep],
  effects: (s) => weatherEffects(s.weather, s.settings),
};
