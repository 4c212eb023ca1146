import type { Hex } from '../hex/index.js';
import type { Terrain } from '../map/index.js';

/**
 * The force model. One commander figure on the strategic map stands for a whole army; an army is
 * a list of regiments; a regiment is a list of companies (figures of one troop type). One figure
 * is 40 troops. Individuals (leaders, heroes, wizards, trolls, the dragon) are not troop figures.
 * @see 000 Orders of March: Composition of Forces
 */
export type MovementClass = 'infantry' | 'cavalry' | 'courier' | 'creature';
export type Sight = 'light' | 'dark';
export type RegimentRole = 'assault' | 'support' | 'reserve';
export type Formation = 'formed' | 'unformed';

/** Daily move points by movement class. @see 000 Overland Travel: Move Rates */
export const MOVE_POINTS: Readonly<Record<Exclude<MovementClass, 'creature'>, number>> = {
  infantry: 12,
  cavalry: 24,
  courier: 48,
};

export const TROOPS_PER_FIGURE = 40;

export interface Company {
  /** Troop type as the scenario names it, e.g. "heavy foot", "longbow", "boar riders". */
  readonly troopType: string;
  /** Basic type used by the contact table's lowest composition level. */
  readonly basic: 'infantry' | 'cavalry';
  readonly figures: number;
  /** Exploration speed in feet a turn, when the scenario states one (read by profiles with a speed table). */
  readonly speed?: number;
  /** War machines (artillery, rams, towers): they move at the profile's machine speeds. @see 004 Movement of War Machines */
  readonly warMachine?: boolean;
  /** Troops that need no rest (constructs). @see 004 Rest and Recuperation: Tireless Troops */
  readonly tireless?: boolean;
  /** Trained and designated as skirmishers (open order on the tabletop). @see 002 Formations: Open order */
  readonly skirmishers?: boolean;
}

export interface Regiment {
  readonly id: string;
  readonly name: string;
  readonly role: RegimentRole;
  /** Figures at the start of the campaign (or after reconstitution). */
  readonly originalFigures: number;
  /** Companies with their current figures. */
  readonly companies: readonly Company[];
  /** Exploration speed in feet a turn for every company without its own. */
  readonly speed?: number;
}

export interface Individual {
  readonly id: string;
  readonly name: string;
  /** leader, hero, wizard, troll, dragon, ... */
  readonly kind: string;
  /** Own daily move points for creatures that do not march in formation. */
  readonly movePoints?: number;
  readonly flying?: boolean;
}

/** Terrain an army crosses at clear cost: a terrain type everywhere, or a named region only. */
export interface HomeTerrain {
  readonly terrain: Terrain;
  /** When set, only hexes of this map region count (the Ellriendi forest). */
  readonly region?: string;
}

/** A commander's presence at the table, for one army. @see docs/rulings.md (Absence) */
export interface ArmySeat {
  readonly missed: number;
  readonly acted?: boolean;
  readonly standing?: boolean;
  /** The referee offered the seat (`/seat offer`): the offer's number, carried by its Claim button. */
  readonly offer?: number;
  /** A substitute holds the seat: who held it before (the referee can give it back), and since when (a time index). */
  readonly substitute?: SeatSubstitute;
  /** The commander said they are away until then (an ISO time, `/away`): standing orders, no absence counted. */
  readonly awayUntil?: string;
}

/** Who held a seat before its substitute. */
export interface SeatSubstitute {
  readonly userId: string;
  readonly since: number;
  readonly previous: readonly { readonly userId: string; readonly name: string }[];
}

export interface Army {
  readonly id: string;
  readonly name: string;
  readonly commander: string;
  readonly side: string;
  readonly hex: Hex;
  /** Which bank of the river the army stands on, when its hex holds a river. */
  readonly bank?: 'left' | 'right';
  readonly movementClass: MovementClass;
  /** Overrides the class's daily points (individual fantastic creatures). */
  readonly baseMovePoints?: number;
  readonly flying?: boolean;
  readonly sight: Sight;
  /** Prefers to move at night (goblins, kobolds, orcs). */
  readonly nocturnal: boolean;
  readonly homeTerrain?: HomeTerrain;
  /** The whole army needs no rest (constructs). @see 004 Rest and Recuperation: Tireless Troops */
  readonly tireless?: boolean;
  /** Its war machines, assembled or not (armies with war-machine companies). @see 004 Movement of War Machines */
  readonly warMachines?: WarMachines;
  /** A division: the army it split from first (divisions of divisions name the same one). @see 004 Movement of Large Armies */
  readonly divisionOf?: string;
  readonly regiments: readonly Regiment[];
  readonly individuals: readonly Individual[];
  readonly scouts: number;
  /** Vessels the army owns, by kind. */
  readonly vessels: Readonly<Record<string, number>>;
  readonly armyPoints?: number;
  readonly formation: Formation;
  /** Public flags for the map: fatigued, in contact, in battle. */
  readonly status: ArmyStatus;
  /**
   * The table's bookkeeping of its commander's presence: half periods in a row without orders or
   * answers, whether they acted in the current one, and whether the army is under standing orders
   * (absent). Set by the app; the plans read `standing`.
   */
  readonly seat?: ArmySeat;
  /** Rules bookkeeping owned by the movement engine (points, rest, fatigue, operations). */
  readonly march: MarchState;
}

