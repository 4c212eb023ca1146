import { describe, expect, it } from 'vitest';
import { type Army, regimentFigures } from '../../src/engine/forces/army.js';
import { fatigueOnMoving, halvesSinceLongRest } from '../../src/engine/movement/restAndFatigue.js';
import { restFactorFromDay } from '../../src/engine/movement/index.js';
import { stragglerFigures } from '../../src/engine/movement/stragglers.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { army, at, campaign, valormr, dice, halves, hexes, hx, mapOf, MOVE, order, riverDownColumn2, tick, ticks } from './movementFixtures.js';
import { planMove } from '../../src/engine/movement/planMove.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';

const road = mapOf(['c'.repeat(30)]);
const east = (from: number, n: number) => Array.from({ length: n }, (_, i) => hx(`${String(from + i).padStart(2, '0')}01`));
const A = (s: CampaignState, id = 'a') => s.armies[id] as Army;

describe('000 Overland Travel: Weekly Rest and Fatigued — a week on the road', () => {
  it('GIVEN an infantry army marching every day THEN six days are fine, the seventh fatigues it, a full day of rest recovers', () => {
    let s = order(campaign([army('a', '0101')]), road, 'a', { path: east(2, 28) });
    const daysMarched: number[] = [];
    for (let day = 1; day <= 6; day++) {
      s = ticks(s, road, 4).state;
      daysMarched.push(A(s).march.daysMarched);
      expect(A(s).status.fatigued).toBe(false);
    }
    expect(daysMarched).toEqual([1, 2, 3, 4, 5, 6]);
    expect(at(s, road, 'a')).toBe('1301'); // two hexes a day
    // Day 7: marching again fatigues it.
    const d7 = ticks(s, road, 4);
    s = d7.state;
    expect(A(s).status.fatigued).toBe(true);
    expect(A(s).march.fatigueReason).toBe('seventhDay');
    expect(d7.events.some((e) => e.type === 'armyFatigued' && e.audience.kind === 'army')).toBe(true);
    // Fatigue bites at once: 12 x 0.75 = 9 points, 6 spent, 3 left: one hex on day 7.
    expect(at(s, road, 'a')).toBe('1401');
    // Day 8: still fatigued, 9 points: one clear hex.
    expect(A(s).march.pointsLeft).toBe(9);
    s = ticks(s, road, 4).state;
    expect(at(s, road, 'a')).toBe('1501');
    // Day 9: hold (full rest). Day 10: recovered.
    s = { ...s, orders: {} };
    s = ticks(s, road, 4).state;
    expect(A(s).status.fatigued).toBe(false);
    expect(A(s).march.daysMarched).toBe(0);
    expect(A(s).march.pointsLeft).toBe(12);
  });
});

describe('000 Overland Travel: Forced March', () => {
  it('GIVEN a forced march THEN 18 points carry the army three clear hexes', () => {
    let s = order(campaign([army('a', '0101')]), road, 'a', { path: east(2, 3), forced: true });
    s = ticks(s, road, 2).state;
    expect(at(s, road, 'a')).toBe('0401');
  });
  it('GIVEN a forced march and a move the next day THEN the army is fatigued', () => {
    let s = order(campaign([army('a', '0101')]), road, 'a', { path: east(2, 3), forced: true });
    s = ticks(s, road, 4).state;
    s = order(s, road, 'a', { path: east(5, 1) });
    // Fatigue bites from the first step: 6 of the fatigued day's 9 points fall in the afternoon.
    s = ticks(s, road, 1).state;
    expect(at(s, road, 'a')).toBe('0401');
    expect(A(s).status.fatigued).toBe(false);
    s = ticks(s, road, 1).state;
    expect(at(s, road, 'a')).toBe('0501');
    expect(A(s).status.fatigued).toBe(true);
    expect(A(s).march.fatigueReason).toBe('forcedMarch');
  });
  it('GIVEN a forced march two days running THEN the second day fatigues the army', () => {
    let s = order(campaign([army('a', '0101')]), road, 'a', { path: east(2, 8), forced: true });
    s = ticks(s, road, 5).state;
    expect(A(s).status.fatigued).toBe(true);
    expect(A(s).march.fatigueReason).toBe('forcedMarch');
  });
  it('GIVEN a forced march and a day of rest THEN no fatigue', () => {
    let s = order(campaign([army('a', '0101')]), road, 'a', { path: east(2, 3), forced: true });
    s = ticks(s, road, 8).state;
    s = order(s, road, 'a', { path: east(5, 1) });
    s = ticks(s, road, 1).state;
    expect(A(s).status.fatigued).toBe(false);
    expect(at(s, road, 'a')).toBe('0501');
  });
});

