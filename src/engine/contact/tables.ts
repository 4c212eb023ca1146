import type { ContactTableRow, DeployUnit, LossCell, MarchFormation, ScoutOutcome, TerrainCard } from '../state/index.js';

/**
 * Contact and deployment tables, as data. Every number here comes from the rule texts; the
 * functions that read them live next door (estimate.ts, disengage.ts, deployment.ts, terrain.ts).
 * A referee who wants different tables replaces the data, not the code.
 */

/** Scout table by d6 (index 0 = a roll of 1). Captured helps the captor, success the owner. */
export const SCOUT_TABLE: readonly ScoutOutcome[] = ['captured', 'killed', 'unsuccessful', 'unsuccessful', 'successful', 'successful'] as const;

/**
 * The most scouts an army may have deployed at a contact. The texts set no number ("multiple
 * scouts may be deployed"; a scout costs no army points): this is only a sane bound, above which
 * another scout adds nothing but one more chance of being captured.
 * @see 000 Scouts Out
 */
export const SCOUT_LIMIT = 6;
/** The weather modifier's label; its value is the profile's. @see 004 Effects of Weather Conditions */
export const WEATHER_CONTACT_LABEL = 'rain limits reconnaissance';

/**
 * Contact table by the modified contact die, clamped to 1-6 (index 0 = 1 or less).
 * @see 001 Contact Dice: Contact Table
 */
export const CONTACT_TABLE: readonly ContactTableRow[] = [
  { awareness: 'unaware', size: 'none', composition: 'none' },
  { awareness: 'aware', size: 'none', composition: 'none' },
  { awareness: 'estimate', size: 'pm50', composition: 'basic' },
  { awareness: 'estimate', size: 'pm25', composition: 'types' },
  { awareness: 'estimate', size: 'pm10', composition: 'proportions' },
  { awareness: 'estimate', size: 'accurate', composition: 'exact' },
] as const;

/**
 * Size estimation table: 2d6 (index 0 = 2) to a percentage error, one column per size band.
 * Weighted toward accuracy. @see 001 Contact Dice: Size Estimation Table
 */
export const SIZE_ESTIMATION_TABLE: Readonly<Record<'pm50' | 'pm25' | 'pm10', readonly number[]>> = {
  pm50: [-50, -40, -30, -20, -10, 0, 10, 20, 30, 40, 50],
  pm25: [-25, -20, -15, -10, -5, 0, 5, 10, 15, 20, 25],
  pm10: [-10, 0, -10, -5, -5, 0, 5, 5, 10, 0, 10],
} as const;
/** The kinds of card, in table order. */
export const TERRAIN_CARD_KINDS: readonly TerrainCard[] = ['hill', 'woods', 'marsh', 'river', 'stream', 'pond', 'gully', 'roughGround', 'blank'];

/** Cards each commander draws in terrain reconnaissance (the winner may draw more in one turn). */
export const TERRAIN_CARDS_EACH = 4;
export type LossColumn = 'delay' | 'evade' | 'avoid';

const L = (percent: number, displaced = false): LossCell => ({ percent, displaced, destroyed: false });
const DESTROYED: LossCell = { percent: 100, displaced: false, destroyed: true };

/** A row of the losses table: the lowest difference it covers (rows are ordered high to low). */
export interface LossRow {
  readonly minDifference: number;
  readonly delay: LossCell;
  readonly evade: LossCell;
  readonly avoid: LossCell;
}

/**
 * Disengagement Losses Table: difference (own modified die minus the opponent's) to losses by
 * operation. Rows from best to worst; a difference belongs to the first row whose minimum it
 * reaches. @see 001 Avoid, Evade, Delay, and Withdraw: Disengagement Losses Table
 */
export const LOSSES_TABLE: readonly LossRow[] = [
  { minDifference: 8, delay: L(0), evade: L(0), avoid: L(0) },
  { minDifference: 4, delay: L(5), evade: L(0), avoid: L(0) },
  { minDifference: 0, delay: L(10), evade: L(5), avoid: L(0) },
  { minDifference: -4, delay: L(25), evade: L(10), avoid: L(5) },
  { minDifference: -7, delay: L(30), evade: L(25), avoid: L(10) },
  { minDifference: -8, delay: L(50, true), evade: L(30), avoid: L(25) },
  { minDifference: -9, delay: L(75, true), evade: L(50, true), avoid: L(30) },
  { minDifference: -10, delay: DESTROYED, evade: L(75, true), avoid: L(50, true) },
  { minDifference: -11, delay: DESTROYED, evade: DESTROYED, avoid: L(75, true) },
  { minDifference: -Infinity, delay: DESTROYED, evade: DESTROYED, avoid: DESTROYED },
] as const;

