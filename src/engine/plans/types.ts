import type { ContactPolicy, PlanOrder } from '../state/index.js';

export type PlanKind = PlanOrder['kind'];

export const CONTACT_POLICIES: readonly ContactPolicy[] = ['evade', 'delay', 'referee'];
export const PLAN_KINDS: readonly PlanKind[] = ['hold', 'march', 'patrol', 'shadow', 'withdraw', 'garrison'];
