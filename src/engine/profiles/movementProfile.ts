import { MOVE_POINTS } from '../forces/index.js';
import type { Terrain } from '../map/index.js';

/**
 * Movement profiles: the numbers and rule choices that differ between campaign systems, as data.
 * The rules read a profile's values and choices; none of them asks which profile it is. The
 * Valormr rules (000) are the default; the ACKS army-movement rules (004) are the other one.
 */

export const MOVEMENT_PROFILE_IDS = ['valormr', 'acks'] as const;
export type MovementProfileId = (typeof MOVEMENT_PROFILE_IDS)[number];

/** The land terrains an army may march into. */
export type LandTerrain = Exclude<Terrain, 'coast' | 'sea'>;
export const LAND_TERRAINS: readonly LandTerrain[] = ['clear', 'forest', 'hill', 'swamp', 'mountain'];

/** An exact fraction (2/3 has no exact decimal: costs and points are multiplied, then rounded). */
export interface Fraction {
  readonly num: number;
  readonly den: number;
}

/** Points by the classes every scenario names. */
export interface ClassRates {
  readonly infantry: number;
  readonly cavalry: number;
  readonly courier: number;
}

/** One row of a speed table: troops moving `feet` a turn march `points` miles (points) a day. */
export interface SpeedRow {
  readonly feet: number;
  readonly points: number;
}

/** What an army's daily points come from. */
export interface RateRules {
  /** Daily points by movement class: the rate of troops with no stated speed. */
  readonly byClass: ClassRates;
  /** Speeds stated per regiment or company (feet a turn) read through this table; absent: not read. */
  readonly bySpeed?: readonly SpeedRow[];
  /** War machines' speeds (feet a turn) assembled and disassembled; absent: machines march as their class. */
  readonly warMachines?: { readonly assembled: number; readonly disassembled: number };
}

/** Hex entry costs: by terrain, and the factor along a road or a track link. */
export interface TerrainRules {
  readonly costs: Readonly<Record<LandTerrain, number>>;
  /** Multiplier on the cost along a road link (Valormr x2/3; ACKS's road speed x1.5 is the same). */
  readonly road: Fraction;
  readonly track: Fraction;
}

/**
 * How many days of marching an army may string together.
 * - consecutive: at most `most` days of movement in a row; a day without movement resets the
 *   count; fatigue ends after a full day of rest (Valormr: six).
 * - window: at most `most` marching days in any `days` days; fatigue lasts until the window
 *   holds no more than `most` again and the army rested the day before (ACKS: four in seven).
 */
export type MarchingDaysRule =
  | { readonly kind: 'consecutive'; readonly most: number }
  | { readonly kind: 'window'; readonly days: number; readonly most: number };

export interface RestRules {
  /**
   * The rest counted in half periods: yesterday's rest restores today's points (a period of rest:
   * all, one half: half), and moving after `restMoveLimit` half periods without two consecutive
   * halves of rest fatigues. Absent: a day's points are the day's, whatever the night held.
   */
  readonly halfPeriods?: { readonly restMoveLimit: number };
  readonly marchingDays: MarchingDaysRule;
  /** Tireless troops (constructs) owe no rest: neither the marching-days rule nor the day after a forced march. */
  readonly tirelessExempt: boolean;
}

/**
 * Overland weather reductions: the factor each condition puts on the daily points, and whether
 * several conditions take the largest reduction only or multiply (50 % x 50 % = 25 %). A
 * factor of 1 is no effect. Drought, when the referee plays it, brings its own factor.
 */
export interface WeatherRules {
  readonly combine: 'largest' | 'multiply';
  readonly hardRain: number;
  readonly highWinds: number;
  /** A gale (high winds on land, in Valormr). */
  readonly gale: number;
  /** From a rain level on: a factor (0: no overland movement). Highest level first. */
  readonly rainLevels: readonly { readonly fromLevel: number; readonly factor: number }[];
  /** Contact dice modifier for each army while it rains hard (ACKS rainy: reconnaissance). */
  readonly reconnaissanceInHardRain: number;
  /** Missile hits lost on the tabletop in high winds or a gale (Valormr: one hit fewer). */
  readonly windMissileHits: number;
  /** Penalty to missile attack throws by condition (ACKS), for the briefing; absent: none. */
  readonly missileAttack?: { readonly hardRain: number; readonly highWinds: number; readonly gale: number };
  /** The factor a temperature of the season puts on the daily points (ACKS: frigid, sweltering); absent: the profile ignores temperature. */
  readonly temperature?: Readonly<Partial<Record<'frigid' | 'cold' | 'moderate' | 'sweltering', number>>>;
}

