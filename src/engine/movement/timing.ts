import type { GameTime } from '../clock/index.js';
import type { HalfName } from './types.js';
import type { MovePeriod } from '../state/index.js';

/**
 * When a hex is entered: in the first half of the period if the points spent so far in the
 * period, this hex included, are at most half the period's points; otherwise in the second half.
 * @see RULINGS 2 Time
 */
export function inFirstHalf(spentIncludingStep: number, periodPoints: number): boolean {
  return spentIncludingStep * 2 <= periodPoints;
}

/** The name of a half period: the first or second half of the day or night period. */
export function halfName(night: boolean, first: boolean): HalfName {
  if (night) return first ? 'evening' : 'night';
  return first ? 'morning' : 'afternoon';
}

/** Whether an order for `period` moves during the half period `t`. */
export function periodActive(period: MovePeriod, t: GameTime): boolean {
  if (period === 'split') return true;
  return period === 'night' ? t.half >= 2 : t.half < 2;
}

/** Morning and evening open a period; afternoon and night close it. */
export function isFirstHalfOfPeriod(t: GameTime): boolean {
  return t.half === 0 || t.half === 2;
}

export function isNightHalf(t: GameTime): boolean {
  return t.half >= 2;
}
