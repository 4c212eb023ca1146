import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import { dailyPoints, enterCost, marchStatus, planMove } from '../../src/engine/movement/index.js';
import {
  ACKS_PROFILE, basePoints, EXPEDITION_SPEEDS, LARGE_ARMIES, movementProfile, pointsForSpeed, VALORMR_PROFILE,
} from '../../src/engine/profiles/index.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { DEFAULT_SETTINGS, TEMPERATURES, type CampaignSettings } from '../../src/engine/state/settings.js';
import { describeWeather, weatherEffects } from '../../src/engine/weather/index.js';
import { FIRST_MORNING, NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, at, campaign, hx, mapOf, MOVE, order, ticks } from './movementFixtures.js';

const ACKS_SETTINGS = { ...DEFAULT_SETTINGS, profile: 'acks' as const };
const acks = movementProfile(ACKS_SETTINGS);
const road = mapOf(['c'.repeat(40)]);
const east = (from: number, n: number) => Array.from({ length: n }, (_, i) => hx(`${String(from + i).padStart(2, '0')}01`));
const A = (s: CampaignState, id = 'a') => s.armies[id] as Army;
const underAcks = (armies: readonly Army[]): CampaignState => ({ ...campaign(armies), settings: ACKS_SETTINGS });
/** Plays whole days (four half periods each). */
const days = (s: CampaignState, n: number) => ticks(s, road, 4 * n).state;

describe('004 Moving Armies: expedition speeds (1 point = 1 mile, 6-mile hexes)', () => {
  it.each([
    [30, 6], [60, 12], [90, 18], [120, 24], [150, 30], [180, 36], [210, 42], [240, 48], [270, 54], [300, 60], [330, 66], [360, 72],
  ])('GIVEN an exploration speed of %i feet THEN %i miles (points) a day', (feet, points) => {
    expect(pointsForSpeed(EXPEDITION_SPEEDS, feet)).toBe(points);
    expect(points % 6).toBe(0); // whole 6-mile hexes in clear terrain
  });

  it('GIVEN speeds per company or regiment THEN the army marches at its slowest unit; without one, the class rate', () => {
    const base = army('a', '0101', { figures: [10, 10] });
    const [r1, r2] = base.regiments as [Army['regiments'][number], Army['regiments'][number]];
    const a: Army = { ...base, regiments: [{ ...r1, speed: 120 }, { ...r2, companies: [{ ...(r2.companies[0] as Army['regiments'][number]['companies'][number]), speed: 90 }] }] };
    expect(basePoints(a, acks)).toBe(18);
    expect(basePoints({ ...a, regiments: [{ ...r1, speed: 120 }] }, acks)).toBe(24);
    expect(basePoints(base, acks)).toBe(12); // infantry without a stated speed: 60'
    // Valormr reads no stated speeds: the class rate.
    expect(basePoints(a, VALORMR_PROFILE)).toBe(12);
  });
});