/** Large armies (ACKS): size in brigades to column length (miles) and speed multiplier. */
export interface SizeRow {
  /** Fewest brigades of the row. */
  readonly from: number;
  readonly columnMiles: number;
  readonly multiplier: Fraction;
}

export interface MovementProfile {
  readonly id: MovementProfileId;
  readonly name: string;
  /** The rule text it comes from. */
  readonly source: string;
  readonly rates: RateRules;
  readonly terrain: TerrainRules;
  /** Flying creatures pay clear cost everywhere and ignore rivers (the campaign's house setting). */
  readonly flyingIgnoresTerrain: boolean;
  readonly rest: RestRules;
  /** Multiplier on the daily points of a fatigued army (1: fatigue slows nothing on the map). */
  readonly fatiguedFactor: Fraction;
  /**
   * Forced march: the multiplier on the daily points; a rest day is owed after it either way. A
   * forced march declared before the day's march began adds `declaredEarlyDeployment` to the
   * deployment dice of a battle that day (ACKS's initiative bonus; 0: none).
   */
  readonly forcedMarch: { readonly factor: Fraction; readonly declaredEarlyDeployment: number };
  /**
   * Points a marching army could not spend for want of enough to enter its next hex carry to the
   * next day (a slow army covers the hex over several days); otherwise only an explicit save
   * order keeps them, for one day.
   */
  readonly carryUnspent: boolean;
  readonly weather: WeatherRules;
  /** Large armies: absent, size never slows an army. */
  readonly size?: { readonly table: readonly SizeRow[]; readonly brigadesPerRegiment: number };
  /** Armies may split into divisions and merge again (by the referee, or the commanders too). */
  readonly divisions?: { readonly commanders: boolean };
  /**
   * Where the text stops: the Valormr rules the engine still applies under this profile because
   * the text says nothing of them, and the text's rules the bot does not play. What
   * `/rules topic:profile` says of the profile's boundaries (docs/rulings.md has the table).
   */
  readonly boundaries?: { readonly keptFromValormr: readonly string[]; readonly notPlayed: readonly string[] };
  /** Identifies the terrain costs of the profile (route-search caches key on it; flying is keyed by the army). */
  readonly key: string;
}

const third = (n: number): Fraction => ({ num: n, den: 3 });
const ONE: Fraction = { num: 1, den: 1 };

/** Valormr's terrain costs. @see 000 Terrain Effects: Movement by Terrain Type */
const VALORMR_TERRAIN: TerrainRules = {
  costs: { clear: 6, forest: 9, hill: 9, swamp: 9, mountain: 12 },
  road: third(2),
  track: ONE,
};

/**
 * The Valormr rules (000): class rates, daily and weekly rest in half periods and days, a forced
 * march +50 % with the next day's rest, fatigue -25 %, weather reductions that do not multiply.
 * @see 000 Overland Travel; 000 Hard Rain; RULINGS 2a, 4
 */
export const VALORMR_PROFILE: MovementProfile = {
  id: 'valormr',
  name: 'Valormr',
  source: '000',
  rates: { byClass: MOVE_POINTS },
  terrain: VALORMR_TERRAIN,
  flyingIgnoresTerrain: true,
  rest: { halfPeriods: { restMoveLimit: 4 }, marchingDays: { kind: 'consecutive', most: 6 }, tirelessExempt: false },
  fatiguedFactor: { num: 3, den: 4 },
  forcedMarch: { factor: { num: 3, den: 2 }, declaredEarlyDeployment: 0 },
  carryUnspent: false,
  weather: {
    combine: 'largest',
    hardRain: 0.75,
    highWinds: 1,
    gale: 1,
    rainLevels: [{ fromLevel: 4, factor: 0 }, { fromLevel: 3, factor: 0.5 }],
    reconnaissanceInHardRain: 0,
    windMissileHits: -1,
  },
  key: 'valormr',
};

/**
 * Expedition speeds (004): exploration speed in feet a turn to miles (points) a day; 6-mile hexes,
 * 1 point = 1 mile. @see 004 Moving Armies
 */
export const EXPEDITION_SPEEDS: readonly SpeedRow[] = Array.from({ length: 12 }, (_, i) => ({ feet: 30 * (i + 1), points: 6 * (i + 1) }));

/** Movement of large armies (004): brigades to column length and speed multiplier. */
export const LARGE_ARMIES: readonly SizeRow[] = [
  { from: 33, columnMiles: 12, multiplier: { num: 1, den: 3 } },
  { from: 27, columnMiles: 9, multiplier: { num: 1, den: 2 } },
  { from: 16, columnMiles: 6, multiplier: { num: 2, den: 3 } },
  { from: 0, columnMiles: 3, multiplier: ONE },
];

