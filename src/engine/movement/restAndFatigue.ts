import type { GameTime } from '../clock/index.js';
import type { Army, FatigueReason, HalfActivity } from '../forces/index.js';
import { owesNoRest, type MarchingDaysRule, type MovementProfile } from '../profiles/index.js';

const LOG_LENGTH = 12;
const DAY_LOG_LENGTH = 14;

/** Adds one half period to the log (MarchState.recentHalves), keeping the last twelve. */
function appendHalf(log: readonly HalfActivity[], activity: HalfActivity): HalfActivity[] {
  return [...log, activity].slice(-LOG_LENGTH);
}

/** Adds one day to the day log (MarchState.recentDays: marched or not), keeping the last fourteen. */
export function appendDay(log: readonly boolean[], marched: boolean): boolean[] {
  return [...log, marched].slice(-DAY_LOG_LENGTH);
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

/** Marching days among the last `days` of the day log (days before the campaign count as rest). */
export function marchingDaysIn(log: readonly boolean[], days: number): number {
  return days > 0 ? log.slice(-days).filter(Boolean).length : 0;
}

/** Whether moving on a new day breaks the marching-days rule: one day too many in a row, or in the window. */
function tooManyDays(rule: MarchingDaysRule, army: Army): boolean {
  const m = army.march;
  if (rule.kind === 'consecutive') return m.daysMarched >= rule.most;
  return marchingDaysIn(m.recentDays, rule.days - 1) + 1 > rule.most;
}

/**
 * Why moving now would fatigue the army under its profile, or undefined. Checked when the army
 * moves in a half period: a forced march yesterday, one marching day too many (Valormr: a seventh
 * day in a row; ACKS: a fifth in seven), or (where the profile counts rest in half periods) a
 * fifth half period of movement without two consecutive halves of rest. Tireless troops owe no
 * rest where the profile says so.
 * @see 000 Overland Travel: Daily Rest, Weekly Rest, Forced March; 004 Rest and Recuperation;
 *   Forced Marching
 */
export function fatigueOnMoving(army: Army, clock: GameTime, profile: MovementProfile): FatigueReason | undefined {
  if (owesNoRest(army, profile)) return undefined;
  const m = army.march;
  const rule = profile.rest.marchingDays;
  if (!m.movedToday && m.forcedMarchDay === clock.day - 1) return 'forcedMarch';
  if (!m.movedToday && tooManyDays(rule, army)) return rule.kind === 'consecutive' ? 'seventhDay' : 'marchWindow';
  const halves = profile.rest.halfPeriods;
  if (halves && halvesSinceLongRest(m.recentHalves) >= halves.restMoveLimit) return 'noLongRest';
  return undefined;
}

/**
 * The half period logged on the army's books (`a`, after the half): moving or working when it
 * should have rested fatigues it, judged on `judged`, the army as it stood before the half (a
 * forced march today is not yesterday's). The tick's books and the /move preview's alike.
 */
export function logHalf(a: Army, judged: Army, activity: HalfActivity, clock: GameTime, profile: MovementProfile): { army: Army; reason?: FatigueReason } {
  const busy = activity === 'moved' || activity === 'worked';
  const reason = busy && !a.status.fatigued ? fatigueOnMoving(judged, clock, profile) : undefined;
  const march = {
    ...a.march,
    ...(reason ? { fatigueReason: reason } : {}),
    recentHalves: appendHalf(a.march.recentHalves, activity),
    movedToday: a.march.movedToday || busy,
  };
  const status = reason ? { ...a.status, fatigued: true } : a.status;
  return { army: { ...a, status, march }, ...(reason ? { reason } : {}) };
}

/**
 * Whether a fatigued army recovers at daybreak after the day that ended (its day log holds that
 * day): after a full day of rest, and under a marching-days window (whatever fatigued it) only
 * once the window holds no more marching days than the profile allows (the owed rest caught up).
 * @see 000 Overland Travel: Fatigued; 004 Rest and Recuperation
 */
export function recovers(army: Army, fullRest: boolean, profile: MovementProfile): boolean {
  if (!fullRest) return false;
  const rule = profile.rest.marchingDays;
  // Under a window rule the rest owed is caught up first, whatever fatigued the army (a forced
  // march may have come on top of too many marching days).
  if (rule.kind !== 'window') return true;
  return marchingDaysIn(army.march.recentDays, rule.days) <= rule.most;
}

/**
 * What recovers a fatigued army, in the words of its profile's rule (the same data `recovers`
 * reads, so ACKS and Valormr can never share the sentence by accident): a full day of rest, or
 * under a marching-days window days of rest until the window is back within the profile's limit;
 * with the army, how many days of rest that is from today.
 * @see 000 Overland Travel: Fatigued; 004 Rest and Recuperation
 */
export function fatigueRecovery(profile: MovementProfile, army?: Army): string {
  const rule = profile.rest.marchingDays;
  if (rule.kind !== 'window') return 'A full day of rest recovers it.';
  const owed = army ? restDaysOwed(army, rule.days, rule.most) : undefined;
  const from = army?.march.movedToday ? 'tomorrow' : 'today';
  const days = owed !== undefined ? ` (${owed === 1 ? 'one day' : `${owed} days`} of rest from ${from})` : '';
  return `It recovers after days of rest once no more than ${rule.most} of the last ${rule.days} days were marching days${days}.`;
}

/** Full days of rest (from today, or tomorrow when it marched today) after which the window holds no more than `most` marching days. */
function restDaysOwed(army: Army, days: number, most: number): number {
  const before = army.march.movedToday ? [...army.march.recentDays, true] : army.march.recentDays;
  for (let k = 1; k <= days; k++) {
    if (marchingDaysIn([...before, ...Array.from({ length: k }, () => false)], days) <= most) return k;
  }
  return days;
}

/**
 * The share of tomorrow's daily points yesterday's rest recovers: two half periods of rest (a
 * period) restore all of them, one restores half, none restores nothing. A profile without the
 * half-period rest gives a day's points whatever the day before held.
 * @see 000 Overland Travel: Daily Rest
 */
export function restFactorFromDay(dayLog: readonly HalfActivity[], profile: MovementProfile): number {
  if (!profile.rest.halfPeriods) return 1;
  const rests = dayLog.filter((h) => h === 'rested').length + Math.max(0, 4 - dayLog.length);
  if (rests >= 2) return 1;
  return rests === 1 ? 0.5 : 0;
}