describe('004 Movement of Large Armies', () => {
  it.each([
    [15, 3, '1/1'], [16, 6, '2/3'], [26, 6, '2/3'], [27, 9, '1/2'], [32, 9, '1/2'], [33, 12, '1/3'], [40, 12, '1/3'],
  ])('GIVEN %i brigades THEN a column of %i miles and speed x%s', (brigades, column, mult) => {
    const row = LARGE_ARMIES.find((r) => brigades >= r.from);
    expect(row?.columnMiles).toBe(column);
    expect(`${row?.multiplier.num}/${row?.multiplier.den}`).toBe(mult);
  });

  it('GIVEN the worked example by the day (40 brigades, 12 miles a day) THEN on a road /army status shows 4 points (6 miles) and a 6-mile column; off the road a 4-mile one', () => {
    const big = army('a', '0201', { figures: Array.from({ length: 40 }, () => 5) });
    const onRoad = marchStatus(mapOf(['ccc'], { roads: [['0101', '0201'], ['0201', '0301']] }), big, NO_WEATHER_EFFECTS, acks, 1);
    expect(onRoad).toMatchObject({ pointsToday: 4, size: { brigades: 40, multiplier: '1/3', columnMiles: 6, onRoad: true } });
    const offRoad = marchStatus(mapOf(['ccc']), big, NO_WEATHER_EFFECTS, acks, 1);
    expect(offRoad).toMatchObject({ pointsToday: 4, size: { columnMiles: 4, onRoad: false } });
    // A fast large army: the table's 12 miles are the column, however far it marches.
    const fast = { ...big, baseMovePoints: 144 };
    expect(marchStatus(mapOf(['ccc']), fast, NO_WEATHER_EFFECTS, acks, 1).size).toMatchObject({ columnMiles: 12 });
  });

  it('GIVEN the same army on the hex map THEN 4 points a day (12 x 1/3) buy one road hex (cost 4): 6 miles', () => {
    const big = army('a', '0101', { figures: Array.from({ length: 40 }, () => 5) });
    expect(dailyPoints(big, acks, false, NO_WEATHER_EFFECTS, 1)).toBe(4);
    const m = mapOf(['cc'], { roads: [['0101', '0201']] });
    expect(enterCost(m, big, hx('0101'), hx('0201'), { period: 'day', night: false, unformed: false }, acks)).toMatchObject({ ok: true, value: { cost: 4 } });
    // The referee's brigades: two regiments to a brigade halves the size (20 brigades: x2/3).
    const halved = movementProfile({ ...ACKS_SETTINGS, brigadesPerRegiment: 0.5 });
    expect(dailyPoints(big, halved, false, NO_WEATHER_EFFECTS, 1)).toBe(8);
    // Valormr has no large-army rule.
    expect(dailyPoints(big, VALORMR_PROFILE, false, NO_WEATHER_EFFECTS, 1)).toBe(12);
  });

  it('GIVEN a slow army and a hex dearer than its day THEN the unspent points carry and it arrives on the second day', () => {
    const big = army('a', '0101', { figures: Array.from({ length: 40 }, () => 5) });
    let s = order(underAcks([big]), road, 'a', { path: east(2, 2) });
    s = days(s, 1);
    expect(at(s, road, 'a')).toBe('0101');
    expect(A(s).march.savedPoints).toBe(4);
    s = days(s, 1);
    expect(at(s, road, 'a')).toBe('0201'); // 8 points: one clear hex (6), 2 carried
    expect(A(s).march.savedPoints).toBe(2);
  });

  it('GIVEN a slow army short of its next hex WHEN its march is called off THEN nothing carries to the next day', () => {
    const big = army('a', '0101', { figures: Array.from({ length: 40 }, () => 5) });
    let s = order(underAcks([big]), road, 'a', { path: east(2, 2) });
    s = ticks(s, road, 2).state; // morning and afternoon: 4 points, short of the 6 of the next hex
    s = { ...s, orders: {} };
    s = ticks(s, road, 2).state; // evening, night: the order is gone at daybreak
    expect(A(s).march.savedPoints).toBe(0);
  });
});

describe('004 Rest and Recuperation: three days in seven', () => {
  it('GIVEN an army marching every day THEN four days are fine and the fifth fatigues it', () => {
    let s = order(underAcks([army('a', '0101')]), road, 'a', { path: east(2, 30) });
    for (let d = 1; d <= 4; d++) {
      s = days(s, 1);
      expect(A(s).status.fatigued, `day ${d}`).toBe(false);
    }
    s = days(s, 1);
    expect(A(s).status.fatigued).toBe(true);
    expect(A(s).march.fatigueReason).toBe('marchWindow');
    // ACKS fatigue does not slow the march: 12 points a day still.
    expect(at(s, road, 'a')).toBe('1101');
  });

  it('GIVEN four days of march and three of rest, week after week THEN never fatigued', () => {
    let s = underAcks([army('a', '0101')]);
    for (let week = 0; week < 3; week++) {
      s = order(s, road, 'a', { path: east(2 + week * 8, 8) });
      s = days(s, 4);
      s = { ...s, orders: {} };
      s = days(s, 3);
      expect(A(s).status.fatigued, `week ${week + 1}`).toBe(false);
    }
    expect(at(s, road, 'a')).toBe('2501');
  });

  it('GIVEN a fatigued army THEN it recovers only once the last seven days hold four marching days at most', () => {
    let s = order(underAcks([army('a', '0101')]), road, 'a', { path: east(2, 10) });
    s = days(s, 5); // days 1-5 marched: fatigued on day 5
    s = { ...s, orders: {} };
    s = days(s, 2); // days 6 and 7 rested: days 1-7 hold five marching days
    expect(A(s).status.fatigued).toBe(true);
    s = days(s, 1); // day 8 rested: days 2-8 hold four
    expect(A(s).status.fatigued).toBe(false);
  });

  it('GIVEN tireless troops (constructs) THEN they march every day, and force-march, without fatigue', () => {
    const golems: Army = { ...army('a', '0101'), tireless: true };
    let s = order(underAcks([golems]), road, 'a', { path: east(2, 30), forced: true });
    s = days(s, 8);
    expect(A(s).status.fatigued).toBe(false);
    expect(at(s, road, 'a')).toBe('2501'); // 18 points, three hexes a day
    // A whole army of tireless companies is tireless too.
    const base = army('b', '0101');
    const companies: Army = { ...base, regiments: base.regiments.map((r) => ({ ...r, companies: r.companies.map((c) => ({ ...c, tireless: true })) })) };
    let t = order(underAcks([companies]), road, 'b', { path: east(2, 20) });
    t = days(t, 7);
    expect(A(t, 'b').status.fatigued).toBe(false);
  });
});

