import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import { isAdjacent } from '../../src/engine/hex/neighbours.js';
import { movementStep } from '../../src/engine/movement/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, campaign, dice, hexes, hx, mapOf, pathOf, rawOrder } from './movementFixtures.js';

const open = mapOf(['ccccc', 'ccccc', 'ccccc']);

describe('RULINGS 3 map contact: a hostile fleet holds its hex but makes no contact', () => {
  it('GIVEN an army marching past a hostile embarked army in the afternoon THEN it is not halted, its order stands and no contact opens', () => {
    expect(isAdjacent(hx('0201'), hx('0301'))).toBe(true);
    const fleet: Army = { ...army('f', '0301', { side: 'chaos' }), status: { ...army('f', '0301').status, embarked: true } };
    let s = campaign([army('a', '0101'), fleet], { day: 1, half: 1 });
    s = { ...s, orders: { a: rawOrder('a', hexes('0201 0202 0203')) } };
    const out = movementStep({ state: s, map: open, dice: dice(), weather: NO_WEATHER_EFFECTS });
    const a = out.state.armies['a'] as Army;
    expect(a.status.inContact).toBe(false);
    expect(Object.keys(out.state.contacts)).toHaveLength(0);
    expect(out.events.find((e) => e.type === 'movementOutcome')?.data?.['notes']).toEqual([]);
    expect(a.hex).toEqual(hx('0202'));
    expect(pathOf(out.state.orders['a'])).toEqual(hexes('0203'));
  });
});
