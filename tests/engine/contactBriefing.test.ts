import { describe, expect, it } from 'vitest';
import { resolveDecision } from '../../src/engine/contact/index.js';
import { contactView } from '../../src/engine/contact/view.js';
import type { Army } from '../../src/engine/forces/army.js';
import type { Result } from '../../src/engine/result.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { asciiMap, dice, hx, makeState } from './contactFixtures.js';

function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.violation.code}: ${r.violation.message}`);
  return r.value;
}

const clear = asciiMap(['ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc', 'ccccccc']);
const die = (raw: number) => ({ raw, modifiers: [], modified: raw });

/**
 * Hadewych (Chaos, 0303, unformed and building rafts) faces Ingegerd (0302, fatigued) and
 * Aeskrvald (0403, still waiting at its port for its second regiment), in fog after hard rain,
 * the contact made in the evening (16th hour); everyone engages.
 */
function atTheTable(): CampaignState {
  const s = makeState({
    hadewych: { side: 'chaos', hex: '0303', formation: 'unformed' },
    ingegerd: { side: 'law', hex: '0302', fatigued: true },
    aeskrvald: { side: 'law', hex: '0403', extraRegiments: 1 },
  }, { day: 1, half: 2 });
  const h = s.armies['hadewych'] as Army;
  const rafts = { kind: 'rafts' as const, hex: hx('0303'), startedAt: 4, totalHalves: 12, remainingHalves: 6, phase: 'build' as const };
  return {
    ...s,
    weather: { ...s.weather, sky: 'hardRain', fog: true, rainLevel: 2 },
    armies: { ...s.armies, hadewych: { ...h, march: { ...h.march, operation: rafts } } },
    orders: { aeskrvald: { armyId: 'aeskrvald', kind: 'debark', assembly: { port: '0403', batches: [{ regiments: ['aeskrvald-2'], arrivesAt: 12 }] }, givenBy: 'u', givenAt: { day: 1, half: 1 } } },
    contacts: {
      c1: {
        id: 'c1', armyIds: ['hadewych', 'ingegerd', 'aeskrvald'], hexes: [], openedAt: { day: 1, half: 2 }, step: 'decision',
        data: { contactDice: { hadewych: die(4), ingegerd: die(3), aeskrvald: die(5) }, contactHour: 16, decisions: { hadewych: 'engage', ingegerd: 'engage', aeskrvald: 'engage' } },
      },
    },
  };
}

describe('The battle briefing carries the table conditions (000 Battlefield Weather; 001 Contact Hour; Three or More Forces)', () => {
  // Deployment dice 3, 4, 5; then the fog's die: 2, visibility 60 yards.
  const out = must(resolveDecision(atTheTable(), clear, 'c1', dice(3, 4, 5, 2)));
  const conditions = out.state.contacts['c1']!.data.conditions!;

  it('GIVEN fog THEN its visibility is rolled when the battle is joined: one die x 30 yards', () => {
    expect(conditions.fog).toEqual({ die: 2, yards: 60 });
  });

  it('GIVEN the 16th hour, hard rain and rain level 2 THEN a night battle on soft ground', () => {
    expect(conditions).toMatchObject({ hour: 16, night: true, sky: 'hardRain', rainLevel: 2, highWinds: false });
  });

  it('GIVEN three forces in one battle THEN their arrangement on the map, with sides', () => {
    expect(conditions.arrangement?.find((a) => a.armyId === 'hadewych')).toEqual({
      armyId: 'hadewych', hex: '0303', next: [{ armyId: 'ingegerd', direction: 'n', enemy: true }, { armyId: 'aeskrvald', direction: 'se', enemy: true }],
    });
  });

  it('GIVEN each force\'s own state THEN unformed (as if in retreat) and a third while building rafts, fatigued, only the regiments ashore', () => {
    expect(conditions.forces['hadewych']).toEqual({ armyId: 'hadewych', fatigued: false, unformed: true, asIfInRetreat: true, raftsDefence: { phase: 'build', share: 1 / 3 } });
    expect(conditions.forces['ingegerd']).toEqual({ armyId: 'ingegerd', fatigued: true, unformed: false, asIfInRetreat: false });
    expect(conditions.forces['aeskrvald']).toEqual({ armyId: 'aeskrvald', fatigued: false, unformed: false, asIfInRetreat: false, debarking: { present: ['aeskrvald first regiment'], awaited: ['aeskrvald regiment 2'] } });
  });

  it('GIVEN the battle joined THEN the channel gets the public conditions only; each commander their own force; the referee all', () => {
    const joined = out.events.find((e) => e.type === 'battleJoined');
    expect(joined?.data?.['conditions']).not.toHaveProperty('forces');
    expect(JSON.stringify(joined?.data)).not.toMatch(/fatigued|unformed|rafts|debarking/);
    const own = out.events.filter((e) => e.type === 'forceCondition');
    expect(own.map((e) => e.audience)).toEqual(['hadewych', 'ingegerd', 'aeskrvald'].map((armyId) => ({ kind: 'army', armyId })));
    expect(own[0]?.text).toMatch(/^Battle c1, your force at the table: unformed: its units begin the battle unrallied, as if in retreat/);
    expect(out.events.find((e) => e.type === 'forceConditions')?.audience).toEqual({ kind: 'referee' });
    const seen = contactView(out.state.contacts['c1']!, { kind: 'army', armyId: 'ingegerd' }).data.conditions;
    expect(Object.keys(seen?.forces ?? {})).toEqual(['ingegerd']);
  });

  it('GIVEN the setting off THEN an unformed force is only unformed, not as if in retreat', () => {
    const s = atTheTable();
    const off = must(resolveDecision({ ...s, settings: { ...s.settings, unformedAsRetreat: false } }, clear, 'c1', dice(3, 4, 5, 2)));
    expect(off.state.contacts['c1']!.data.conditions?.forces['hadewych']).toMatchObject({ unformed: true, asIfInRetreat: false });
  });

  it('GIVEN no fog THEN no visibility is rolled', () => {
    const s = atTheTable();
    const d = dice(3, 4, 5);
    const clearDay = must(resolveDecision({ ...s, weather: { ...s.weather, fog: false } }, clear, 'c1', d));
    expect(clearDay.state.contacts['c1']!.data.conditions?.fog).toBeUndefined();
    expect(d.rolls.some((r) => /fog visibility/.test(r.purpose))).toBe(false);
  });
});
