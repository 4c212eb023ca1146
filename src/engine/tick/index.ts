/** The tick: the steps of a half period, in the order the rulings require. @see RULINGS 2-5 */
export { followingPlans, TICK_PLAN } from './plan.js';
export { resolveTick, type TickPlan } from './resolveTick.js';
export { diceNeededToResolve, whoRollsIn } from './manualDiceContacts.js';
