import { fromInches, type LengthUnit, toInches } from '../profiles/index.js';
import { BASELINE_COUNT, MIN_TABLE_WIDTH, NARROW_TABLE_EXCEPTION, PRECALCULATED_INTERVALS } from './tables.js';
import type { BaselineLayout } from '../state/index.js';

/** Rounds to the nearest half, halves rounding up (2.25 -> 2.5, 1.75 -> 2). */
export function roundToHalf(x: number): number {
  return Math.round(x * 2) / 2;
}

/** The precalculated interval for a table width, or undefined outside the table. */
export function precalculatedInterval(tableWidth: number): number | undefined {
  return PRECALCULATED_INTERVALS.find((row) => tableWidth >= row.from && tableWidth <= row.to)?.interval;
}

/**
 * Baselines from the table width T and the short bow range R, in the tactical profile's unit:
 * Bf = (T - R) / 2 from each edge, Bi = Bf / 7 rounded to the nearest half unit (1.75" for
 * tables of 32 to 35 inches, in centimetres 4.5), five more baselines behind the forward one at
 * Bi. The inch-sized checks of the text (the narrow-table exception, the least width, the
 * precalculated table) are made on the width in inches.
 * @see 001 Deployment: Calculate Forward Baselines; Calculate Baseline Intervals; Minimum Distance
 * Behind Rear Baseline
 */
export function baselines(tableWidth: number, shortBowRange: number, unit: LengthUnit = 'inch'): BaselineLayout {
  const inches = toInches(tableWidth, unit);
  const forward = (tableWidth - shortBowRange) / 2;
  const narrowException = inches >= NARROW_TABLE_EXCEPTION.from && inches <= NARROW_TABLE_EXCEPTION.to;
  const exception = unit === 'inch' ? NARROW_TABLE_EXCEPTION.interval : roundToHalf(fromInches(NARROW_TABLE_EXCEPTION.interval, unit));
  const interval = narrowException ? exception : roundToHalf(forward / 7);
  const exact = (x: number): number => (unit === 'inch' ? x : Math.round(x * 100) / 100);
  const distances = Array.from({ length: BASELINE_COUNT }, (_, i) => exact(forward - i * interval));
  const behindRear = distances[BASELINE_COUNT - 1] ?? 0;
  const notes: string[] = [];
  if (inches < MIN_TABLE_WIDTH) notes.push(`The baseline formula is meant for tables at least ${MIN_TABLE_WIDTH} inches wide${unit === 'inch' ? '' : ` (${fromInches(MIN_TABLE_WIDTH, unit)} cm)`}.`);
  // The precalculated table assumes a 7.5 inch short bow; compare only then.
  const precalculated = unit === 'inch' && shortBowRange === 7.5 ? precalculatedInterval(tableWidth) : undefined;
  if (precalculated !== undefined && precalculated !== interval) {
    notes.push(`The precalculated table gives ${precalculated} inches for this width; the formula gives ${interval}.`);
  }
  return {
    ...(unit === 'inch' ? {} : { unit }),
    tableWidth,
    shortBowRange,
    forward,
    interval,
    narrowException,
    distances,
    behindRear,
    ...(precalculated !== undefined ? { precalculated } : {}),
    notes,
  };
}