describe('000 Overland Travel: Daily Rest (half periods)', () => {
  it.each([
    ['', 0], ['mmrr', 0], ['rrmm', 2], ['rmrm', 4], ['mmmmm', 5], ['rrmrmr', 4],
  ] as const)('halves since two consecutive rests in %s: %i', (log, n) => {
    expect(halvesSinceLongRest(halves(log))).toBe(n);
  });
  it.each([['mmrr', 1], ['mmmr', 0.5], ['mmmm', 0], ['wwrr', 1], ['', 1]] as const)('GIVEN yesterday %s THEN %s of the points come back', (log, f) => {
    expect(restFactorFromDay(halves(log), valormr())).toBe(f);
  });
  it('GIVEN rest-move-rest-move for two periods THEN a third move without two halves of rest fatigues', () => {
    const a = army('orc', '0101', { sight: 'dark' });
    expect(fatigueOnMoving({ ...a, march: { ...a.march, recentHalves: halves('rrrmrm') } }, { day: 2, half: 0 }, valormr())).toBeUndefined();
    expect(fatigueOnMoving({ ...a, march: { ...a.march, recentHalves: halves('rrrmrmr'), movedToday: true } }, { day: 2, half: 1 }, valormr())).toBe('noLongRest');
  });
  it('GIVEN a dark-seeing infantry force splitting every day THEN on the second day the fatigued share (9 / 2 = 4) cannot pay a clear hex: it rests instead', () => {
    let s = order(campaign([army('orc', '0101', { sight: 'dark', side: 'chaos' })]), road, 'orc', { period: 'split', path: east(2, 10) });
    s = ticks(s, road, 6).state;
    expect(A(s, 'orc').march.recentHalves).toEqual(halves('rmrmrr'));
    expect(A(s, 'orc').status.fatigued).toBe(false);
  });
});

describe('000 Terrain Effects: Units, Formed and Unformed — stragglers', () => {
  const mtn = mapOf(['cmmc']);
  it('GIVEN a day unformed (half-dice 3 = 15 %) THEN each regiment loses figures rounded up; a day waiting reforms and brings back 5 %', () => {
    expect(stragglerFigures(20, 15)).toBe(3);
    expect(stragglerFigures(7, 15)).toBe(2);
    let s = order(campaign([army('a', '0101', { figures: [20, 7] })]), mtn, 'a', { path: [hx('0201')], unformed: true });
    const d = dice([5, 2]);
    s = ticks(s, mtn, 4, d).state; // day 1: into the mountain, unformed; daybreak: stragglers (die 5)
    expect(A(s).formation).toBe('unformed');
    expect(A(s).regiments.map(regimentFigures)).toEqual([17, 5]);
    expect(A(s).march.stragglers.reduce((n, x) => n + x.figures, 0)).toBe(5);
    s = ticks(s, mtn, 4, d).state; // day 2: waits; daybreak: reformed, die 2 -> 5 %
    expect(A(s).formation).toBe('formed');
    expect(A(s).regiments.map(regimentFigures)).toEqual([18, 6]);
    expect(A(s).march.rallyPoint).toEqual(hx('0201'));
    s = order(s, mtn, 'a', { path: [hx('0301')], unformed: true });
    const out = ticks(s, mtn, 2, d);
    expect(A(out.state).march.stragglers).toEqual([]);
    expect(out.events.find((e) => e.type === 'movementOutcome')?.data?.['notes']).toEqual([{ kind: 'stragglersLeft', figures: 3, at: '0201' }]);
  });
});

