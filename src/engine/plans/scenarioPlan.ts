import { START_TIME } from '../clock/index.js';
import { parseHex, type Hex } from '../hex/index.js';
import { fail, ok, type Result } from '../result.js';
import type { PlanKind } from './types.js';
import type { ArmyPlan, ContactPolicy, PlanOrder } from '../state/index.js';

/** A plan as a scenario file writes it: its kind, hex ids, the army it shadows, its contact policy. */
export interface PlanSpec {
  readonly kind: PlanKind;
  readonly places: readonly string[];
  readonly target?: string | undefined;
  readonly contact: ContactPolicy;
}

/** The plan of a scenario's army, from its file: each kind with the places it takes (the rules' checks come after, with the map). */
export function planOfSpec(armyId: string, spec: PlanSpec): Result<ArmyPlan> {
  const hexes: Hex[] = [];
  for (const id of spec.places) {
    const h = parseHex(id);
    if (!h) return fail('plan.badPlace', `"${id}" is not a hex id (like 0712)`);
    hexes.push(h);
  }
  const one = spec.kind === 'march' || spec.kind === 'withdraw' || spec.kind === 'garrison';
  if (one && hexes.length !== 1) return fail('plan.onePlace', `a ${spec.kind} plan takes one place in "places" (it has ${hexes.length})`);
  if ((spec.kind === 'hold' || spec.kind === 'shadow') && hexes.length > 0) return fail('plan.extraPlaces', `a ${spec.kind} plan takes no "places"`);
  if (spec.kind !== 'shadow' && spec.target !== undefined) return fail('plan.extraTarget', `"target" is for a shadow plan only`);
  const [first] = hexes;
  let order: PlanOrder;
  if (spec.kind === 'shadow') {
    if (spec.target === undefined) return fail('plan.targetMissing', 'a shadow plan needs the "target" army it follows');
    order = { kind: 'shadow', target: spec.target };
  } else if (spec.kind === 'patrol') order = { kind: 'patrol', points: hexes };
  else if (spec.kind === 'hold' || !first) order = { kind: 'hold' };
  else order = spec.kind === 'garrison' ? { kind: 'garrison', town: first } : { kind: spec.kind, to: first };
  return ok({ armyId, order, contact: spec.contact, setBy: 'scenario', setAt: START_TIME });
}
