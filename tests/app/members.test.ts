import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Member } from '../../src/db/memberRepo.js';
import { armiesOf, commandersOf, memberName } from '../../src/app/members.js';
import { refereeIds } from '../../src/app/referees.js';

const member: fc.Arbitrary<Member> = fc.record({
  userId: fc.constantFrom('u1', 'u2', 'u3', 'constructor'),
  armyId: fc.constantFrom('', 'a1', 'a2', 'a3', 'constructor', '__proto__'),
  role: fc.constantFrom('commander' as const, 'referee' as const),
  displayName: fc.constantFrom('', 'Ann', 'Bo'),
});
const ARMIES = ['', 'a1', 'a2', 'a3', 'a9', 'constructor', '__proto__', 'toString'];
const USERS = ['u1', 'u2', 'u3', 'u9', 'constructor', 'toString'];

/** What each answer was before it was indexed: a filter of the whole list. */
const commandersByFilter = (members: readonly Member[], armyId: string): string[] => members.filter((m) => m.role === 'commander' && m.armyId === armyId).map((m) => m.userId);
const armiesByFilter = (members: readonly Member[], userId: string): string[] => members.filter((m) => m.role === 'commander' && m.userId === userId).map((m) => m.armyId);
const refereesByFilter = (owner: string, members: readonly Member[]): string[] => [...new Set([owner, ...members.filter((m) => m.role === 'referee').map((m) => m.userId)])];

describe('members: who commands what, who referees', () => {
  it('GIVEN any member lists THEN each army\'s commanders, each user\'s armies and name, and the referees are the filters of that list, in its order, asked once or again, whatever was asked of another list', () => {
    fc.assert(fc.property(fc.array(member, { maxLength: 12 }), fc.array(member, { maxLength: 12 }), fc.constantFrom('u1', 'owner'), (list, other, owner) => {
      for (const members of [list, other, list]) {
        for (const armyId of ARMIES) expect(commandersOf({ members }, armyId)).toEqual(commandersByFilter(members, armyId));
        for (const userId of USERS) expect(armiesOf({ members }, userId)).toEqual(armiesByFilter(members, userId));
        for (const userId of USERS) expect(memberName({ members }, userId)).toBe(members.find((m) => m.userId === userId)?.displayName);
        expect(refereeIds({ ownerUserId: owner }, members)).toEqual(refereesByFilter(owner, members));
      }
      // A caller may change what it got: the next answer is whole again.
      commandersOf({ members: list }, 'a1').push('intruder');
      armiesOf({ members: list }, 'u1').push('intruder');
      refereeIds({ ownerUserId: owner }, list).push('intruder');
      expect(commandersOf({ members: list }, 'a1')).toEqual(commandersByFilter(list, 'a1'));
      expect(armiesOf({ members: list }, 'u1')).toEqual(armiesByFilter(list, 'u1'));
      expect(refereeIds({ ownerUserId: owner }, list)).toEqual(refereesByFilter(owner, list));
    }), { numRuns: 200 });
  });
});
