import { CronExpressionParser } from 'cron-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countDue } from '../../src/app/scheduler/countDue.js';
import { inQuietHours, nextDue, reminderTime, scheduleAfter } from '../../src/app/schedule.js';
import { boundedMemo } from '../../src/app/scheduleMemo.js';

/** The schedule's walks written out plainly, with no memo: what the memoised ones must equal. */
function countByHand(cadence: string, tz: string, first: Date, now: Date, cap: number): { count: number; next: number } {
  if (first.getTime() > now.getTime()) return { count: 0, next: first.getTime() };
  const it = CronExpressionParser.parse(cadence, { tz, currentDate: first });
  let count = 1;
  let next = it.next().toDate();
  while (next.getTime() <= now.getTime() && count < cap) {
    count++;
    next = it.next().toDate();
  }
  if (next.getTime() <= now.getTime()) next = CronExpressionParser.parse(cadence, { tz, currentDate: now }).next().toDate();
  return { count, next: next.getTime() };
}

const cadences = fc.constantFrom('0 8,20 * * *', '0 */3 * * *', '30 7 * * 1-5', '*/15 * * * *', '0 0 1 * *');
const zones = fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata');
// Instants on a few shared minutes, so that many draws ask the memo the same question.
const instant = fc.integer({ min: 0, max: 400 }).map((m) => new Date(Date.UTC(2026, 2, 27, 0, 0) + m * 15 * 60_000));

describe('the schedule\'s memo (a busy minute asks every campaign\'s schedule the same question)', () => {
  it('GIVEN a key asked again THEN the answer is computed once; GIVEN more keys than it holds THEN the oldest are computed again', () => {
    const memo = boundedMemo<number | undefined>(4);
    let computed = 0;
    const ask = (k: string, v: number | undefined): number | undefined => memo(k, () => {
      computed++;
      return v;
    });
    expect(ask('a', 1)).toBe(1);
    expect(ask('a', 99)).toBe(1);
    expect(ask('none', undefined)).toBeUndefined();
    expect(ask('none', 5)).toBeUndefined(); // an undefined answer is remembered too
    expect(computed).toBe(2);
    for (const k of ['b', 'c', 'd', 'e']) ask(k, 0);
    expect(computed).toBe(6);
    expect(ask('a', 7)).toBe(7); // dropped when the memo filled up
    expect(ask('e', 8)).toBe(0); // the newest stay
    expect(computed).toBe(7);
  });

  it('GIVEN any cadence, timezone and pair of instants THEN countDue equals a plain walk of the schedule, asked once or again, whatever the caller did to an earlier answer', () => {
    fc.assert(fc.property(cadences, zones, instant, instant, fc.integer({ min: 1, max: 50 }), (cadence, tz, first, now, cap) => {
      // The same instants with another cap right after: the cap is part of the question.
      for (const c of [cap, cap + 1, cap]) {
        const want = countByHand(cadence, tz, first, now, c);
        const once = countDue(cadence, tz, first, now, c);
        expect({ count: once.count, next: once.next.getTime() }).toEqual(want);
        once.next.setTime(0); // a caller's Date is its own
        const again = countDue(cadence, tz, first, now, c);
        expect({ count: again.count, next: again.next.getTime() }).toEqual(want);
      }
    }), { numRuns: 300 });
  });

  it('GIVEN any cadence and timezone, and instants at any millisecond asked in any order THEN nextDue is the plain next instant (the stretch between two instants answers every instant inside it, and no other)', () => {
    // Around the instants of a few shared minutes: on one, a millisecond before and after, within the minute, hours away.
    const near = fc.tuple(instant, fc.constantFrom(0, -1, 1, 59_999, -60_000, 3_600_000, -7_200_000), fc.integer({ min: 0, max: 999 }))
      .map(([at, off, ms]) => new Date(at.getTime() + off + (off === 0 ? 0 : ms)));
    fc.assert(fc.property(cadences, zones, fc.array(near, { minLength: 1, maxLength: 12 }), (cadence, tz, afters) => {
      for (const after of afters) {
        const want = CronExpressionParser.parse(cadence, { tz, currentDate: after }).next().toDate().getTime();
        expect(nextDue(cadence, tz, after).getTime()).toBe(want);
      }
    }), { numRuns: 300 });
  });

  it('GIVEN any cadence, timezone, quiet hours and instant THEN scheduleAfter and reminderTime equal the plain computation, asked once or again', () => {
    const quiet = fc.constantFrom(undefined, '22:00-07:00', '01:30-05:00', '12:00-13:15');
    fc.assert(fc.property(cadences, zones, quiet, instant, (cadence, timezone, quietHours, after) => {
      const s = { cadence, timezone, reminderLeadMinutes: 60, ...(quietHours ? { quietHours } : {}) };
      const raw = CronExpressionParser.parse(cadence, { tz: timezone, currentDate: after }).next().toDate();
      const first = scheduleAfter(s, after);
      // Out of the quiet hours, and moved only when the plain next instant falls inside them.
      expect(inQuietHours(first.at, s)).toBe(false);
      expect(first.at.getTime() === raw.getTime()).toBe(!inQuietHours(raw, s));
      if (first.movedFrom) expect(first.movedFrom.getTime()).toBe(raw.getTime());
      const at = first.at.getTime();
      const reminder = reminderTime(first.at.toISOString(), s);
      first.at.setTime(0);
      const again = scheduleAfter(s, after);
      expect(again.at.getTime()).toBe(at);
      expect(reminderTime(again.at.toISOString(), s)).toBe(reminder);
      if (reminder !== null) expect(inQuietHours(new Date(reminder), s)).toBe(false);
    }), { numRuns: 300 });
  });
});
