import { BASELINE_COUNT, MIN_TABLE_WIDTH, NARROW_TABLE_EXCEPTION, PRECALCULATED_INTERVALS } from './tables.js';

/** The six baselines of each side on the wargames table. All distances in inches. */
export interface BaselineLayout {
  readonly tableWidth: number;
  readonly shortBowRange: number;
  /** Distance from each table edge to that side's forward baseline: Bf = (T - R) / 2. */
  readonly forward: number;
  /** Interval between baselines: Bf / 7 to the nearest half, or 1.75 on 32-35 inch tables. */
  readonly interval: number;
  /** True when the 32-35 inch exception set the interval. */
  readonly narrowException: boolean;
  /** Distance from the table edge of baseline 1 (forward) to 6 (rear). */
  readonly distances: readonly number[];
  /** Room behind the rear baseline. */
  readonly behindRear: number;
  /** The precalculated table's interval for this width (short bow 7.5 inches), when it has one. */
  readonly precalculated?: number;
  /** Notes for the referee (table too narrow, formula differs from the precalculated table). */
  readonly notes: readonly string[];
}

/** Rounds to the nearest half, halves rounding up (2.25 -> 2.5, 1.75 -> 2). */
export function roundToHalf(x: number): number {
  return Math.round(x * 2) / 2;
}

/** The precalculated interval for a table width, or undefined outside the table. */
export function precalculatedInterval(tableWidth: number): number | undefined {
  return PRECALCULATED_INTERVALS.find((row) => tableWidth >= row.from && tableWidth <= row.to)?.interval;
}

/**
 * Baselines from the table width T and the short bow range R: Bf = (T - R) / 2 from each edge,
 * Bi = Bf / 7 rounded to the nearest half (1.75 for tables of 32 to 35 inches), five more
 * baselines behind the forward one at Bi.
 * @see 001 Deployment: Calculate Forward Baselines; Calculate Baseline Intervals; Minimum Distance
 * Behind Rear Baseline
 */
export function baselines(tableWidth: number, shortBowRange: number): BaselineLayout {
  const forward = (tableWidth - shortBowRange) / 2;
  const narrowException = tableWidth >= NARROW_TABLE_EXCEPTION.from && tableWidth <= NARROW_TABLE_EXCEPTION.to;
  const interval = narrowException ? NARROW_TABLE_EXCEPTION.interval : roundToHalf(forward / 7);
  const distances = Array.from({ length: BASELINE_COUNT }, (_, i) => forward - i * interval);
  const behindRear = distances[BASELINE_COUNT - 1] ?? 0;
  const notes: string[] = [];
  if (tableWidth < MIN_TABLE_WIDTH) notes.push(`The baseline formula is meant for tables at least ${MIN_TABLE_WIDTH} inches wide.`);
  // The precalculated table assumes a 7.5 inch short bow; compare only then.
  const precalculated = shortBowRange === 7.5 ? precalculatedInterval(tableWidth) : undefined;
  if (precalculated !== undefined && precalculated !== interval) {
    notes.push(`The precalculated table gives ${precalculated} inches for this width; the formula gives ${interval}.`);
  }
  return {
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
