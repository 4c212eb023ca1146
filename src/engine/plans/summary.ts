import type { Names } from '../events/index.js';
import type { Hex } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import type { ArmyPlan, ContactPolicy, PlanOrder } from '../state/index.js';

/** A place as a plan names it: the town's name with its hex id, or the hex id. */
export function placeName(map: MapModel, h: Hex): string {
  const town = map.townAt(h);
  return town ? `${town} (${map.format(h)})` : map.format(h);
}

/** The plan's order in words: "patrol 0712 → Valdheim (2217) → 0712". */
export function describePlanOrder(order: PlanOrder, map: MapModel, names: Names): string {
  switch (order.kind) {
    case 'hold':
      return 'hold';
    case 'march':
      return `march to ${placeName(map, order.to)} and hold`;
    case 'patrol': {
      const first = order.points[0];
      return `patrol ${[...order.points, ...(first ? [first] : [])].map((h) => placeName(map, h)).join(' → ')}`;
    }
    case 'shadow':
      return `shadow ${names.army(order.target)}`;
    case 'withdraw':
      return `hold; fall back to ${placeName(map, order.to)} once it meets a force it estimates stronger`;
    case 'garrison':
      return `garrison ${placeName(map, order.town)}`;
  }
}

const POLICY_TEXT: Readonly<Record<ContactPolicy, string>> = {
  evade: 'engage when its estimate says it is the stronger, else evade',
  delay: 'engage when its estimate says it is the stronger, else delay (evade once battle is offered)',
  referee: 'every contact waits for the referee',
};

/** How the plan answers contacts, in words. */
function describePolicy(policy: ContactPolicy): string {
  return POLICY_TEXT[policy];
}

/** The whole plan in words, for `/army plan show` and the referee's lines. */
export function describeWholePlan(plan: ArmyPlan, map: MapModel, names: Names): string {
  return `${describePlanOrder(plan.order, map, names)}; contacts: ${describePolicy(plan.contact)}`;
}
