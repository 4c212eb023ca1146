/**
 * The engine's English ordinals (src/engine/clock/gameTime.ts `ordinal`): contact hours ("the 3rd
 * hour"), the fatigue line's marching days ("its 11th day"), deadlines ("the 2nd tick from now").
 * Checked against the English ordinal plural rules node ships (Intl.PluralRules, type ordinal):
 * one -> st, two -> nd, few -> rd, other -> th.
 */
import { describe, expect, it } from 'vitest';
import { ordinal } from '../../src/engine/clock/index.js';

const SUFFIX: Readonly<Record<string, string>> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const english = new Intl.PluralRules('en-US', { type: 'ordinal' });

describe('ordinal', () => {
  it('GIVEN 1 to 120 THEN each reads as English writes it (Intl\'s ordinal rules)', () => {
    for (let n = 1; n <= 120; n++) expect(ordinal(n), String(n)).toBe(`${n}${SUFFIX[english.select(n)]}`);
  });

  it('GIVEN the numbers English treats apart (the teens, the hundreds\' teens) THEN as written', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 102, 103, 111, 112, 113, 120].map(ordinal)).toEqual(
      ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '102nd', '103rd', '111th', '112th', '113th', '120th'],
    );
  });
});
