import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyRoll, createRngState, isManualRoll, SeededDice } from '../../src/engine/dice/index.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { diceNeededToResolve } from '../../src/engine/tick/manualDiceContacts.js';
import { asciiMap, makeState, withContact } from './contactFixtures.js';

/**
 * Manual dice ask only for what the procedure needs next (issue 24): the contact dice first; the
 * terrain roll-offs only once the dice entered tie, whatever the seeded dice would have shown.
 */
const map = asciiMap(['cc']);
const answered = (): CampaignState => {
  const s = withContact(makeState({ hadewych: { side: 'law', hex: '0101' }, grallune: { side: 'chaos', hex: '0201' } }), ['hadewych', 'grallune']);
  const c = s.contacts['c1']!;
  return {
    ...s,
    settings: { ...s.settings, manualDice: 'contact' },
    contacts: { c1: { ...c, data: { step1: { hadewych: { kind: 'proceed' }, grallune: { kind: 'proceed' } } } } },
  };
};
const diceFor = (s: CampaignState, seed: number, entered: readonly { key: string; value: number }[] = []) => new SeededDice(createRngState(seed), {
  entered: entered.map((e) => ({ ...e, enteredBy: 'u' })),
  isManual: (purpose) => isManualRoll(classifyRoll(purpose, Object.values(s.armies)), 'contact'),
});
const keys = (s: CampaignState, dice: SeededDice) => diceNeededToResolve(s, map, s.contacts['c1']!, dice).map((n) => n.key).sort();
const CONTACT_DICE = ['contact dice: grallune', 'contact dice: hadewych'];

describe('manual dice: what a contact asks for', () => {
  it('GIVEN no die entered THEN only the contact dice are asked for, whatever the seeded dice would tie on', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
      const s = answered();
      expect(keys(s, diceFor(s, seed))).toEqual(CONTACT_DICE);
    }), { numRuns: 200 });
  });

  it('GIVEN the contact dice entered THEN the roll-offs are asked for exactly when they tie, else nothing more is needed', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), (seed, h, g) => {
      const s = answered();
      const needed = keys(s, diceFor(s, seed, [{ key: 'contact dice: hadewych', value: h }, { key: 'contact dice: grallune', value: g }]));
      // The two armies are alike (same ground, same troops): their modified dice tie when the faces do.
      if (h === g) expect(needed).toEqual(['terrain first draw roll-off: grallune', 'terrain first draw roll-off: hadewych']);
      else expect(needed).toEqual([]);
    }), { numRuns: 200 });
  });
});
