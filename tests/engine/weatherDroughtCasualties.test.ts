import { describe, expect, it } from 'vitest';
import type { GameTime } from '../../src/engine/clock/gameTime.js';
import { createRngState, NO_MANUAL_DICE, SeededDice } from '../../src/engine/dice/index.js';
import { NO_KNOWLEDGE } from '../../src/engine/knowledge/index.js';
import { FRESH_MARCH, FRESH_STATUS, regimentFigures, type Army, type Regiment } from '../../src/engine/forces/army.js';
import { buildMap } from '../../src/engine/map/mapModel.js';
import { resolveTick } from '../../src/engine/tick/resolveTick.js';
import { scenarioSchemas } from '../../src/engine/scenario/schema.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import { DROUGHT_LOSSES_DAY_KEY, droughtFigures } from '../../src/engine/weather/droughtCasualtyStep.js';
import { droughtCasualtyStep, droughtTrack, FIRST_MORNING, weatherStep, weatherEffects, type WeatherState } from '../../src/engine/weather/index.js';

const map = buildMap(scenarioSchemas().map.parse({ width: 2, height: 2, terrain: ['cc', 'cc'] }));

const regiment = (id: string, ...companies: number[]): Regiment => ({
  id, name: `Regiment ${id}`, role: 'assault', originalFigures: companies.reduce((a, b) => a + b, 0),
  companies: companies.map((figures) => ({ troopType: 'heavy foot', basic: 'infantry' as const, figures })),
});

const army = (id: string, regiments: Regiment[], destroyed = false): Army => ({
  id, name: `Army ${id}`, commander: `Lord ${id}`, side: 's', hex: { q: 0, r: 0 }, movementClass: 'infantry', sight: 'light', nocturnal: false,
  regiments, individuals: [{ id: 'l', name: 'Leader', kind: 'leader' }], scouts: 0, vessels: {}, formation: 'formed',
  status: { ...FRESH_STATUS, destroyed }, march: FRESH_MARCH,
});

const inWeek = (week: number): WeatherState => ({ ...FIRST_MORNING, track: { 'drought.week': week, 'drought.dryWeeks': 4, 'drought.rainPeriods': 0 } });

function campaign(clock: GameTime, weather: WeatherState, drought = true, armies: Army[] = [army('a', [regiment('r1', 20), regiment('r2', 7, 4)]), army('b', [regiment('r3', 30)])]): CampaignState {
  return {
    id: 'c1', name: 'Test', scenarioId: 'test', season: 'summer', status: 'running', settings: { ...DEFAULT_SETTINGS, drought }, clock,
    sides: {}, armies: Object.fromEntries(armies.map((a) => [a.id, a])), orders: {}, weather, contacts: {}, couriers: {}, rng: createRngState(1), manualDice: NO_MANUAL_DICE, knowledge: NO_KNOWLEDGE, nextId: 1, nextCourierId: 1, plans: {},
  };
}

const scripted = (...faces: number[]): SeededDice => new SeededDice(createRngState(3), faces);
const run = (state: CampaignState, dice: SeededDice) => droughtCasualtyStep({ state, map, dice, weather: weatherEffects(state.weather, state.settings) });
const figuresOf = (s: CampaignState, armyId: string) => s.armies[armyId]?.regiments.map(regimentFigures);

