import type { Army } from '../forces/index.js';
import { basePoints, sizedPoints, times, type MovementProfile } from '../profiles/index.js';
import type { MovePeriod, WeatherEffects } from '../state/index.js';

/**
 * Daily move points before saved points, under the campaign's movement profile: the army's rate
 * (its slowest unit), the large-army multiplier (ACKS), the forced-march bonus (+50 %), the
 * fatigue factor (Valormr -25 %), the weather factor; fractions are dropped at each step. The
 * share recovered by yesterday's rest (`restFactor`) applies last.
 * @see 000 Overland Travel: Move Rates, Forced March, Fatigued; RULINGS 4 (weather, rest);
 *   004 Moving Armies; Forced Marching; Movement of Large Armies
 */
export function dailyPoints(army: Army, profile: MovementProfile, forced: boolean, weather: WeatherEffects, restFactor = army.march.restFactor): number {
  let p = sizedPoints(army, profile, basePoints(army, profile));
  if (forced) p = times(p, profile.forcedMarch.factor);
  if (army.status.fatigued) p = times(p, profile.fatiguedFactor);
  p = Math.floor(p * weather.overlandFactor);
  return Math.floor(p * restFactor);
}

/** Today's points: the daily points plus points saved (or carried) from yesterday. */
export function todaysPoints(army: Army, profile: MovementProfile, forced: boolean, weather: WeatherEffects): number {
  return dailyPoints(army, profile, forced, weather) + army.march.savedPoints;
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
 * cavalry): half the army's rate, rounded up; the bot uses the unmodified rate so that a forced
 * march does not slow the crossing and fatigue does not speed it.
 * @see 000 Terrain Effects: Minor Rivers (fords)
 */
export function halfDayPoints(army: Army, profile: MovementProfile): number {
  return Math.ceil(basePoints(army, profile) / 2);
}