/**
 * The ACKS army-movement rules (004) on the hex map: 1 point = 1 mile, 6-mile hexes, Valormr's
 * terrain costs (004 prints only the road's x1.5, which is Valormr's x2/3 cost); daily points from
 * exploration speeds (troops without a stated speed: infantry 60', cavalry 120', couriers 240');
 * rest three days in seven, tireless troops exempt; forced march +50 % and a day of rest after it
 * (+2 on the deployment dice when declared before the day's march); fatigue does not slow the
 * march; large armies slowed by brigades; severe weather halves or quarters, and multiplies.
 * @see 004 Moving Armies; Rest and Recuperation; Forced Marching; Movement of Large Armies;
 *   Movement of War Machines; Effects of Weather Conditions
 */
export const ACKS_PROFILE: MovementProfile = {
  id: 'acks',
  name: 'ACKS army movement',
  source: '004',
  rates: {
    byClass: MOVE_POINTS,
    bySpeed: EXPEDITION_SPEEDS,
    warMachines: { assembled: 30, disassembled: 60 },
  },
  terrain: VALORMR_TERRAIN,
  flyingIgnoresTerrain: true,
  rest: { marchingDays: { kind: 'window', days: 7, most: 4 }, tirelessExempt: true },
  fatiguedFactor: ONE,
  forcedMarch: { factor: { num: 3, den: 2 }, declaredEarlyDeployment: 2 },
  carryUnspent: true,
  weather: {
    combine: 'multiply',
    hardRain: 0.5,
    highWinds: 0.5,
    gale: 0.25,
    rainLevels: [],
    reconnaissanceInHardRain: -1,
    windMissileHits: 0,
    missileAttack: { hardRain: -2, highWinds: -2, gale: -4 },
    temperature: { frigid: 0.5, sweltering: 0.5 },
  },
  size: { table: LARGE_ARMIES, brigadesPerRegiment: 1 },
  divisions: { commanders: false },
  boundaries: {
    keptFromValormr: ['the terrain costs but the road\'s', 'formed troops kept out of forest, swamp and mountain off road', 'night movement', 'rivers and their crossings', 'rain closing fords and ferries'],
    notPlayed: ['temperature\'s disease, grazing, armour and morale effects (its halving of speed is played, from the referee\'s `temperature` setting)', 'supply', 'weekly turns on 24-mile hexes'],
  },
  key: 'acks',
};

export const MOVEMENT_PROFILES: Readonly<Record<MovementProfileId, MovementProfile>> = { valormr: VALORMR_PROFILE, acks: ACKS_PROFILE };

/** The referee's choices that adjust a profile (campaign settings). */
export interface ProfileChoices {
  readonly profile: MovementProfileId;
  readonly flyingIgnoresTerrain: boolean;
  /** The referee's terrain costs, replacing the profile's (004 prints none but the road's). */
  readonly terrainCosts?: Readonly<Partial<Record<LandTerrain, number>>>;
  /** Brigades per regiment for the large-army rule (default 1). */
  readonly brigadesPerRegiment: number;
  /** Commanders may split and merge their own armies (else the referee only). */
  readonly commanderDivisions: boolean;
}

const resolved = new WeakMap<object, MovementProfile>();

/**
 * The movement profile a campaign plays by: the chosen profile with the referee's choices
 * applied (flying, a terrain table, brigades per regiment, who may split armies). The same
 * settings object gives the same profile object (cached), so callers may call it freely.
 */
export function movementProfile(choices: ProfileChoices): MovementProfile {
  const hit = resolved.get(choices);
  if (hit) return hit;
  const base = MOVEMENT_PROFILES[choices.profile] ?? VALORMR_PROFILE;
  const costs = { ...base.terrain.costs, ...(choices.terrainCosts ?? {}) };
  const size = base.size ? { ...base.size, brigadesPerRegiment: choices.brigadesPerRegiment } : undefined;
  const profile: MovementProfile = {
    ...base,
    terrain: { ...base.terrain, costs },
    flyingIgnoresTerrain: choices.flyingIgnoresTerrain,
    ...(size ? { size } : {}),
    ...(base.divisions ? { divisions: { commanders: choices.commanderDivisions } } : {}),
    key: [base.id, LAND_TERRAINS.map((t) => costs[t]).join(','), `${base.terrain.road.num}/${base.terrain.road.den}`, `${base.terrain.track.num}/${base.terrain.track.den}`].join('|'),
  };
  resolved.set(choices, profile);
  return profile;
}

/** Multiplies and drops the fraction (points and costs are whole). */
export function times(n: number, f: Fraction): number {
  return Math.floor((n * f.num) / f.den);
}

/** Multiplies and rounds up (a cost never gets cheaper than the table says by rounding). */
export function timesUp(n: number, f: Fraction): number {
  return Math.ceil((n * f.num) / f.den);
}