describe('004 Forced Marching', () => {
  it('GIVEN a forced march THEN +50 %, and moving the next day fatigues even if the extra was not used', () => {
    expect(dailyPoints(army('a', '0101'), acks, true, NO_WEATHER_EFFECTS, 1)).toBe(18);
    let s = order(underAcks([army('a', '0101')]), road, 'a', { path: east(2, 1), forced: true });
    s = days(s, 1);
    expect(at(s, road, 'a')).toBe('0201'); // one hex: 6 of 18 points, less than a normal day
    s = order(s, road, 'a', { path: east(3, 1) });
    s = ticks(s, road, 1).state;
    expect(A(s).status.fatigued).toBe(true);
    expect(A(s).march.fatigueReason).toBe('forcedMarch');
  });

  it('GIVEN a forced march ordered before the day began THEN the books say so (the deployment bonus); ordered during the day, not', () => {
    let s = order(underAcks([army('a', '0101')]), road, 'a', { path: east(2, 3), forced: true });
    s = ticks(s, road, 1).state;
    expect(A(s).march).toMatchObject({ forcedMarchDay: 1, forcedMarchEarly: true });
    const late = order({ ...underAcks([army('a', '0101')]), clock: { day: 1, half: 1 } }, road, 'a', { path: east(2, 3), forced: true });
    const after = ticks(late, road, 1).state;
    expect(A(after).march.forcedMarchDay).toBe(1);
    expect(A(after).march.forcedMarchEarly).toBeUndefined();
  });
});

describe('004 Movement of War Machines', () => {
  const withMachines = (state: 'assembled' | 'disassembled' | undefined): Army => {
    const base = army('a', '0101', { figures: [10, 2] });
    const [r1, r2] = base.regiments as [Army['regiments'][number], Army['regiments'][number]];
    const machines = { ...r2, companies: r2.companies.map((c) => ({ ...c, troopType: 'catapults', warMachine: true })) };
    return { ...base, regiments: [{ ...r1, speed: 120 }, machines], ...(state ? { warMachines: { state } } : {}) };
  };
  it('GIVEN war machines THEN 6 miles a day assembled (30\'), 12 disassembled (60\'), and the army moves at their pace', () => {
    expect(basePoints(withMachines('assembled'), acks)).toBe(6);
    expect(basePoints(withMachines('disassembled'), acks)).toBe(12);
    expect(basePoints(withMachines(undefined), acks)).toBe(12); // disassembled unless assembled
  });
  it('GIVEN machines being assembled THEN the army does not march until they are ready', () => {
    const working: Army = { ...withMachines('disassembled'), warMachines: { state: 'disassembled', changing: { to: 'assembled', readyDay: 2 } } };
    let s = order(underAcks([working]), road, 'a', { path: east(2, 4) });
    s = days(s, 1);
    expect(at(s, road, 'a')).toBe('0101');
    expect(A(s).warMachines).toEqual({ state: 'assembled' });
    s = days(s, 1);
    expect(at(s, road, 'a')).toBe('0201'); // assembled: 6 points, one clear hex
  });
});