/**
 * An army's war machines: assembled (ready to fight, slow) or disassembled (faster, not usable in
 * a battle), and the work of changing over, done at daybreak of `readyDay`.
 * @see 004 Movement of War Machines
 */
export interface WarMachines {
  readonly state: 'assembled' | 'disassembled';
  readonly changing?: { readonly to: 'assembled' | 'disassembled'; readonly readyDay: number };
}

export interface ArmyStatus {
  readonly fatigued: boolean;
  readonly inContact: boolean;
  readonly inBattle: boolean;
  readonly destroyed: boolean;
  readonly embarked: boolean;
}

/**
 * Movement bookkeeping, owned by src/engine/movement. Counters are in game time (days, half
 * periods) so rest, fatigue and the weekly limit follow from state alone.
 * @see 000 Overland Travel: Daily Rest, Weekly Rest, Forced March, Fatigued
 */
export interface MarchState {
  /** Points left in the current 24-hour turn, as of the last bookkeeping (for status). */
  readonly pointsLeft: number;
  /** Points spent so far in the current turn. */
  readonly spentToday: number;
  /** Points spent so far in the current period (day or night). */
  readonly spentPeriod: number;
  /** Points explicitly saved from the previous day (part of today's points). */
  readonly savedPoints: number;
  /** Share of the daily points recovered by yesterday's rest: 1, 0.5 or 0. */
  readonly restFactor: number;
  /** Consecutive days with movement before today (weekly rest rule). */
  readonly daysMarched: number;
  /** Whether the army moved on each of its recent days, oldest first, the last fourteen (marching-days windows). */
  readonly recentDays: readonly boolean[];
  /** What the army did in its recent half periods, oldest first; kept to the last 12. */
  readonly recentHalves: readonly HalfActivity[];
  /** The army entered a hex or crossed a river today. */
  readonly movedToday: boolean;
  /** The army moved unformed today (stragglers are rolled at the day's end). */
  readonly unformedToday: boolean;
  /** Today's order asked to save unspent points for tomorrow. */
  readonly saveRequested: boolean;
  /** Saving is void today: the army halted short of its path or made contact. */
  readonly saveLost: boolean;
  /** Daily points available today (for saving at day's end). */
  readonly allowanceToday: number;
  /** Day number of the last forced march; the next day must be rest. */
  readonly forcedMarchDay?: number;
  /** That forced march was ordered before the day's march began (ACKS: before initiative). */
  readonly forcedMarchEarly?: boolean;
  /** Today the march stopped for want of the points to enter its next hex (profiles that carry unspent points). */
  readonly shortOfPoints?: boolean;
  /** Why the army is fatigued, for status. */
  readonly fatigueReason?: FatigueReason;
  /** Consecutive full days of rest before today. */
  readonly restDays: number;
  /** Stragglers following an unformed march, by regiment and company. */
  readonly stragglers: readonly Straggler[];
  /** Hex where the army rallies after unformed movement. */
  readonly rallyPoint?: Hex;
  /** A multi-day crossing the army is committed to (ferry, rafts). */
  readonly operation?: Operation;
  /** River hexes where timber ran out: rafts cannot be built there. */
  readonly noRaftHexes: readonly Hex[];
  /**
   * The last half period (time index `at`) in which a rule other than a march made the army move
   * or spend move points (`moved`: an avoid, a displacement, an exploit, a switch, a maneuver), or
   * disengage without moving (an evade). The rest books count such a half period as movement, or
   * at least not as rest. @see 001 Avoid, Evade, Delay, and Withdraw: No Rest
   */
  readonly activeHalf?: { readonly at: number; readonly moved: boolean };
}

