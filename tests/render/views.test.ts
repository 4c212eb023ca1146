import { describe, expect, it } from 'vitest';
import {
  commanderMapView, estimateFromContact, halfPeriodTag, publicMapView, shortCommanderLabel, simpleStepTimes,
} from '../../src/engine/views/mapView.js';
import { h, testState } from './fixtures.js';

/** Every key anywhere in a JSON value. */
function keysOf(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keysOf(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
    out.add(k);
    keysOf(x, out);
  }
  return out;
}

describe('publicMapView (RULINGS 6: positions public, strength secret)', () => {
  it('GIVEN armies of different hidden strengths WHEN viewed publicly THEN the views are identical', () => {
    const a = publicMapView(testState({ arn: 40, mordred: 40, ingegerd: 40 }));
    const b = publicMapView(testState({ arn: 3, mordred: 17, ingegerd: 29 }));
    expect(b).toEqual(a);
  });

  it('GIVEN a state WHEN viewed publicly THEN no figures, strengths, regiments, orders or couriers are carried', () => {
    const v = publicMapView(testState());
    const keys = keysOf(v);
    for (const k of ['strengthPct', 'estimate', 'figures', 'regiments', 'companies', 'individuals', 'vessels', 'armyPoints', 'message', 'march']) {
      expect(keys.has(k)).toBe(false);
    }
    expect(v.paths).toEqual([]);
    expect(v.couriers).toEqual([]);
    expect(JSON.stringify(v)).not.toContain('secret plan');
  });

  it('GIVEN public flags WHEN viewed THEN contact, battle, unformed and fatigue show on the right tokens', () => {
    const v = publicMapView(testState());
    const by = new Map(v.tokens.map((t) => [t.armyId, t]));
    expect(by.get('mordred')?.flags).toMatchObject({ inContact: true, fatigued: true, inBattle: false });
    expect(by.get('ingegerd')?.flags).toMatchObject({ unformed: true, inBattle: true });
    expect(by.get('arn')?.hex).toEqual(h('0608'));
    expect(by.get('arn')?.colour).toBe('#2f5fb3');
  });

  it('GIVEN a destroyed army WHEN viewed THEN it has no token', () => {
    const s = testState();
    const dead = { ...s, armies: { ...s.armies, arn: { ...s.armies.arn!, status: { ...s.armies.arn!.status, destroyed: true } } } };
    expect(publicMapView(dead).tokens.map((t) => t.armyId)).toEqual(['ingegerd', 'mordred']);
  });
});

