import type { FatigueReason } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import type { Bank, CrossingSite, RiverSize, Terrain } from '../map/index.js';
import type { CrossingMethod, MoveOrder, MovePeriod } from '../state/index.js';

/**
 * Shared shapes of the movement rules.
 * @see 000 Strategic Movement; 000 Terrain Effects; RULINGS 1-4
 */

/** How an army links one hex to the next. */
export type Link = 'road' | 'track' | 'none';

/** Half periods, in order through the turn. */
export type HalfName = 'morning' | 'afternoon' | 'evening' | 'night';

/** Options that change what a step costs and whether it is legal. */
export interface MoveOptions {
  readonly period: MovePeriod;
  /** Which period the step happens in (for split orders, the period in play). */
  readonly night: boolean;
  readonly unformed: boolean;
}

/** A river crossing made in one hex, and what it costs. */
export interface CrossingCost {
  readonly hex: Hex;
  readonly size: RiverSize;
  /** The marked site, if any. */
  readonly site?: CrossingSite;
  readonly method: CrossingMethod;
  /** Extra move points (bridge 0, ford or swim by points). */
  readonly points: number;
  /** Half periods of work for multi-day crossings (ferry, rafts); 0 otherwise. */
  readonly halves: number;
  readonly fromBank?: Bank;
  readonly toBank?: Bank;
}

/** The cost of entering one hex from its neighbour. */
export interface EnterCost {
  readonly terrain: Terrain;
  readonly link: Link;
  readonly cost: number;
  /** True when this step is only legal for a force moving unformed. */
  readonly needsUnformed: boolean;
}

/** One step of a walk: an optional crossing in the hex left (or, at the end, in the hex reached), then the entry. */
export interface WalkStep {
  readonly kind: 'enter' | 'cross';
  /** The hex the army stands in after the step. */
  readonly hex: Hex;
  readonly bank?: Bank;
  readonly enter?: EnterCost;
  readonly crossing?: CrossingCost;
  /** Points this step costs (crossing points + entry cost). */
  readonly points: number;
  readonly needsUnformed: boolean;
}

/** A step of a previewed move. */
export interface PlannedStep {
  readonly hex: string;
  readonly terrain?: Terrain;
  readonly link: Link;
  readonly enterCost: number;
  readonly crossing?: {
    readonly where: string;
    readonly method: CrossingMethod;
    readonly site?: CrossingSite;
    readonly size: RiverSize;
    readonly points?: number;
    readonly days?: number;
  };
  /** Day of the move, 0 = the day the order starts. */
  readonly dayOffset: number;
  readonly half: HalfName;
  readonly pointsLeft: number;
}

export type MoveWarningCode =
  | 'move.fordClosed'
  | 'move.ferryClosed'
  | 'move.fatigueTomorrow'
  | 'move.fatigueToday'
  | 'move.stragglers'
  | 'move.weeklyRestDue'
  | 'move.fatigued'
  | 'move.weatherHalted'
  | 'move.multiDay'
  | 'move.inContact'
  | 'move.restMoveLimit'
  | 'move.saveWithoutLeftover'
  | 'move.passageOfLines'
  | 'move.occupied'
  | 'move.machinesWork'
  | 'move.stopsOnTheWay'
  | 'move.pastPreview';

export interface MoveWarning {
  readonly code: MoveWarningCode;
  readonly message: string;
}

/** A move request as commands give it. */
export interface MoveRequest {
  readonly path?: readonly Hex[];
  readonly to?: Hex;
  readonly period: MovePeriod;
  readonly forced: boolean;
  readonly unformed: boolean;
  readonly save: boolean;
  readonly crossAtEnd: boolean;
  /** User id of whoever gives the order. */
  readonly givenBy?: string;
}

/** The half from which the preview has the army march fatigued, and why (the tick's own reason). */
export interface PlannedFatigue {
  readonly dayOffset: number;
  readonly half: HalfName;
  readonly reason: FatigueReason;
}

/** A validated move and its preview. */
export interface MovePlan {
  readonly armyId: string;
  readonly steps: readonly PlannedStep[];
  /** When moving first fatigues an army not fatigued yet, within the days the preview shows. */
  readonly fatigue?: PlannedFatigue;
  readonly warnings: readonly MoveWarning[];
  /** Points the whole route costs (multi-day crossings excluded). */
  readonly totalPoints: number;
  /** Days the order needs (1 = today only). */
  readonly days: number;
  readonly order: MoveOrder;
}