/**
 * Why an army became fatigued: a forced march yesterday and no rest today, a seventh day of
 * marching in a row, moving in half periods for more than two periods without two consecutive
 * half periods of rest, more marching days in a window than the profile allows (ACKS: four in
 * seven), or the referee's word. @see 000 Overland Travel: Daily Rest, Weekly Rest,
 * Forced March, Fatigued
 */
export type FatigueReason = 'forcedMarch' | 'seventhDay' | 'noLongRest' | 'marchWindow' | 'referee';

/**
 * What an army did in one half period, as the rest and fatigue rules count it: moved (entered a
 * hex, crossed a river, rowed or sailed its own vessels, spent move points by a contact rule),
 * worked at a multi-day crossing, rested, or was taken up by a contact without marching (a
 * battle, a delay, an evade: neither rest nor movement). @see 000 Overland Travel: Daily Rest;
 * 001 Avoid, Evade, Delay, and Withdraw: No Rest; RULINGS 4
 */
export type HalfActivity = 'moved' | 'worked' | 'rested' | 'battle';

/** Figures of one company that fell behind on an unformed march. */
export interface Straggler {
  readonly regimentId: string;
  readonly company: number;
  readonly figures: number;
}

/**
 * A multi-day river crossing. Progress is counted in half periods (four to a day).
 * @see 000 Terrain Effects: Ferries, Major Rivers
 */
export interface Operation {
  readonly kind: 'ferry' | 'rafts';
  readonly hex: Hex;
  readonly fromBank?: 'left' | 'right';
  readonly toBank?: 'left' | 'right';
  /** GameTime index (timeIndex) of the half period the operation began. */
  readonly startedAt: number;
  /** Half periods of work in total and still to go. */
  readonly totalHalves: number;
  readonly remainingHalves: number;
  /** Rafts: collecting timber, building, crossing. Ferry: crossing. */
  readonly phase: 'timber' | 'build' | 'cross';
}

export const FRESH_STATUS: ArmyStatus = { fatigued: false, inContact: false, inBattle: false, destroyed: false, embarked: false };

export const FRESH_MARCH: MarchState = {
  pointsLeft: 0,
  spentToday: 0,
  spentPeriod: 0,
  savedPoints: 0,
  restFactor: 1,
  daysMarched: 0,
  recentDays: [],
  recentHalves: [],
  movedToday: false,
  unformedToday: false,
  saveRequested: false,
  saveLost: false,
  allowanceToday: 0,
  restDays: 0,
  stragglers: [],
  noRaftHexes: [],
};

/**
 * A force that is not a scenario army (a courier riding alone, a probe of the rules): no
 * regiments, formed, light-sighted, fresh; `fields` say the rest.
 */
export function loneForce(fields: Pick<Army, 'id' | 'name' | 'side' | 'hex' | 'movementClass'> & Partial<Army>): Army {
  return {
    commander: '',
    sight: 'light',
    nocturnal: false,
    regiments: [],
    individuals: [],
    scouts: 0,
    vessels: {},
    formation: 'formed',
    status: FRESH_STATUS,
    march: FRESH_MARCH,
    ...fields,
  };
}

export function regimentFigures(r: Regiment): number {
  return r.companies.reduce((n, c) => n + c.figures, 0);
}

/** Strength of a regiment: current figures as a whole percentage of its original count. */
export function regimentStrength(r: Regiment): number {
  if (r.originalFigures <= 0) return 0;
  return Math.round((regimentFigures(r) / r.originalFigures) * 100);
}

/** Troop figures of the whole army; individuals do not count. @see RULINGS 3 contested hexes */
export function troopFigures(a: Army): number {
  return a.regiments.reduce((n, r) => n + regimentFigures(r), 0);
}

export function assaultRegiment(a: Army): Regiment | undefined {
  return a.regiments.find((r) => r.role === 'assault' && regimentFigures(r) > 0) ?? a.regiments.find((r) => regimentFigures(r) > 0);
}

/** Number of regiments that still have figures. */
export function regimentCount(a: Army): number {
  return a.regiments.filter((r) => regimentFigures(r) > 0).length;
}

export function isHostile(sides: Readonly<Record<string, SideInfo>>, a: string, b: string): boolean {
  if (a === b) return false;
  return (sides[a]?.hostileTo.includes(b) ?? false) || (sides[b]?.hostileTo.includes(a) ?? false);
}

export interface SideInfo {
  readonly id: string;
  readonly name: string;
  readonly colour: string;
  readonly hostileTo: readonly string[];
}
