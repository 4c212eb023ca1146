export { type ArmyPlan, type ContactPolicy, type PlanOrder } from '../state/index.js';
/** Plans: what armies nobody commands (or under standing orders) do, half period after half period. @see docs/rulings.md (Plans) */
export { checkPlan } from './checkPlan.js';
export { followPlans, PLAN_GIVER } from './followPlans.js';
export { type PlanEvent } from './planEvents.js';
export { describeWholePlan } from './summary.js';
export { CONTACT_POLICIES, PLAN_KINDS, type PlanKind } from './types.js';
export { planOfSpec } from './scenarioPlan.js';
