import type { Hex } from '../hex/index.js';
import type { GameTime } from '../clock/index.js';
import type { FleetState } from './waterRecords.js';

/**
 * The standing orders the campaign state keeps, one per army: a march or a rest (the movement
 * rules), a fleet's voyage or anchorage and the wait at a port of debarkation (the water rules).
 */

/** Who gave an order (user id) and when (game time): common to every kind of order. */
export interface OrderGiven {
  readonly armyId: string;
  readonly givenBy: string;
  readonly givenAt: GameTime;
}

/**
 * A standing order, at most one per army: a march (movement), a rest, a fleet's voyage or
 * anchorage (with the fleet), or the wait at a port of debarkation (with the regiments awaited).
 * An army with no order holds.
 */
export type Order = MoveOrder | RestOrder | SailOrder | DebarkOrder;

/** A move order's period: light-sighted forces move by day (or by night under limits); dark-seeing ones may split. */
export type MovePeriod = 'day' | 'night' | 'split';

/** How a river gets crossed in one hex. */
export type CrossingMethod = 'bridge' | 'ferry' | 'ford' | 'swim' | 'rafts';

/** A march order: the path to follow over as many half periods as it takes. */
export interface MoveOrder extends OrderGiven {
  readonly kind: 'move';
  readonly period: MovePeriod;
  /** Hexes to enter, in order (not including the start). */
  readonly path: readonly Hex[];
  readonly forced: boolean;
  readonly unformed: boolean;
  readonly save: boolean;
  /** Cross the river in the last hex (end on the far bank). */
  readonly crossAtEnd?: boolean;
  /**
   * Multi-day river crossings (ferry, rafts) the commander accepted when giving the order. The
   * army will not commit to a multi-day crossing it was not shown (a ford closed by rain since).
   */
  readonly crossings?: readonly { readonly hex: Hex; readonly method: CrossingMethod }[];
}

/** A rest order: the army stays put and rests. @see 000 Overland Travel: Daily Rest */
export interface RestOrder extends OrderGiven {
  readonly kind: 'rest';
}

/** The standing order of an embarked army: its fleet, and the voyage (empty at anchor). */
export interface SailOrder extends OrderGiven {
  readonly kind: 'sail';
  /** Water hexes still to sail, in order. */
  readonly path: readonly Hex[];
  readonly fleet: FleetState;
}

/** Regiments still on their way to the port of debarkation, by batch. */
export interface AwaitedBatch {
  readonly regiments: readonly string[];
  /** timeIndex of the half period they land. */
  readonly arrivesAt: number;
}

/** What a 'debark' order keeps while the army waits for the rest of its regiments. */
export interface Assembly {
  readonly port: string;
  readonly batches: readonly AwaitedBatch[];
}

/** The standing order of an army that landed and waits at its port for regiments still to come by shuttle. */
export interface DebarkOrder extends OrderGiven {
  readonly kind: 'debark';
  readonly assembly: Assembly;
}