describe('000 Terrain Effects: multi-day crossings', () => {
  const river = (size: 'major' | 'minor', site?: 'ferry') => mapOf(['ccc', 'ccc', 'ccc', 'ccc', 'ccc'], { rivers: [riverDownColumn2(size, site, '0202')] });
  it('GIVEN a minor-river ferry THEN the army is across after one day and formed', () => {
    const m = river('minor', 'ferry');
    let s = order(campaign([army('a', '0102')]), m, 'a', { path: hexes('0202 0302') });
    s = ticks(s, m, 4).state; // day 1: into 0202; the ferry waits for a fresh period
    expect(at(s, m, 'a')).toBe('0202');
    s = tick(s, m).state; // day 2 morning: ferry begins
    expect(A(s).march.operation).toMatchObject({ kind: 'ferry', remainingHalves: 3 });
    expect(A(s).formation).toBe('unformed');
    s = ticks(s, m, 3).state; // across at daybreak of day 3
    expect(A(s).march.operation).toBeUndefined();
    expect(A(s).bank).toBe('left');
    expect(A(s).formation).toBe('formed');
    s = tick(s, m).state;
    expect(at(s, m, 'a')).toBe('0302');
  });
  it('GIVEN rafts outside forest and a timber die of 3 THEN the day is lost, the hex barred and the order cancelled', () => {
    const m = river('major');
    let s = order(campaign([army('a', '0102')]), m, 'a', { path: [hx('0202')], crossAtEnd: true });
    const out = ticks(s, m, 8, dice([3]));
    s = out.state;
    expect(A(s).march.operation).toBeUndefined();
    expect(A(s).march.noRaftHexes).toEqual([hx('0202')]);
    expect(s.orders['a']).toBeUndefined();
    expect(out.events.some((e) => e.type === 'raftsFailed' && e.audience.kind === 'public')).toBe(true);
  });
  it('GIVEN rafts and enough timber (die 5) THEN three days later the army is on the far bank', () => {
    const m = river('major');
    let s = order(campaign([army('a', '0102')]), m, 'a', { path: [hx('0202')], crossAtEnd: true });
    s = ticks(s, m, 5, dice([5])).state; // day 1, then day 2 morning: timber
    expect(A(s).march.operation).toMatchObject({ kind: 'rafts', phase: 'timber' });
    s = ticks(s, m, 4, dice([5])).state; // end of day 2: timber die, building
    expect(A(s).march.operation?.phase).toBe('build');
    expect(A(s).formation).toBe('formed');
    s = ticks(s, m, 8).state;
    expect(A(s).march.operation).toBeUndefined();
    expect(A(s).bank).toBe('left');
    expect(s.orders['a']).toBeUndefined();
  });
});

describe('000 Terrain Effects: Saving Move Points (resolution)', () => {
  it('GIVEN save:true and 3 points unspent THEN the next day has 15', () => {
    const m = mapOf(['csss']);
    let s = order(campaign([army('a', '0101')]), m, 'a', { path: hexes('0201 0301 0401'), save: true });
    s = ticks(s, m, 4).state;
    expect(A(s).march.savedPoints).toBe(3);
    expect(A(s).march.pointsLeft).toBe(15);
  });
  it('GIVEN no save order THEN nothing carries over', () => {
    const m = mapOf(['csss']);
    let s = order(campaign([army('a', '0101')]), m, 'a', { path: hexes('0201 0301 0401') });
    s = ticks(s, m, 4).state;
    expect(A(s).march.savedPoints).toBe(0);
  });
});

describe('000 Overland Travel: Forced March — the preview counts the fatigue the order itself causes', () => {
  it('GIVEN a forced march over three days THEN the preview gives each hex the day it is entered when played (18 points, then 13 a day fatigued)', () => {
    const s0 = campaign([army('a', '0101')]);
    const plan = planMove(s0, road, NO_WEATHER_EFFECTS, 'a', { ...MOVE, forced: true, path: east(2, 7) });
    if (!plan.ok) throw new Error(plan.violation.message);
    const previewDay = new Map(plan.value.steps.map((st) => [st.hex, st.dayOffset]));
    expect(plan.value.steps.map((st) => st.dayOffset)).toEqual([0, 0, 0, 1, 1, 2, 2]);
    let s = order(s0, road, 'a', { path: east(2, 7), forced: true });
    const path = east(2, 7).map((h) => road.format(h));
    const enteredOn = new Map<string, number>();
    for (let half = 0; half < 12; half++) {
      s = tick(s, road).state;
      // Every hex of the path up to where the army stands was entered by this day.
      const reached = path.indexOf(at(s, road, 'a'));
      for (const hex of path.slice(0, reached + 1)) if (!enteredOn.has(hex)) enteredOn.set(hex, Math.floor(half / 4));
    }
    for (const [hex, day] of previewDay) expect(enteredOn.get(hex), hex).toBe(day);
  });
});
