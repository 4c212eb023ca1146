import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANNEL, mayRead, OPEN, places, REFEREE_ONLY, secretOf, type Reader, type ReaderKnows, type Subject } from '../../src/app/deliveries/audience.js';

const ARMIES = ['a1', 'a2', 'b1', 'b2'] as const;
const arbArmies = fc.subarray([...ARMIES]);
const arbSubject: fc.Arbitrary<Subject> = fc.oneof(
  fc.constant(OPEN),
  fc.constant(REFEREE_ONLY),
  arbArmies.map(places),
  arbArmies.map(secretOf),
);
const arbReader: fc.Arbitrary<Reader> = fc.oneof(
  fc.constant(CHANNEL),
  fc.record({ kind: fc.constant('referee' as const), userId: fc.constant('ref') }),
  fc.record({ kind: fc.constant('player' as const), userId: fc.constant('p'), armyIds: arbArmies }),
);
const arbPositions = fc.constantFrom('public' as const, 'fog' as const);
const knowing = (seen: readonly string[]): ReaderKnows => ({ sees: (id) => seen.includes(id) });

describe('mayRead: who learns what', () => {
  it('GIVEN any subject WHEN the referee reads THEN they may; WHEN it is open THEN anyone may', () => {
    fc.assert(fc.property(arbPositions, arbSubject, arbReader, arbArmies, (positions, subject, reader, seen) => {
      expect(mayRead({ positions }, { kind: 'referee', userId: 'r' }, knowing([]), subject)).toBe(true);
      expect(mayRead({ positions }, reader, knowing(seen), OPEN)).toBe(true);
    }));
  });

  it("GIVEN an army's secret WHEN someone reads THEN only its commanders (and the referee) may, whatever they see", () => {
    fc.assert(fc.property(arbPositions, arbArmies, arbArmies, arbArmies, (positions, owners, commanded, seen) => {
      const player: Reader = { kind: 'player', userId: 'p', armyIds: commanded };
      expect(mayRead({ positions }, player, knowing(seen), secretOf(owners))).toBe(owners.some((id) => commanded.includes(id)));
      expect(mayRead({ positions }, CHANNEL, knowing(seen), secretOf(owners))).toBe(false);
      expect(mayRead({ positions }, player, knowing(seen), REFEREE_ONLY)).toBe(false);
    }));
  });

  it('GIVEN where armies are WHEN positions are public THEN anyone may read it; IN fog THEN only a reader whose armies see them all', () => {
    fc.assert(fc.property(arbArmies, arbArmies, (placed, seen) => {
      const player: Reader = { kind: 'player', userId: 'p', armyIds: [] };
      expect(mayRead({ positions: 'public' }, CHANNEL, knowing([]), places(placed))).toBe(true);
      expect(mayRead({ positions: 'fog' }, player, knowing(seen), places(placed))).toBe(placed.length > 0 && placed.every((id) => seen.includes(id)));
      expect(mayRead({ positions: 'fog' }, CHANNEL, knowing([]), places(placed))).toBe(false);
    }));
  });

  it('GIVEN more knowledge WHEN a player reads THEN they may read at least what they could before (monotone)', () => {
    fc.assert(fc.property(arbPositions, arbSubject, arbArmies, arbArmies, arbArmies, (positions, subject, commanded, seen, more) => {
      const player: Reader = { kind: 'player', userId: 'p', armyIds: commanded };
      if (mayRead({ positions }, player, knowing(seen), subject)) expect(mayRead({ positions }, player, knowing([...seen, ...more]), subject)).toBe(true);
    }));
  });
});
