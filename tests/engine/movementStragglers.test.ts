import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import { loseStragglers, recoverStragglers } from '../../src/engine/movement/stragglers.js';
import { army, dice } from './movementFixtures.js';

/** A regiment of two companies: 12 foot and 4 archers. */
function twoCompanies(): Army {
  const a = army('a', '0101', { figures: [16] });
  const r = a.regiments[0];
  if (!r) throw new Error('no regiment');
  return {
    ...a,
    regiments: [{ ...r, companies: [{ troopType: 'foot', basic: 'infantry', figures: 12 }, { troopType: 'archers', basic: 'infantry', figures: 4 }] }],
  };
}

describe('docs/rulings.md: stragglers are taken from the largest company first', () => {
  it('GIVEN a day unformed (half-dice 3 = 15 %) and companies of 12 and 4 THEN the 3 stragglers all come from the 12', () => {
    const out = loseStragglers(twoCompanies(), dice([5]));
    expect(out.percent).toBe(15);
    expect(out.lost).toBe(3);
    expect(out.army.regiments[0]?.companies.map((c) => c.figures)).toEqual([9, 4]);
    expect(out.army.march.stragglers).toEqual([{ regimentId: 'a-r1', company: 0, figures: 3 }]);
    // Waiting at the rally point, they rejoin their own company.
    const back = recoverStragglers(out.army, dice([6]));
    expect(back.recovered).toBe(3);
    expect(back.army.regiments[0]?.companies.map((c) => c.figures)).toEqual([12, 4]);
  });

  it('GIVEN two largest companies of the same size THEN the earlier one gives the stragglers', () => {
    const a = twoCompanies();
    const r = a.regiments[0];
    if (!r) throw new Error('no regiment');
    const three = { ...a, regiments: [{ ...r, companies: [2, 3, 3].map((figures) => ({ troopType: 'foot', basic: 'infantry' as const, figures })) }] };
    const out = loseStragglers(three, dice([5])); // 15 % of 8, rounded up: 2
    expect(out.army.regiments[0]?.companies.map((c) => c.figures)).toEqual([2, 1, 3]);
  });
});
