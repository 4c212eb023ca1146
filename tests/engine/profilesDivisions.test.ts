import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import { mergeArmies, splitArmy } from '../../src/engine/movement/index.js';
import { recovers } from '../../src/engine/movement/restAndFatigue.js';
import { movementProfile } from '../../src/engine/profiles/index.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import { namesOf } from '../../src/engine/events/index.js';
import { describeWeatherFact } from '../../src/engine/weather/describeWeather.js';
import { FIRST_MORNING } from '../../src/engine/weather/types.js';
import { army, campaign, hx, mapOf } from './movementFixtures.js';

const ACKS_SETTINGS = { ...DEFAULT_SETTINGS, profile: 'acks' as const };
const map = mapOf(['c'.repeat(10), 'c'.repeat(10), 'c'.repeat(10)]);
const underAcks = (armies: readonly Army[]): CampaignState => ({ ...campaign(armies), settings: ACKS_SETTINGS });
const must = <T>(r: { ok: true; value: T } | { ok: false; violation: { code: string } }): T => {
  if (!r.ok) throw new Error(r.violation.code);
  return r.value;
};
/** A new day's points for every army (splits and merges spend the day's points). */
const freshDay = (s: CampaignState): CampaignState => ({ ...s, armies: Object.fromEntries(Object.entries(s.armies).map(([id, a]) => [id, { ...a, march: { ...a.march, pointsLeft: 12, spentToday: 0 } }])) });
const code = (r: { ok: boolean; violation?: { code: string } }): string | undefined => (r.ok ? undefined : r.violation?.code);

/** An army of three regiments (a-r1, a-r2, a-r3) with stragglers of its first and third. */
function straggling(): Army {
  const a = army('a', '0202', { figures: [20, 16, 12] });
  return { ...a, march: { ...a.march, stragglers: [{ regimentId: 'a-r1', company: 0, figures: 2 }, { regimentId: 'a-r3', company: 0, figures: 3 }] } };
}

