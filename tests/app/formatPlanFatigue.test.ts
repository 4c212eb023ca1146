import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../src/app/movement/formatPlan.js';
import type { Army } from '../../src/engine/forces/index.js';
import type { MovePlan } from '../../src/engine/movement/index.js';
import { ACKS_PROFILE, type MovementProfile, VALORMR_PROFILE } from '../../src/engine/profiles/index.js';

/**
 * The preview's fatigue line names the rest rule of the campaign's own movement profile: its
 * counts come from the profile, not from the Valormr numbers (a profile with other limits reads
 * its own). The two profiles shipped read as the rule texts say them.
 */
const army = { name: 'Army of Hadewych' } as unknown as Army;
const plan = (reason: NonNullable<MovePlan['fatigue']>['reason']): MovePlan => ({
  armyId: 'hadewych',
  steps: [],
  warnings: [],
  totalPoints: 0,
  days: 3,
  fatigue: { dayOffset: 2, half: 'afternoon', reason },
  order: { armyId: 'hadewych', kind: 'move', period: 'day', path: [], forced: false, unformed: false, save: false, givenAt: { day: 1, half: 0 } },
} as unknown as MovePlan);
const line = (p: MovePlan, profile: MovementProfile): string | undefined => formatPlan(army, p, { day: 1, half: 0 } as never, false, profile).split('\n').find((l) => l.startsWith('⚠ From'));

describe('the /move preview\'s fatigue line reads the profile\'s rest rule', () => {
  it('GIVEN the shipped profiles THEN the rule texts\' words', () => {
    expect(line(plan('seventhDay'), VALORMR_PROFILE)).toContain('(its seventh day of marching in a row;');
    expect(line(plan('noLongRest'), VALORMR_PROFILE)).toContain('(more than two periods of movement without two half periods of rest in a row;');
    expect(line(plan('marchWindow'), ACKS_PROFILE)).toContain('(more than 4 marching days in 7;');
  });

  it('GIVEN a profile with other limits THEN its own counts, as English ordinals and periods', () => {
    const other = (rest: MovementProfile['rest']): MovementProfile => ({ ...VALORMR_PROFILE, rest });
    expect(line(plan('seventhDay'), other({ ...VALORMR_PROFILE.rest, marchingDays: { kind: 'consecutive', most: 2 } }))).toContain('(its 3rd day of marching in a row;');
    expect(line(plan('seventhDay'), other({ ...VALORMR_PROFILE.rest, marchingDays: { kind: 'consecutive', most: 10 } }))).toContain('(its 11th day of marching in a row;');
    expect(line(plan('noLongRest'), other({ ...VALORMR_PROFILE.rest, halfPeriods: { restMoveLimit: 6 } }))).toContain('(more than three periods of movement');
    expect(line(plan('noLongRest'), other({ ...VALORMR_PROFILE.rest, halfPeriods: { restMoveLimit: 5 } }))).toContain('(more than 5 half periods of movement');
  });
});
