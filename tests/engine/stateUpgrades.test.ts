import { describe, expect, it } from 'vitest';
import { BrokenData } from '../../src/engine/result.js';
import type { ContactRecord, FleetState, Order } from '../../src/engine/state/index.js';
import { upgradeContacts } from '../../src/engine/campaign/upgrades/contacts.js';
import type { LegacyArmy, LegacyContactRecord, LegacyOrder, LegacyState } from '../../src/engine/campaign/upgrades/legacyState.js';
import { upgradeOrders } from '../../src/engine/campaign/upgrades/orders.js';
import { fatigueReasonFromText, halvesFromLetters, upgradeMarches } from '../../src/engine/campaign/upgrades/marches.js';
import { upgradeToTypedState } from '../../src/engine/campaign/upgrades/typedState.js';
import { army, campaign, halves, hexes, hx } from './movementFixtures.js';

const fleet: FleetState = {
  vessels: { longship: 3 }, regiments: ['r1'], ashore: [], embarkedFrom: '0101', embarkedAt: 2,
  escortLost: false, carry: 0, carryDay: 1, waitHalves: 0, sighted: [],
};
const given = { givenBy: 'u', givenAt: { day: 1, half: 0 } as const };
const wide = { period: 'split', path: [], forced: false, unformed: false, save: false } as const;

function legacyArmy(id: string, log: string): LegacyArmy {
  const a = army(id, '0101');
  return { ...a, march: { ...a.march, recentHalves: log } };
}

describe('upgrade: the march books (MarchState.recentHalves, MarchState.fatigueReason)', () => {
  it('GIVEN letters THEN each becomes what the army did, oldest first', () => {
    expect(halvesFromLetters('mwrb')).toEqual(['moved', 'worked', 'rested', 'battle']);
    expect(halvesFromLetters('')).toEqual([]);
  });

  it('GIVEN a letter no rule wrote THEN it is broken data', () => {
    expect(() => halvesFromLetters('mx')).toThrow(BrokenData);
  });

  it('GIVEN armies old and new THEN the old logs are converted and the new kept', () => {
    const fresh = army('b', '0102');
    const out = upgradeMarches({ a: legacyArmy('a', 'rrm'), b: { ...fresh, march: { ...fresh.march, recentHalves: halves('mm') } } });
    expect(out['a']?.march.recentHalves).toEqual(['rested', 'rested', 'moved']);
    expect(out['b']?.march.recentHalves).toEqual(['moved', 'moved']);
  });

  it('GIVEN the reason for fatigue as a sentence THEN it becomes its code; one no rule wrote is dropped', () => {
    expect(fatigueReasonFromText('forced march yesterday and no rest today')).toBe('forcedMarch');
    expect(fatigueReasonFromText('marched a seventh day in a row without a full day of rest')).toBe('seventhDay');
    expect(fatigueReasonFromText('moved in half periods for more than two periods without two consecutive half periods of rest')).toBe('noLongRest');
    expect(fatigueReasonFromText('set by the referee')).toBe('referee');
    expect(fatigueReasonFromText('seventhDay')).toBe('seventhDay');
    expect(fatigueReasonFromText('tired of it all')).toBeUndefined();
    const a = legacyArmy('a', '');
    const out = upgradeMarches({ a: { ...a, march: { ...a.march, fatigueReason: 'set by the referee' } }, b: { ...a, id: 'b', march: { ...a.march, fatigueReason: 'tired of it all' } } });
    expect(out['a']?.march.fatigueReason).toBe('referee');
    expect(out['b']?.march).not.toHaveProperty('fatigueReason');
  });
});