/**
 * Disengagement modifiers by category; a commander applies only the best one of each category.
 * @see 001 Avoid, Evade, Delay, and Withdraw: Disengagement Modifiers Table
 */
export const DISENGAGE_MODIFIERS = {
  formation: { formed: 2, retreat: -1, rout: -2 },
  tactics: { maneuver: 1, aggressivePursuit: 2, rearguard: 2 },
  cavalry: { cavalry: 1, freshCavalry: 2 },
  condition: { fatigued: -1 },
  size: { larger: 1, supported: 1 },
  strength: { halfOrLess: -1 },
  terrain: { favorable: 1, unfavorable: -1 },
} as const;

/** Deployment dice modifiers; the score is clamped to 1-6. @see 001 Deployment: Deployment Dice Modifiers */
export const DEPLOYMENT_MODIFIERS = {
  highestContact: { value: 1, label: 'highest unmodified contact dice' },
  contactOneOrLess: { value: -1, label: 'scored 1 or less on the modified contact dice' },
  maneuver: { value: 1, label: 'maneuver' },
  opponentsClear: { value: 1, label: 'all opponents in clear terrain' },
  opponentsMountain: { value: -1, label: 'all opponents in mountain terrain' },
} as const;
export type DeploymentModifierCode = keyof typeof DEPLOYMENT_MODIFIERS;
/**
 * The label of the deployment modifier a movement profile gives a forced march declared before
 * the day's march (ACKS: +2 initiative); its value is the profile's. @see 004 Forced Marching
 */
export const FORCED_MARCH_EARLY_LABEL = 'forced march declared before the day\'s march';

export interface DeploymentScheduleRow {
  readonly label: string;
  readonly base: { readonly count: number; readonly unit: DeployUnit };
  readonly turn: { readonly count: number; readonly unit: DeployUnit };
}

/**
 * Base and turn deployment by march formation. @see 001 Deployment: Summary of Orders of March
 * and Deployment Schedules by Terrain; 000 Prebattle Formation: Base deployment
 */
export const DEPLOYMENT_SCHEDULE: Readonly<Record<MarchFormation, DeploymentScheduleRow>> = {
  figures2x20: { label: 'column of figures (2 x 20 troops)', base: { count: 1, unit: 'company' }, turn: { count: 2, unit: 'company' } },
  figures4x10: { label: 'column of figures (4 x 10 troops)', base: { count: 3, unit: 'company' }, turn: { count: 4, unit: 'company' } },
  companies: { label: 'column of companies', base: { count: 1, unit: 'battalion' }, turn: { count: 1, unit: 'battalion' } },
  battalions: { label: 'column of battalions', base: { count: 1, unit: 'regiment' }, turn: { count: 1, unit: 'regiment' } },
} as const;

/**
 * Precalculated baseline intervals (short bow 150 yards at 20 yards to the inch = 7.5 inches),
 * used as a check of the formula. @see 001 Deployment: Precalculated Intervals by Table Length
 */
export const PRECALCULATED_INTERVALS: readonly { readonly from: number; readonly to: number; readonly interval: number }[] = [
  { from: 28.5, to: 31.5, interval: 1.5 },
  { from: 32, to: 35, interval: 1.75 },
  { from: 35.5, to: 38.5, interval: 2 },
  { from: 39, to: 45.5, interval: 2.5 },
  { from: 46, to: 52.5, interval: 3 },
  { from: 53, to: 59.5, interval: 3.5 },
  { from: 60, to: 66.5, interval: 4 },
  { from: 67, to: Infinity, interval: 4.5 },
] as const;

/** Tables of 32 to 35 inches use this interval instead of the formula's. @see 001 Minimum Distance Behind Rear Baseline */
export const NARROW_TABLE_EXCEPTION = { from: 32, to: 35, interval: 1.75 } as const;
/** The baseline formula is meant for tables at least this wide. */
export const MIN_TABLE_WIDTH = 28.5;
export const BASELINE_COUNT = 6;
