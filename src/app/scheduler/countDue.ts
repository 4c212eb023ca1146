import { cronParser } from '../cronParser.js';
import { nextDue } from '../schedule.js';
import { boundedMemo } from '../scheduleMemo.js';

/** How many scheduled instants have come since a due time, and the first one still to come. */
export interface DueCount {
  /** Instants from `first` (included) up to `now` (included); 0 when `first` is still ahead. */
  readonly count: number;
  /** The first scheduled instant strictly after `now` (or `first` when it is still ahead). */
  readonly next: Date;
}

/**
 * Counts the scheduled instants from `first` up to `now`, from the cadence in its timezone,
 * walking the schedule from one instant to the next (never from now), and gives the first
 * instant after `now`. Counting stops at `countCap` (a very long downtime on a fast cadence).
 */
export function countDue(cadence: string, timezone: string, first: Date, now: Date, countCap = 100_000): DueCount {
  if (first.getTime() > now.getTime()) return { count: 0, next: new Date(first.getTime()) };
  // The usual answer (the due time has come, the next is still ahead): one look at the instant
  // after `first`, which every campaign due at `first` shares, whatever its own now.
  const second = nextDue(cadence, timezone, first);
  if (second.getTime() > now.getTime()) return { count: 1, next: second };
  // A busy minute asks this of every campaign due on it, with the same arguments: walked once.
  const { count, next } = counted(`${cadence}|${timezone}|${first.getTime()}|${now.getTime()}|${countCap}`, () => walk(cadence, timezone, first, now, countCap));
  return { count, next: new Date(next) };
}

const counted = boundedMemo<{ count: number; next: number }>(256);

function walk(cadence: string, timezone: string, first: Date, now: Date, countCap: number): { count: number; next: number } {
  const it = cronParser().parse(cadence, { tz: timezone, currentDate: first });
  let count = 1;
  let next = it.next().toDate();
  while (next.getTime() <= now.getTime() && count < countCap) {
    count++;
    next = it.next().toDate();
  }
  if (next.getTime() <= now.getTime()) next = cronParser().parse(cadence, { tz: timezone, currentDate: now }).next().toDate();
  return { count, next: next.getTime() };
}
