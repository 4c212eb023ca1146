import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromIndex, timeIndex, type GameTime } from '../../src/engine/clock/index.js';
import type { StoredEvent } from '../../src/db/eventRepo.js';
import { chronicleLines, happenedAt } from '../../src/app/web/chronicleLines.js';

/*
 * Property: the web chronicle dates every line by the half period it happened in. The log stamps
 * a transaction's events with the clock after it (storeChange.ts), so a tick's lines before its
 * clock move carry the next half period, and a catch-up tick plays several half periods in one
 * transaction under one stamp. For any log of commands and ticks (catch-up ones too), the date
 * the page gives each event is the half period the generator played it in, and the dates never
 * go back.
 */

/** One transaction: a command (lines at the current half period), or a tick playing `halves` half periods, each with its lines, then lines after the last move. */
type Step = { kind: 'command'; lines: number } | { kind: 'tick'; halves: number[]; after: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('command' as const), lines: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('tick' as const), halves: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }), after: fc.integer({ min: 0, max: 3 }) }),
);

/** The log the steps write, and the half period each of its events happened in. */
function play(steps: readonly Step[]): { events: StoredEvent[]; truth: GameTime[] } {
  const events: StoredEvent[] = [];
  const truth: GameTime[] = [];
  let now = 0;
  let n = 0;
  steps.forEach((s, k) => {
    const at: { type: string; data: unknown; when: number }[] = [];
    if (s.kind === 'command') {
      for (let i = 0; i < s.lines; i++) at.push({ type: 'orderGiven', data: { armyId: 'a' }, when: now });
    } else {
      for (const lines of s.halves) {
        for (let i = 0; i < lines; i++) at.push({ type: 'armyMoved', data: { armyId: `a${i}` }, when: now });
        at.push({ type: 'clockAdvanced', data: { from: fromIndex(now), to: fromIndex(now + 1) }, when: now + 1 });
        now += 1;
      }
      for (let i = 0; i < s.after; i++) at.push({ type: 'weatherRolled', data: null, when: now });
    }
    // One transaction: every event stamped with the clock after it, one write time.
    for (const e of at) {
      n += 1;
      events.push({ id: n, time: fromIndex(now), type: e.type, audience: 'public', actorUserId: null, text: `${e.type} ${n}`, data: e.data, createdAt: `t${k}`, undone: false });
      truth.push(fromIndex(e.when));
    }
  });
  return { events, truth };
}

describe('the web chronicle\'s dates (property)', () => {
  it('GIVEN any log of commands and ticks (catch-up ones too) THEN each event is dated by the half period it happened in, and the dates never go back', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
      const { events, truth } = play(steps);
      expect(happenedAt(events)).toEqual(truth);
      // The lines as the page gets them (nothing here is folded: every event a line of its own), in the log's order.
      const lines = chronicleLines(events, () => 'everyone');
      const dates = lines.map((l) => timeIndex(l.time));
      expect(dates).toEqual([...dates].sort((a, b) => a - b));
      expect(lines.filter((l) => !l.text.startsWith('clockAdvanced')).map((l) => l.text)).toEqual(events.filter((e) => e.type !== 'clockAdvanced').map((e) => e.text));
    }), { numRuns: 300 });
  });
});
