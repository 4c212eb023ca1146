import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Member } from '../../src/db/memberRepo.js';
import { commandersOf } from '../../src/app/members.js';

const member: fc.Arbitrary<Member> = fc.record({
  userId: fc.constantFrom('u1', 'u2', 'u3', 'u4'),
  armyId: fc.constantFrom('', 'a1', 'a2', 'a3', 'constructor', '__proto__'),
  role: fc.constantFrom('commander' as const, 'referee' as const),
  displayName: fc.constant('x'),
});

describe('commandersOf: an army\'s commanders', () => {
  it('GIVEN any member list THEN every army\'s commanders are the commanders of that army in the list\'s order, asked once or again, whatever was asked of another list', () => {
    fc.assert(fc.property(fc.array(member, { maxLength: 12 }), fc.array(member, { maxLength: 12 }), (list, other) => {
      const expected = (members: readonly Member[], armyId: string): string[] => members.filter((m) => m.role === 'commander' && m.armyId === armyId).map((m) => m.userId);
      for (const armyId of ['', 'a1', 'a2', 'a3', 'a9', 'constructor', '__proto__', 'toString']) {
        expect(commandersOf({ members: list }, armyId)).toEqual(expected(list, armyId));
        expect(commandersOf({ members: other }, armyId)).toEqual(expected(other, armyId));
        // A caller may change what it got: the next answer is whole again.
        commandersOf({ members: list }, armyId).push('intruder');
        expect(commandersOf({ members: list }, armyId)).toEqual(expected(list, armyId));
      }
    }), { numRuns: 200 });
  });
});