describe('commanderMapView', () => {
  it('GIVEN Arn views the map THEN only Arn carries a strength, and it is the true %', () => {
    const v = commanderMapView(testState({ arn: 30, mordred: 12, ingegerd: 20 }), ['arn']);
    const by = new Map(v.tokens.map((t) => [t.armyId, t]));
    expect(by.get('arn')).toMatchObject({ own: true, strengthPct: 75 });
    expect(by.get('mordred')?.strengthPct).toBeUndefined();
    expect(by.get('ingegerd')?.strengthPct).toBeUndefined();
    expect(by.get('ingegerd')?.own).toBeUndefined();
  });

  it('GIVEN other armies change strength WHEN Arn views the map THEN Arn\'s view does not change', () => {
    const a = commanderMapView(testState({ arn: 30, mordred: 40, ingegerd: 40 }), ['arn']);
    const b = commanderMapView(testState({ arn: 30, mordred: 1, ingegerd: 9 }), ['arn']);
    expect(b).toEqual(a);
  });

  it('GIVEN an estimate of Mordred WHEN Arn views the map THEN it shows marked "est." on Mordred only; an estimate of his own army is ignored', () => {
    const v = commanderMapView(testState(), ['arn'], {
      estimates: [{ armyId: 'mordred', text: '~1,600 troops' }, { armyId: 'arn', text: 'est. 5 troops' }],
    });
    const by = new Map(v.tokens.map((t) => [t.armyId, t]));
    expect(by.get('mordred')?.estimate).toBe('est. ~1,600 troops');
    expect(by.get('arn')?.estimate).toBeUndefined();
    expect(estimateFromContact({ targetId: 'mordred', awareness: 'size', estimatedTroops: 1600 })).toEqual({ armyId: 'mordred', text: 'est. ~1,600 troops engaging' });
  });

  it('GIVEN estimates at each composition level THEN the map line says the size is the engaging regiment\'s unless the other regiments were counted, and an accurate size has no "~"', () => {
    const line = (patch: { sizeBand?: string; otherRegiments?: number }): string => estimateFromContact({
      targetId: 'mordred', awareness: 'estimate', estimatedTroops: 960, sizeBand: patch.sizeBand ?? 'pm25',
      ...(patch.otherRegiments !== undefined ? { composition: { otherRegiments: patch.otherRegiments } } : {}),
    }).text;
    // Basic or types (001 Contact Table): the other regiments are not counted, the line is one regiment's.
    expect(line({})).toBe('est. ~960 troops engaging');
    // Proportions and up count them: none means the regiment is the whole force.
    expect(line({ otherRegiments: 0 })).toBe('est. ~960 troops');
    expect(line({ otherRegiments: 1 })).toBe('est. ~960 troops +1 regt');
    expect(line({ otherRegiments: 2, sizeBand: 'accurate' })).toBe('est. 960 troops +2 regts');
    expect(estimateFromContact({ targetId: 'mordred', awareness: 'unaware' }).text).toBe('est. unknown');
    expect(estimateFromContact({ targetId: 'mordred', awareness: 'aware' }).text).toBe('est. strength unknown');
  });

  it('GIVEN Arn\'s move order THEN his path is shown with a half period per step, and only his own couriers appear', () => {
    const v = commanderMapView(testState(), ['arn']);
    expect(v.paths).toHaveLength(1);
    const p = v.paths[0]!;
    expect(p.from).toEqual(h('0608'));
    expect(p.steps.map((s) => s.label)).toEqual(['D2 Mor', 'D2 Mor', 'D2 Aft', 'D2 Aft']);
    expect(v.couriers.map((c) => c.id)).toEqual(['k1']);
    expect(v.couriers[0]?.toLabel).toBe('Ingegerd');
    expect(JSON.stringify(v)).not.toContain('secret plan');
  });

  it('GIVEN exact step times from the movement rules THEN they are used instead of the simple schedule', () => {
    const times = [{ day: 2, half: 0 }, { day: 2, half: 0 }, { day: 2, half: 0 }, { day: 2, half: 1 }] as const;
    const v = commanderMapView(testState(), ['arn'], { stepTimes: { arn: times } });
    expect(v.paths[0]?.steps.map((s) => s.label)).toEqual(['D2 Mor', 'D2 Mor', 'D2 Mor', 'D2 Aft']);
  });

  it('GIVEN a night order given in the morning THEN the simple schedule puts the steps in the evening and night', () => {
    const t = simpleStepTimes({ day: 3, half: 0 }, { period: 'night', path: [h('0101'), h('0102'), h('0103')] });
    expect(t.map(halfPeriodTag)).toEqual(['D3 Eve', 'D3 Eve', 'D3 Ngt']);
    const late = simpleStepTimes({ day: 3, half: 1 }, { period: 'day', path: [h('0101'), h('0102')] });
    expect(late.map(halfPeriodTag)).toEqual(['D3 Aft', 'D3 Aft']);
  });
});

describe('short labels', () => {
  it.each([
    ['Mordred, Thane of Gyrhawk Hold', 'Mordred'],
    ['Lord Caelanthir of Groennendr', 'Caelanthir'],
    ['Hadewych the Arbiter', 'Hadewych'],
    ['Dwarf High King Harbard V', 'Harbard V'],
    ['the Prince of Aeskrvald', 'Prince of Aeskrvald'],
    ['The Laugher', 'The Laugher'],
    ['Ingegerd', 'Ingegerd'],
  ])('GIVEN "%s" THEN the map label is "%s"', (name, label) => {
    expect(shortCommanderLabel(name)).toBe(label);
  });
});
