/** Plans: what armies nobody commands (or under standing orders) do, half period after half period. @see docs/rulings.md (Plans) */
export { checkPlan } from './checkPlan.js';
export { followPlans, PLAN_GIVER } from './followPlans.js';
export { type PlanEvent } from './planEvents.js';
export { describeWholePlan } from './summary.js';
export { type ArmyPlan, CONTACT_POLICIES, type ContactPolicy, PLAN_KINDS, type PlanKind, type PlanOrder } from './types.js';
export { planOfSpec } from './scenarioPlan.js';
