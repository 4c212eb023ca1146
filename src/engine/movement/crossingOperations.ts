import type { Dice } from '../dice/index.js';
import { PUBLIC, toArmy } from '../events/index.js';
import type { GameTime } from '../clock/index.js';
import type { Army, HalfActivity, Operation } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import type { Order } from '../state/index.js';
import type { MovementFact } from './movementEvents.js';
import { periodActive } from './timing.js';

/** Timber is always found in forest and swamp; elsewhere a die decides. @see 000 Terrain Effects: Major Rivers */
export const TIMBER_SHORT_MAX = 4;

/** Whether rafts built in the hex need no timber die (forest and swamp). @see 000 Terrain Effects: Major Rivers */
export function timberAlwaysFound(map: MapModel, hex: Hex): boolean {
  const terrain = map.terrainAt(hex);
  return terrain === 'forest' || terrain === 'swamp';
}

/** The phase of a raft crossing after `elapsed` of `total` half periods: a third each. */
function raftPhase(elapsed: number, total: number): Operation['phase'] {
  const third = total / 3;
  if (elapsed < third) return 'timber';
  if (elapsed < 2 * third) return 'build';
  return 'cross';
}

/**
 * The share of its strength a force brings to a fight: a third while collecting timber and
 * building rafts (formed, but busy), all of it otherwise.
 * @see 000 Terrain Effects: Major Rivers
 */
export function defenceShare(army: Army): number {
  const op = army.march.operation;
  return op?.kind === 'rafts' && op.phase !== 'cross' ? 1 / 3 : 1;
}

/** An army committed to a multi-day crossing begun: the operation on its books; a ferry leaves it unformed. */
export function beginCrossing(army: Army, op: Operation): Army {
  return { ...army, formation: op.kind === 'ferry' ? 'unformed' : army.formation, march: { ...army.march, operation: op } };
}

/** A half period of a multi-day crossing: worked in the periods the order marches in, rested in the others. */
export function operationActivity(order: Order | undefined, clock: GameTime): HalfActivity {
  return periodActive(order?.kind === 'move' ? order.period : 'day', clock) ? 'worked' : 'rested';
}

export interface OperationProgress {
  readonly army: Army;
  /** The army's order after this half: kept, or undefined when it is finished or cancelled. */
  readonly order: Order | undefined;
  readonly facts: readonly MovementFact[];
}

/**
 * One half period of work on a multi-day crossing:
 * 1. rafts, at the end of the first day outside forest and swamp: a die of 1-4 means too little
 *    timber: the day is lost, the hex is barred for rafts and the order is cancelled;
 * 2. the last half period: the force stands formed on the far bank;
 * 3. otherwise the work goes on; the crossing day leaves the force unformed (a ferry does for
 *    its whole length).
 * @see 000 Terrain Effects: Ferries, Major Rivers, Minor Rivers
 */
export function progressOperation(army: Army, order: Order | undefined, map: MapModel, dice: Dice): OperationProgress {
  const op = army.march.operation;
  if (!op) return { army, order, facts: [] };
  const remaining = op.remainingHalves - 1;
  const elapsed = op.totalHalves - remaining;
  const hex = map.format(op.hex);
  const facts: MovementFact[] = [];
  if (op.kind === 'rafts' && op.phase === 'timber' && raftPhase(elapsed, op.totalHalves) !== 'timber') {
    const timber = lookForTimber(army, op, hex, map, dice);
    if (timber.failed) return timber.failed;
    facts.push(...timber.facts);
  }
  if (remaining <= 0) {
    const { operation: _op, ...march } = army.march;
    facts.push(
      { type: 'riverCrossed', audience: PUBLIC, data: { armyId: army.id, hex, method: op.kind } },
      { type: 'riverCrossed', audience: toArmy(army.id), data: { armyId: army.id, hex } },
    );
    const done: Army = { ...army, ...(op.toBank ? { bank: op.toBank } : {}), formation: 'formed', march };
    const finished = order?.kind !== 'move' || order.path.length === 0;
    return { army: done, order: finished ? undefined : order, facts };
  }
  const phase = op.kind === 'rafts' ? raftPhase(elapsed, op.totalHalves) : 'cross';
  const formation = phase === 'cross' ? 'unformed' : army.formation;
  return { army: { ...army, formation, march: { ...army.march, operation: { ...op, remainingHalves: remaining, phase } } }, order, facts };
}

/** Step 1 of a raft crossing: timber is always found in forest and swamp; elsewhere a die decides. */
function lookForTimber(army: Army, op: Operation, hex: string, map: MapModel, dice: Dice): { failed?: OperationProgress; facts: MovementFact[] } {
  if (timberAlwaysFound(map, op.hex)) return { facts: [] };
  const roll = dice.d6(`timber for rafts of ${army.name} at ${hex}`);
  if (roll > TIMBER_SHORT_MAX) return { facts: [{ type: 'timberFound', audience: toArmy(army.id), data: { armyId: army.id, hex, roll } }] };
  const { operation: _op, ...march } = army.march;
  const facts: MovementFact[] = [
    { type: 'raftsFailed', audience: PUBLIC, data: { armyId: army.id, hex } },
    { type: 'raftsFailed', audience: toArmy(army.id), data: { armyId: army.id, hex, roll } },
  ];
  return { failed: { army: { ...army, march: { ...march, noRaftHexes: [...march.noRaftHexes, op.hex] } }, order: undefined, facts }, facts: [] };
}
