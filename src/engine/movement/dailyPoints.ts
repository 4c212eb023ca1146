import { baseDailyPoints, type Army } from '../forces/index.js';
import type { WeatherEffects } from '../weather/index.js';
import type { MovePeriod } from './types.js';

/**
 * Daily move points before saved points: the class rate, +50 % on a forced march, -25 % when
 * fatigued, times the weather factor; fractions are dropped at each step. The share recovered by
 * yesterday's rest (`restFactor`) applies last.
 * @see 000 Overland Travel: Move Rates, Forced March, Fatigued; RULINGS 4 (weather, rest)
 */
export function dailyPoints(army: Army, forced: boolean, weather: WeatherEffects, restFactor = army.march.restFactor): number {
  let p = baseDailyPoints(army);
  if (forced) p = Math.floor(p * 1.5);
  if (army.status.fatigued) p = Math.floor(p * 0.75);
  p = Math.floor(p * weather.overlandFactor);
  return Math.floor(p * restFactor);
}

/** Today's points: the daily points plus points saved yesterday. */
export function todaysPoints(army: Army, forced: boolean, weather: WeatherEffects): number {
  return dailyPoints(army, forced, weather) + army.march.savedPoints;
}

/**
 * Points the army may spend in one period of its order, counted from the period's start: all
 * of today's remaining points for a day or night order; half of today's points in each period
 * for a split order (dark-seeing forces).
 * @see 000 Strategic Movement: Turns and Periods; RULINGS 2
 */
export function periodPoints(today: number, spentBeforePeriod: number, period: MovePeriod, night: boolean): number {
  const left = Math.max(0, today - spentBeforePeriod);
  if (period !== 'split') return left;
  const dayShare = Math.floor(today / 2);
  return Math.min(left, night ? today - dayShare : dayShare);
}

/**
 * Extra points for the crossings that cost half a day (a ford for infantry, a minor river swum by
 * cavalry): half the class rate, rounded up; the bot uses the unmodified rate so that a forced
 * march does not slow the crossing and fatigue does not speed it.
 * @see 000 Terrain Effects: Minor Rivers (fords)
 */
export function halfDayPoints(army: Army): number {
  return Math.ceil(baseDailyPoints(army) / 2);
}