describe('upgrade: orders as the Order union', () => {
  const armies = { a: { ...army('a', '0101'), vessels: { longship: 3 } } };
  const clock = { day: 2, half: 1 } as const;

  it('GIVEN a wide move order THEN it keeps its march fields and loses `extra`', () => {
    const old: LegacyOrder = { armyId: 'a', kind: 'move', period: 'day', path: hexes('0102 0103'), forced: true, unformed: false, save: true, crossAtEnd: true, crossings: [{ hex: hx('0103'), method: 'ferry' }], extra: {}, ...given };
    expect(upgradeOrders({ a: old }, armies, clock)['a']).toEqual({
      armyId: 'a', kind: 'move', period: 'day', path: hexes('0102 0103'), forced: true, unformed: false, save: true, crossAtEnd: true, crossings: [{ hex: hx('0103'), method: 'ferry' }], ...given,
    });
  });

  it('GIVEN a move order accepting an unknown crossing method THEN it is broken data', () => {
    const old: LegacyOrder = { armyId: 'a', kind: 'move', ...wide, period: 'day', crossings: [{ hex: hx('0103'), method: 'balloon' }], ...given };
    expect(() => upgradeOrders({ a: old }, armies, clock)).toThrow(BrokenData);
  });

  it('GIVEN a rest order with the wide fields THEN only who gave it and when remain', () => {
    const old: LegacyOrder = { armyId: 'a', kind: 'rest', ...wide, period: 'day', ...given };
    expect(upgradeOrders({ a: old }, armies, clock)['a']).toEqual({ armyId: 'a', kind: 'rest', ...given });
  });

  it('GIVEN a sail order with its fleet in `extra` THEN the fleet and the voyage are the order', () => {
    const old: LegacyOrder = { armyId: 'a', kind: 'sail', ...wide, path: hexes('0201'), extra: { fleet }, ...given };
    expect(upgradeOrders({ a: old }, armies, clock)['a']).toEqual({ armyId: 'a', kind: 'sail', path: hexes('0201'), fleet, ...given });
  });

  it('GIVEN a sail order without a fleet THEN the army\'s whole fleet lies at anchor, as the rules read it before', () => {
    const old: LegacyOrder = { armyId: 'a', kind: 'sail', ...wide, ...given };
    const out = upgradeOrders({ a: old }, armies, clock)['a'];
    expect(out).toMatchObject({ kind: 'sail', path: [], fleet: { vessels: { longship: 3 }, regiments: ['a-r1'], ashore: [], embarkedAt: 5, carryDay: 2 } });
  });

  it('GIVEN a debark order THEN its assembly is the order; without one the order is dropped', () => {
    const assembly = { port: '0101', batches: [{ regiments: ['r2'], arrivesAt: 9 }] };
    expect(upgradeOrders({ a: { armyId: 'a', kind: 'debark', ...wide, extra: { assembly }, ...given } }, armies, clock)['a']).toEqual({ armyId: 'a', kind: 'debark', assembly, ...given });
    expect(upgradeOrders({ a: { armyId: 'a', kind: 'debark', ...wide, ...given } }, armies, clock)).toEqual({});
  });

  it('GIVEN the kinds never written (hold, embark, operation) THEN they are dropped', () => {
    for (const kind of ['hold', 'embark', 'operation'] as const) expect(upgradeOrders({ a: { armyId: 'a', kind, ...wide, ...given } }, armies, clock)).toEqual({});
  });

  it('GIVEN orders already in their exact shape THEN they come back equal', () => {
    const orders: Record<string, Order> = {
      a: { armyId: 'a', kind: 'move', period: 'night', path: hexes('0102'), forced: false, unformed: true, save: false, ...given },
      b: { armyId: 'b', kind: 'rest', ...given },
      c: { armyId: 'c', kind: 'sail', path: [], fleet, ...given },
      d: { armyId: 'd', kind: 'debark', assembly: { port: '0101', batches: [] }, ...given },
    };
    expect(upgradeOrders(orders, armies, clock)).toEqual(orders);
  });
});

describe('upgrade: contacts with an exact step and data', () => {
  const base = { id: 'c1', armyIds: ['a', 'b'], hexes: [], openedAt: { day: 1, half: 0 } as const };

  it('GIVEN `joined` in the data THEN it is dropped and the rest kept', () => {
    const old: LegacyContactRecord = { ...base, step: 'step1', data: { stepAt: 0, joined: ['b'] } };
    expect(upgradeContacts({ c1: old })['c1']).toEqual({ ...base, step: 'step1', data: { stepAt: 0 } });
  });

  it('GIVEN a step no contact rule knows THEN it is broken data', () => {
    expect(() => upgradeContacts({ c1: { ...base, step: 'contact', data: {} } })).toThrow(BrokenData);
  });

  it('GIVEN a contact already upgraded THEN it comes back equal', () => {
    const c: ContactRecord = { ...base, step: 'closed', data: { outcome: 'fightOnMorrow', quietUntil: 1 } };
    expect(upgradeContacts({ c1: c })['c1']).toEqual(c);
  });
});

describe('upgrade: the whole state stored before issue 18', () => {
  it('GIVEN an old state THEN logs, orders and contacts are upgraded together; an upgraded state comes back equal', () => {
    const s = campaign([army('a', '0101')]);
    const old: LegacyState = {
      ...s,
      armies: { a: legacyArmy('a', 'mr') },
      orders: { a: { armyId: 'a', kind: 'rest', ...wide, period: 'day', ...given } },
      contacts: { c1: { id: 'c1', armyIds: ['a'], hexes: [], openedAt: s.clock, step: 'closed', data: { joined: ['a'] } } },
    };
    const next = upgradeToTypedState(old);
    expect(next.armies['a']?.march.recentHalves).toEqual(['moved', 'rested']);
    expect(next.orders['a']).toEqual({ armyId: 'a', kind: 'rest', ...given });
    expect(next.contacts['c1']?.data).toEqual({});
    expect(upgradeToTypedState(next)).toEqual(next);
  });
});