describe('004 Effects of Weather Conditions: effects multiply', () => {
  const acksWeather = (w: Partial<typeof FIRST_MORNING>) => weatherEffects({ ...FIRST_MORNING, ...w }, ACKS_SETTINGS);
  it.each([
    ['hard rain (rainy): halved', { sky: 'hardRain' as const }, 0.5],
    ['high winds (windy): halved', { wind: 'highWinds' as const }, 0.5],
    ['a gale (stormy): quartered', { wind: 'gale' as const }, 0.25],
    ['hard rain and high winds: 50 % x 50 % = 25 %', { sky: 'hardRain' as const, wind: 'highWinds' as const }, 0.25],
    ['hard rain and a gale: 50 % x 25 %', { sky: 'hardRain' as const, wind: 'gale' as const }, 0.125],
    ['light rain (drizzly): no effect', { sky: 'lightRain' as const }, 1],
  ])('GIVEN %s THEN x%d', (_n, w, factor) => {
    expect(acksWeather(w).overlandFactor).toBe(factor);
  });
  it('GIVEN the same weather under Valormr THEN the largest reduction only, and high winds do not slow a march', () => {
    const valormr = (w: Partial<typeof FIRST_MORNING>) => weatherEffects({ ...FIRST_MORNING, ...w }, DEFAULT_SETTINGS);
    expect(valormr({ sky: 'hardRain', wind: 'highWinds' }).overlandFactor).toBe(0.75);
    expect(valormr({ sky: 'hardRain', rainLevel: 3 }).overlandFactor).toBe(0.5);
    expect(valormr({ wind: 'gale' }).overlandFactor).toBe(1);
  });
  it('GIVEN rain under ACKS THEN reconnaissance -1 on the contact dice and missile attacks -2 in the briefing; a gale -4 to missiles; Valormr has neither', () => {
    expect(acksWeather({ sky: 'hardRain' })).toMatchObject({ reconnaissance: -1, battlefield: { missileAttack: -2, missileHits: 0 } });
    expect(acksWeather({ wind: 'gale' }).battlefield).toMatchObject({ missileAttack: -4, missileHits: 0 });
    expect(acksWeather({ sky: 'hardRain' }).battlefield.notes).toContain('Severe weather: missile units -2 to their attack throws.');
    const v = weatherEffects({ ...FIRST_MORNING, sky: 'hardRain', wind: 'highWinds' }, DEFAULT_SETTINGS);
    expect(v.reconnaissance).toBeUndefined();
    expect(v.battlefield).toMatchObject({ missileHits: -1 });
    expect(v.battlefield.missileAttack).toBeUndefined();
  });
  it('GIVEN a march in hard rain and high winds under ACKS THEN a quarter of the day\'s points', () => {
    const w = acksWeather({ sky: 'hardRain', wind: 'highWinds' });
    expect(dailyPoints(army('c', '0101', { movementClass: 'cavalry' }), acks, false, w, 1)).toBe(6);
    const plan = planMove(underAcks([army('c', '0101', { movementClass: 'cavalry' })]), road, w, 'c', { ...MOVE, path: east(2, 2) });
    expect(plan.ok && plan.value.days).toBe(2);
  });
});

describe('004 Effects of Weather Conditions: temperature, the referee\'s setting of the season', () => {
  const under = (temperature: (typeof TEMPERATURES)[number], w: Partial<typeof FIRST_MORNING> = {}, settings: CampaignSettings = ACKS_SETTINGS) => weatherEffects({ ...FIRST_MORNING, ...w }, { ...settings, temperature });
  it.each([
    ['frigid', {}, 0.5, 'frigid cold'],
    ['sweltering', {}, 0.5, 'sweltering heat'],
    ['frigid', { sky: 'hardRain' as const }, 0.25, 'hard rain and frigid cold'],
    ['sweltering', { wind: 'gale' as const }, 0.125, 'a gale and sweltering heat'],
  ] as const)('GIVEN a %s season and %o THEN x%d (%s)', (t, w, factor, reason) => {
    expect(under(t, w)).toMatchObject({ overlandFactor: factor, overlandReason: reason });
  });
  it('GIVEN a cold or moderate season THEN the march is not slowed (cold\'s disease is outside the bot)', () => {
    expect(under('cold').overlandFactor).toBe(1);
    expect(under('moderate').overlandFactor).toBe(1);
  });
  it('GIVEN any temperature under Valormr THEN nothing changes: its weather has no temperature', () => {
    for (const t of TEMPERATURES) expect(under(t, { sky: 'hardRain' }, DEFAULT_SETTINGS).overlandFactor).toBe(0.75);
  });
  it('GIVEN a frigid season THEN an ACKS army\'s daily points are halved (24 miles become 12)', () => {
    expect(dailyPoints(army('c', '0101', { movementClass: 'cavalry' }), acks, false, under('frigid'), 1)).toBe(12);
  });
  it('GIVEN a frigid season THEN the weather line says so in words', () => {
    expect(describeWeather(FIRST_MORNING, { ...ACKS_SETTINGS, temperature: 'frigid' })).toBe('Clear skies; frigid. Overland move points at 50 % (frigid cold).');
    expect(describeWeather(FIRST_MORNING, { ...DEFAULT_SETTINGS, temperature: 'frigid' })).toBe('Clear skies.');
  });
});

describe('the ACKS profile as data', () => {
  it('GIVEN the profile THEN it reads Valormr\'s terrain costs (004 prints only the road\'s x1.5, the same as x2/3 cost), and a referee table replaces them', () => {
    expect(ACKS_PROFILE.terrain).toEqual(VALORMR_PROFILE.terrain);
    const custom = movementProfile({ ...ACKS_SETTINGS, terrainCosts: { forest: 12, swamp: 18 } });
    expect(custom.terrain.costs).toMatchObject({ clear: 6, forest: 12, swamp: 18, hill: 9 });
    expect(custom.key).not.toBe(acks.key);
    const m = mapOf(['cf']);
    expect(enterCost(m, army('a', '0101'), hx('0101'), hx('0201'), { period: 'day', night: false, unformed: false }, custom)).toMatchObject({ ok: true, value: { cost: 12 } });
  });
});
