/**
 * The game clock. A turn is 24 hours from daybreak: the day period (morning, afternoon) and the
 * night period (evening, night). One scheduler tick is one half period.
 * @see RULINGS 2 Time
 */
export const HALF_PERIODS = ['morning', 'afternoon', 'evening', 'night'] as const;
export type HalfPeriod = (typeof HALF_PERIODS)[number];

export interface GameTime {
  /** 1-based campaign day (turn). */
  readonly day: number;
  /** 0 morning, 1 afternoon, 2 evening, 3 night. */
  readonly half: 0 | 1 | 2 | 3;
}

export const START_TIME: GameTime = { day: 1, half: 0 };

export function halfPeriodName(t: GameTime): HalfPeriod {
  return HALF_PERIODS[t.half];
}

/** True at the first half of a period (morning or evening), when weather is rolled. */
export function isPeriodStart(t: GameTime): boolean {
  return t.half === 0 || t.half === 2;
}

export function nextHalf(t: GameTime): GameTime {
  return t.half === 3 ? { day: t.day + 1, half: 0 } : { day: t.day, half: (t.half + 1) as GameTime['half'] };
}

/** A monotonically increasing index: four half periods per day. */
export function timeIndex(t: GameTime): number {
  return (t.day - 1) * 4 + t.half;
}

export function fromIndex(i: number): GameTime {
  return { day: Math.floor(i / 4) + 1, half: (i % 4) as GameTime['half'] };
}

/** Hour (1-24, sunrise = 1st) at which a half period ends. @see 001 Contact Hour */
export function halfPeriodEndHour(half: HalfPeriod): number {
  return { morning: 6, afternoon: 12, evening: 18, night: 24 }[half];
}

export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
}

/** "Day 3, afternoon" */
export function formatGameTime(t: GameTime): string {
  return `Day ${t.day}, ${halfPeriodName(t)}`;
}

/** Day of the week (1-7) used by the weekly rest rule. */
export function dayOfWeek(t: GameTime): number {
  return ((t.day - 1) % 7) + 1;
}
