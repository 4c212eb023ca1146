import { knowledgeStep } from '../knowledge/index.js';
import { followPlans } from '../plans/index.js';
import { beginHalfStep, movementStep } from '../movement/index.js';
import { courierStep, fleetStep } from '../water/index.js';
import { droughtCasualtyStep, weatherEffects, weatherStep } from '../weather/index.js';
import { forgetFinishedStep } from './forgetFinished.js';
import { manualDiceContactStep } from './manualDiceContacts.js';
import type { TickPlan } from './resolveTick.js';

/**
 * The rules that run at every tick, in the order RULINGS 2-5 require: first what is finished
 * leaves the live state (closed contacts no rule needs, delivered couriers); contact deadlines, then
 * every move of the half period (armies, then fleets, then couriers, who may ride a fleet); then
 * the clock moves on and the new half period opens with its weather (and drought), the daily
 * books and contacts between forces standing still; last, what each army saw (fog of war).
 * The contact step lets a contact wait for its manual dice (manualDiceContacts.ts).
 */
export const TICK_PLAN: TickPlan = {
  closeHalf: [forgetFinishedStep, manualDiceContactStep, movementStep, fleetStep, courierStep],
  openHalf: [weatherStep, droughtCasualtyStep, beginHalfStep, knowledgeStep],
  effects: (s) => weatherEffects(s.weather, s.settings),
};

/**
 * The tick with the armies that follow a plan: after the new half period opens (its weather, the
 * contacts of forces standing still, what each army saw), each plan answers its army's contact
 * by its policy or gives its order for the half period to come, as a commander would between
 * ticks. Who follows is the caller's to say (armies nobody commands, armies under standing orders).
 */
export function followingPlans(plan: TickPlan, followers: ReadonlySet<string>): TickPlan {
  if (followers.size === 0) return plan;
  return { ...plan, openHalf: [...plan.openHalf, ({ state, map, weather }) => followPlans(state, map, weather, followers)] };
}