describe('004 divisions: split and merge keep the army whole', () => {
  it('GIVEN stragglers WHEN the army splits and merges again THEN each follows its own regiment and none is counted twice', () => {
    const s0 = underAcks([straggling()]);
    const split = must(splitArmy(s0, map, { armyId: 'a', regiments: ['a-r3'], to: hx('0302') }));
    const parent = split.state.armies.a as Army;
    const division = split.state.armies[split.divisionId] as Army;
    expect(parent.march.stragglers.map((s) => s.regimentId)).toEqual(['a-r1']);
    expect(division.march.stragglers.map((s) => s.regimentId)).toEqual(['a-r3']);
    expect(division.divisionOf).toBe('a');
    const merged = must(mergeArmies(split.state, map, split.divisionId, 'a'));
    const whole = merged.state.armies.a as Army;
    expect(whole.march.stragglers.reduce((n, s) => n + s.figures, 0)).toBe(5);
    expect(whole.regiments.map((r) => r.id)).toEqual(['a-r1', 'a-r2', 'a-r3']);
    expect(whole.divisionOf).toBeUndefined();
  });

  it('GIVEN two armies of one side that were never one THEN they do not merge', () => {
    const s0 = underAcks([army('a', '0202'), army('b', '0302')]);
    expect(code(mergeArmies(s0, map, 'b', 'a'))).toBe('division.notDivisions');
  });

  it('GIVEN divisions of divisions THEN any two of them join again', () => {
    const s0 = underAcks([army('a', '0202', { figures: [20, 16, 12] })]);
    const first = must(splitArmy(s0, map, { armyId: 'a', regiments: ['a-r2', 'a-r3'], to: hx('0302') }));
    const second = must(splitArmy(freshDay(first.state), map, { armyId: first.divisionId, regiments: ['a-r3'], to: hx('0402') }));
    expect((second.state.armies[second.divisionId] as Army).divisionOf).toBe('a');
    // Numbered from the army they all came from, each led by the commander's officer: the chronicle and the map tell them apart.
    expect([first.divisionId, second.divisionId]).toEqual(['a-2', 'a-3']);
    expect((second.state.armies['a-3'] as Army).commander).toBe('A\'s division 3');
    expect((second.state.armies['a-3'] as Army).name).toBe('Army of a (division 3)');
    expect(code(mergeArmies(freshDay(second.state), map, second.divisionId, first.divisionId))).toBeUndefined();
  });

  it('GIVEN war machines assembled in one half and disassembled in the other THEN joining is refused: it assembles nothing', () => {
    const base = army('a', '0202', { figures: [20, 8] });
    const withMachines: Army = { ...base, warMachines: { state: 'assembled' }, regiments: base.regiments.map((r) => ({ ...r, companies: r.companies.map((c) => ({ ...c, warMachine: true })) })) };
    const split = must(splitArmy(underAcks([withMachines]), map, { armyId: 'a', regiments: ['a-r2'], to: hx('0302') }));
    const d = split.state.armies[split.divisionId] as Army;
    const s = { ...split.state, armies: { ...split.state.armies, [d.id]: { ...d, warMachines: { state: 'disassembled' as const } } } };
    expect(code(mergeArmies(s, map, d.id, 'a'))).toBe('division.machines');
  });

  it('GIVEN a tireless half and a half that is not THEN the army they make owes rest', () => {
    const split = must(splitArmy(underAcks([{ ...army('a', '0202', { figures: [20, 16] }), tireless: true }]), map, { armyId: 'a', regiments: ['a-r2'], to: hx('0302') }));
    const d = split.state.armies[split.divisionId] as Army;
    const s = { ...split.state, armies: { ...split.state.armies, [d.id]: { ...d, tireless: false } } };
    expect((must(mergeArmies(s, map, d.id, 'a')).state.armies.a as Army).tireless).toBe(false);
  });

  it('GIVEN a division merged back while a contact still names it THEN the next division gets another id', () => {
    const s0 = underAcks([army('a', '0202', { figures: [20, 16, 12] })]);
    const split = must(splitArmy(s0, map, { armyId: 'a', regiments: ['a-r3'], to: hx('0302') }));
    expect(split.divisionId).toBe('a-2');
    const merged = freshDay(must(mergeArmies(split.state, map, 'a-2', 'a')).state);
    const withHistory: CampaignState = { ...merged, contacts: { c1: { id: 'c1', armyIds: ['a-2', 'z'], hexes: [], openedAt: { day: 1, half: 0 }, step: 'closed', data: {} } } };
    expect(must(splitArmy(withHistory, map, { armyId: 'a', regiments: ['a-r3'], to: hx('0302') })).divisionId).toBe('a-3');
  });

  it('GIVEN a courier from the division to its army WHEN they merge THEN the courier has nobody to ride to and is dropped', () => {
    const split = must(splitArmy(underAcks([army('a', '0202', { figures: [20, 16] })]), map, { armyId: 'a', regiments: ['a-r2'], to: hx('0302') }));
    const courier = { id: 'k1', fromArmy: split.divisionId, toArmy: 'a' } as unknown as CampaignState['couriers'][string];
    const s = { ...split.state, couriers: { k1: courier } };
    expect(must(mergeArmies(s, map, split.divisionId, 'a')).state.couriers).toEqual({});
  });

  it('GIVEN an army waiting at its port for regiments at sea THEN it neither splits nor merges', () => {
    const s0 = underAcks([army('a', '0202', { figures: [20, 16] })]);
    const waiting = { ...s0, orders: { a: { kind: 'debark' } as unknown as CampaignState['orders'][string] } };
    expect(code(splitArmy(waiting, map, { armyId: 'a', regiments: ['a-r2'], to: hx('0302') }))).toBe('division.busy');
  });
});

describe('004 Rest and Recuperation: the rest owed is caught up whatever fatigued the army', () => {
  it('GIVEN an army fatigued by a forced march with five marching days in the last seven THEN a day of rest is not enough', () => {
    const a = army('a', '0202');
    const tired: Army = { ...a, status: { ...a.status, fatigued: true }, march: { ...a.march, fatigueReason: 'forcedMarch', recentDays: [true, true, true, true, true, false, false] } };
    expect(recovers(tired, true, movementProfile(ACKS_SETTINGS))).toBe(false);
    const caughtUp: Army = { ...tired, march: { ...tired.march, recentDays: [true, true, true, true, false, false, false] } };
    expect(recovers(caughtUp, true, movementProfile(ACKS_SETTINGS))).toBe(true);
    // Valormr has no window: a full day of rest recovers.
    expect(recovers(tired, true, movementProfile(DEFAULT_SETTINGS))).toBe(true);
  });
});

describe('the chronicle tells the weather by the campaign\'s profile', () => {
  it('GIVEN hard rain in high winds under ACKS THEN the chronicle says the points are multiplied down, not Valormr\'s 75 %', () => {
    const weather = { ...FIRST_MORNING, sky: 'hardRain' as const, wind: 'highWinds' as const };
    const fact = (profile: 'acks' | 'valormr') => describeWeatherFact({ type: 'weatherRolled', audience: { kind: 'public' }, data: { time: { day: 1, half: 0 }, weather, drought: false, profile, rolls: [], roll: 'opening' } }, namesOf({}));
    expect(fact('acks')).toContain('25 %');
    expect(fact('acks')).not.toContain('75 %');
    expect(fact('valormr')).toContain('75 %');
  });
});