describe('000 Advanced: Drought casualties, once a week', () => {
  it('Seventh week: GIVEN the morning of day 8 THEN each force rolls half-dice x 5 % and each regiment loses that share of its current figures, rounded up', () => {
    const state = campaign({ day: 8, half: 0 }, inWeek(7));
    const dice = scripted(3, 6); // army a: half-dice 2 → 10 %; army b: half-dice 3 → 15 %
    const out = run(state, dice);
    expect(dice.rolls.map((r) => r.purpose)).toEqual(['drought casualties of Army a (half-dice x 5 %)', 'drought casualties of Army b (half-dice x 5 %)']);
    expect(figuresOf(out.state, 'a')).toEqual([18, 9]); // 20 → -2; 11 → -ceil(1.1) = -2, spread over its companies in proportion
    expect(out.state.armies.a?.regiments[1]?.companies.map((c) => c.figures)).toEqual([6, 3]); // 7:4 of 9 → 5.7 and 3.3, largest remainder first
    expect(figuresOf(out.state, 'b')).toEqual([25]); // 30 x 15 % = 4.5 → 5
    expect(out.state.armies.a?.individuals).toEqual(state.armies.a?.individuals);
  });

  it('Eighth week: GIVEN drought week 8 THEN losses are dice x 5 %', () => {
    const out = run(campaign({ day: 15, half: 0 }, inWeek(8)), scripted(6, 1));
    expect(figuresOf(out.state, 'a')).toEqual([14, 7]); // 30 %: 20 → 6 lost; 11 → ceil(3.3) = 4 lost
    expect(figuresOf(out.state, 'b')).toEqual([28]); // 5 %: 1.5 → 2
  });

  it('GIVEN the losses THEN each commander hears the numbers, the channel hears none, the referee gets the list', () => {
    const out = run(campaign({ day: 8, half: 0 }, inWeek(7)), scripted(1, 1));
    const pub = out.events.filter((e) => e.audience.kind === 'public');
    expect(pub).toHaveLength(1);
    expect(pub[0]?.type).toBe('droughtTookToll');
    expect(pub[0]?.data).toEqual({ time: { day: 8, half: 0 } });
    const toA = out.events.filter((e) => e.audience.kind === 'army' && e.audience.armyId === 'a');
    expect(toA).toHaveLength(1);
    expect(toA[0]?.data).toEqual({
      time: { day: 8, half: 0 }, armyId: 'a', percent: 5, figuresLost: 2,
      regiments: [{ regimentId: 'r1', name: 'Regiment r1', before: 20, lost: 1 }, { regimentId: 'r2', name: 'Regiment r2', before: 11, lost: 1 }],
    });
    expect(out.events.find((e) => e.audience.kind === 'referee')?.data).toMatchObject({ losses: [{ armyId: 'a', percent: 5, figuresLost: 2 }, { armyId: 'b', percent: 5, figuresLost: 2 }] });
  });

  it('GIVEN week 7 conditions but not the first morning of a week THEN nothing happens', () => {
    for (const clock of [{ day: 8, half: 1 }, { day: 9, half: 0 }, { day: 1, half: 0 }] as const) {
      const state = campaign(clock, inWeek(7));
      const dice = scripted();
      expect(run(state, dice)).toEqual({ state, events: [] });
      expect(dice.rolls).toHaveLength(0);
    }
  });

  it('GIVEN drought week 6 (no losses yet), or the optional rule off THEN nothing happens', () => {
    const week6 = campaign({ day: 8, half: 0 }, inWeek(6));
    expect(run(week6, scripted()).events).toEqual([]);
    const off = campaign({ day: 8, half: 0 }, inWeek(7), false);
    expect(run(off, scripted()).state).toBe(off);
  });

  it('GIVEN the losses of a week were taken THEN running the step again that morning takes none', () => {
    const first = run(campaign({ day: 8, half: 0 }, inWeek(7)), scripted(6, 6));
    expect(first.state.weather.track[DROUGHT_LOSSES_DAY_KEY]).toBe(8);
    const dice = scripted(6, 6);
    const again = run(first.state, dice);
    expect(again.state).toBe(first.state);
    expect(dice.rolls).toHaveLength(0);
  });

  it('GIVEN a destroyed army or one with only individuals THEN it rolls nothing and loses nothing', () => {
    const armies = [army('a', [regiment('r1', 10)], true), army('b', []), army('c', [regiment('r3', 1)])];
    const dice = scripted(1);
    const out = run(campaign({ day: 8, half: 0 }, inWeek(7), true, armies), dice);
    expect(dice.rolls).toHaveLength(1);
    expect(figuresOf(out.state, 'a')).toEqual([10]);
    expect(figuresOf(out.state, 'c')).toEqual([0]); // 5 % of 1 figure rounds up to the whole figure
  });

  it('GIVEN the step after the weather step in openHalf THEN a sixth dry week closing on day 8 brings the seventh week and its first losses', () => {
    const plan = { closeHalf: [], openHalf: [weatherStep, droughtCasualtyStep], effects: (s: CampaignState) => weatherEffects(s.weather, s.settings) };
    const state = campaign({ day: 7, half: 3 }, inWeek(6));
    const dice = scripted(2, 1, 1); // clear column 2: no change; drought: half-dice 1 → 5 % each
    const out = resolveTick(state, map, dice, plan);
    expect(out.state.clock).toEqual({ day: 8, half: 0 });
    expect(droughtTrack(out.state.weather).week).toBe(7);
    expect(figuresOf(out.state, 'a')).toEqual([19, 10]);
    expect(out.events.map((e) => e.type)).toEqual(expect.arrayContaining(['droughtChanged', 'weatherRolled', 'droughtTookToll', 'droughtCasualties']));
  });

  it('droughtFigures rounds up to whole figures and never takes more than there are', () => {
    expect(droughtFigures(20, 5)).toBe(1);
    expect(droughtFigures(21, 5)).toBe(2);
    expect(droughtFigures(3, 30)).toBe(1);
    expect(droughtFigures(0, 30)).toBe(0);
    expect(droughtFigures(10, 0)).toBe(0);
  });
});
