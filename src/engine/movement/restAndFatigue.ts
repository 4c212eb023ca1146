import type { GameTime } from '../clock/index.js';
import type { Army, FatigueReason, HalfActivity } from '../forces/index.js';

const LOG_LENGTH = 12;

/** Adds one half period to the log (MarchState.recentHalves), keeping the last twelve. */
export function appendHalf(log: readonly HalfActivity[], activity: HalfActivity): HalfActivity[] {
  return [...log, activity].slice(-LOG_LENGTH);
}

/**
 * Half periods since the army last completed two consecutive half periods of rest. A log with no
 * such pair counts from the campaign's start, which the bot treats as rested.
 */
export function halvesSinceLongRest(log: readonly HalfActivity[]): number {
  for (let i = log.length - 1; i >= 1; i--) {
    if (log[i] === 'rested' && log[i - 1] === 'rested') return log.length - (i + 1);
  }
  return log.length;
}

/**
 * Rest-move-rest-move in half periods is allowed for two periods (four half periods); after
 * that the army needs two consecutive half periods of rest before it moves, or it is fatigued.
 * @see 000 Overland Travel: Daily Rest
 */
export const REST_MOVE_LIMIT = 4;

/** Six consecutive days of movement at most; the seventh must be rest. @see 000 Overland Travel: Weekly Rest */
export const MAX_MARCH_DAYS = 6;

/**
 * Why moving now would fatigue the army, or undefined. Checked when the army moves in a half
 * period: a forced march yesterday, a seventh consecutive day of marching, or a fifth half period
 * of movement without two consecutive halves of rest.
 * @see 000 Overland Travel: Daily Rest, Weekly Rest, Forced March
 */
export function fatigueOnMoving(army: Army, clock: GameTime): FatigueReason | undefined {
  const m = army.march;
  if (!m.movedToday && m.forcedMarchDay === clock.day - 1) return 'forcedMarch';
  if (!m.movedToday && m.daysMarched >= MAX_MARCH_DAYS) return 'seventhDay';
  if (halvesSinceLongRest(m.recentHalves) >= REST_MOVE_LIMIT) return 'noLongRest';
  return undefined;
}

/**
 * The share of tomorrow's daily points yesterday's rest recovers: two half periods of rest (a
 * period) restore all of them, one restores half, none restores nothing.
 * @see 000 Overland Travel: Daily Rest
 */
export function restFactorFromDay(dayLog: readonly HalfActivity[]): number {
  const rests = dayLog.filter((h) => h === 'rested').length + Math.max(0, 4 - dayLog.length);
  if (rests >= 2) return 1;
  return rests === 1 ? 0.5 : 0;
}
