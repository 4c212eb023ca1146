import type { GameTime } from '../../clock/index.js';
import type { Army } from '../../forces/index.js';
import { BrokenData } from '../../result.js';
import { fleetAtAnchor } from '../../water/index.js';
import type { CrossingMethod, MoveOrder, Order } from '../../state/index.js';
import type { LegacyOrder } from './legacyState.js';

const METHODS: readonly string[] = ['bridge', 'ferry', 'ford', 'swim', 'rafts'] satisfies readonly CrossingMethod[];

function isCrossingMethod(m: string): m is CrossingMethod {
  return METHODS.includes(m);
}

function moveOrder(o: LegacyOrder | MoveOrder): MoveOrder {
  const crossings = o.crossings?.map((c) => {
    if (!isCrossingMethod(c.method)) throw new BrokenData(`order of ${o.armyId} accepts an unknown crossing method "${c.method}"`);
    return { hex: c.hex, method: c.method };
  });
  return {
    armyId: o.armyId,
    kind: 'move',
    period: o.period,
    path: o.path,
    forced: o.forced,
    unformed: o.unformed,
    save: o.save,
    ...(o.crossAtEnd !== undefined ? { crossAtEnd: o.crossAtEnd } : {}),
    ...(crossings ? { crossings } : {}),
    givenBy: o.givenBy,
    givenAt: o.givenAt,
  };
}

/**
 * One order in its exact shape, or undefined when it is dropped: a debark order with no regiments
 * awaited, and the kinds never written ('hold', 'embark', 'operation'). An order already in its
 * exact shape comes back the same.
 */
function upgradeOrder(o: LegacyOrder | Order, army: Army | undefined, clock: GameTime): Order | undefined {
  const given = { armyId: o.armyId, givenBy: o.givenBy, givenAt: o.givenAt };
  switch (o.kind) {
    case 'move':
      return moveOrder(o);
    case 'rest':
      return { ...given, kind: 'rest' };
    case 'sail': {
      const fleet = 'fleet' in o ? o.fleet : o.extra?.fleet ?? (army ? fleetAtAnchor(army, clock) : undefined);
      if (!fleet) throw new BrokenData(`sail order of ${o.armyId}, an army the state does not hold`);
      return { ...given, kind: 'sail', path: o.path, fleet };
    }
    case 'debark': {
      const assembly = 'assembly' in o ? o.assembly : o.extra?.assembly;
      return assembly ? { ...given, kind: 'debark', assembly } : undefined;
    }
    case 'hold':
    case 'embark':
    case 'operation':
      return undefined;
  }
}

/**
 * Upgrade step: the wide Order (every kind with `path`, `forced`, ..., sail and debark orders with
 * their fleet or assembly in `extra`) to the Order union (MoveOrder, RestOrder, SailOrder,
 * DebarkOrder). A sail order that lost its fleet gets the army's whole fleet at anchor, as the
 * rules read it before. Orders already upgraded are left as they are.
 */
export function upgradeOrders(orders: Readonly<Record<string, LegacyOrder | Order>>, armies: Readonly<Record<string, Army>>, clock: GameTime): Record<string, Order> {
  const out: Record<string, Order> = {};
  for (const [id, o] of Object.entries(orders)) {
    const next = upgradeOrder(o, armies[id], clock);
    if (next) out[id] = next;
  }
  return out;
}
