import type { Dice } from '../dice/dice.js';
import { event, PUBLIC, toArmy, type EngineEvent } from '../events/events.js';
import type { Army, Operation } from '../forces/army.js';
import type { MapModel } from '../map/mapModel.js';
import type { Order } from '../state/campaign.js';
import { who } from './contacts.js';

/** Timber is always found in forest and swamp; elsewhere a die decides. @see 000 Terrain Effects: Major Rivers */
export const TIMBER_SHORT_MAX = 4;

/** The phase of a raft crossing after `elapsed` of `total` half periods: a third each. */
export function raftPhase(elapsed: number, total: number): Operation['phase'] {
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

export interface OperationProgress {
  readonly army: Army;
  /** The army's order after this half: kept, or undefined when it is finished or cancelled. */
  readonly order: Order | undefined;
  readonly events: readonly EngineEvent[];
}

/**
 * One half period of work on a multi-day crossing. Rafts: at the end of the first day, outside
 * forest and swamp, a die of 1-4 means too little timber: the day is lost, the hex is barred for
 * rafts and the order is cancelled. The crossing day leaves the force unformed (a ferry does for
 * its whole length); on completion the force stands formed on the far bank.
 * @see 000 Terrain Effects: Ferries, Major Rivers, Minor Rivers
 */
export function progressOperation(army: Army, order: Order | undefined, map: MapModel, dice: Dice): OperationProgress {
  const op = army.march.operation;
  if (!op) return { army, order, events: [] };
  const events: EngineEvent[] = [];
  const remaining = op.remainingHalves - 1;
  const elapsed = op.totalHalves - remaining;
  const where = map.format(op.hex);
  if (op.kind === 'rafts' && op.phase === 'timber' && raftPhase(elapsed, op.totalHalves) !== 'timber') {
    const terrain = map.terrainAt(op.hex);
    if (terrain !== 'forest' && terrain !== 'swamp') {
      const roll = dice.d6(`timber for rafts of ${army.name} at ${where}`);
      if (roll <= TIMBER_SHORT_MAX) {
        const { operation: _op, ...march } = army.march;
        events.push(event('raftsFailed', PUBLIC, `${who(army)} found too little timber for rafts at ${where}.`, { armyId: army.id, hex: where }));
        events.push(event('raftsFailed', toArmy(army.id), `Timber die ${roll}: not enough timber at ${where}. The day is lost and rafts cannot be built in this hex; your order is cancelled. Try another hex.`, { roll }));
        return { army: { ...army, march: { ...march, noRaftHexes: [...march.noRaftHexes, op.hex] } }, order: undefined, events };
      }
      events.push(event('timberFound', toArmy(army.id), `Timber die ${roll}: enough timber at ${where}; building rafts.`, { roll }));
    }
  }
  if (remaining <= 0) {
    const { operation: _op, ...march } = army.march;
    events.push(event('riverCrossed', PUBLIC, `${who(army)} crossed the river at ${where} by ${op.kind === 'ferry' ? 'ferry' : 'rafts'}.`, { armyId: army.id, hex: where }));
    events.push(event('riverCrossed', toArmy(army.id), `${army.name} is across the river at ${where} and formed again.`));
    const done: Army = { ...army, ...(op.toBank ? { bank: op.toBank } : {}), formation: 'formed', march };
    const finished = order?.kind !== 'move' || order.path.length === 0;
    return { army: done, order: finished ? undefined : order, events };
  }
  const phase = op.kind === 'rafts' ? raftPhase(elapsed, op.totalHalves) : 'cross';
  const formation = phase === 'cross' ? 'unformed' : army.formation;
  return { army: { ...army, formation, march: { ...army.march, operation: { ...op, remainingHalves: remaining, phase } } }, order, events };
}
