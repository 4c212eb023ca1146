import { beginHalfStep, movementStep } from '../movement/index.js';
import { droughtCasualtyStep, weatherEffects, weatherStep } from '../weather/index.js';
import type { TickPlan } from './resolveTick.js';

/** The rules that run at every tick, wired in the order RULINGS 2-5 require. */
export const TICK_PLAN: TickPlan = {
  closeHalf: [movementStep],
  openHalf: [weatherStep, droughtCasualtyStep, beginHalfStep],
  effects: (s) => weatherEffects(s.weather, s.settings),
};
