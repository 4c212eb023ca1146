import { describe, expect, it } from 'vitest';
import { nextHalf, type GameTime } from '../../src/engine/clock/gameTime.js';
import { createRngState, NO_MANUAL_DICE, SeededDice } from '../../src/engine/dice/index.js';
import { NO_KNOWLEDGE } from '../../src/engine/knowledge/index.js';
import { buildMap } from '../../src/engine/map/mapModel.js';
import { scenarioSchemas } from '../../src/engine/scenario/schema.js';
import type { CampaignState } from '../../src/engine/state/index.js';
import { DEFAULT_SETTINGS } from '../../src/engine/state/settings.js';
import { createWeatherStep } from '../../src/engine/weather/weatherStep.js';
import { defaultWeatherTable, droughtTrack, FIRST_MORNING, weatherEffects, weatherStep, type WeatherState } from '../../src/engine/weather/index.js';
import { type WeatherTable } from '../../src/engine/weather/weatherTable.js';

const map = buildMap(scenarioSchemas().map.parse({ width: 2, height: 2, terrain: ['cc', 'cc'] }));

function campaign(clock: GameTime, weather: WeatherState = FIRST_MORNING, drought = false): CampaignState {
  return {
    id: 'c1',
    name: 'Test',
    scenarioId: 'test',
    season: 'autumn',
    status: 'running',
    settings: { ...DEFAULT_SETTINGS, drought },
    clock,
    sides: {},
    armies: {},
    orders: {},
    weather,
    contacts: {},
    couriers: {},
    rng: createRngState(1), manualDice: NO_MANUAL_DICE, knowledge: NO_KNOWLEDGE,
    nextId: 1, nextCourierId: 1, plans: {},
  };
}

const scripted = (...faces: number[]): SeededDice => new SeededDice(createRngState(3), faces);
const run = (state: CampaignState, dice: SeededDice) => weatherStep({ state, map, dice, weather: weatherEffects(state.weather, state.settings) });

describe('000 Determining Weather: the weather step', () => {
  it('Starting Weather: GIVEN the first morning THEN nothing is rolled and the weather stays clear', () => {
    const state = campaign({ day: 1, half: 0 });
    const dice = scripted();
    const out = run(state, dice);
    expect(dice.rolls).toHaveLength(0);
    expect(out.state).toBe(state);
    expect(out.state.weather.sky).toBe('clear');
    expect(out.events).toHaveLength(1);
    expect(out.events[0]).toMatchObject({ type: 'weatherRolled', audience: { kind: 'public' }, data: { roll: 'opening', time: { day: 1, half: 0 }, weather: state.weather, rolls: [] } });
  });

  it('GIVEN the first afternoon without fog or wind THEN nothing is rolled and nothing reported', () => {
    const dice = scripted();
    const out = run(campaign({ day: 1, half: 1 }), dice);
    expect(dice.rolls).toHaveLength(0);
    expect(out.events).toHaveLength(0);
  });

  it('Period Weather: GIVEN the first evening THEN the weather is rolled on the clear column and reported publicly', () => {
    const dice = scripted(6, 1);
    const out = run(campaign({ day: 1, half: 2 }), dice);
    expect(out.state.weather).toMatchObject({ sky: 'cloudy', fog: true, wind: 'none', rainLevel: 0 });
    expect(out.events.map((e) => e.type)).toEqual(['weatherRolled']);
    expect(out.events[0]?.data).toMatchObject({ roll: 'period', change: true, dice: { tableRolls: [{ column: 'clear', die: 6, result: 'cloudy', change: true }], fogWindDie: 1 } });
    expect(out.events[0]?.data).toMatchObject({ rolls: [
      { purpose: 'weather (clear column)', sides: 6, value: 6 },
      { purpose: 'fog/wind die (weather changed)', sides: 6, value: 1 },
    ] });
  });

  it('000 Fog and Wind Dice: GIVEN fog in the morning WHEN the afternoon starts THEN 1-2 keeps it, 3-6 lifts it', () => {
    const foggy: WeatherState = { ...FIRST_MORNING, sky: 'cloudy', fog: true };
    const kept = run(campaign({ day: 2, half: 1 }, foggy), scripted(2));
    expect(kept.state.weather.fog).toBe(true);
    expect(kept.events[0]?.data).toMatchObject({ roll: 'persistence', phenomenon: 'fog', die: 2, persisted: true, time: { day: 2, half: 1 } });
    const lifted = run(campaign({ day: 2, half: 1 }, foggy), scripted(3));
    expect(lifted.state.weather.fog).toBe(false);
    expect(lifted.events[0]?.data).toMatchObject({ roll: 'persistence', phenomenon: 'fog', die: 3, persisted: false, weather: { sky: 'cloudy', fog: false } });
  });

  it('000 Fog and Wind Dice: GIVEN high winds at night WHEN the die shows 1 THEN they persist; 2 THEN they end', () => {
    const windy: WeatherState = { ...FIRST_MORNING, wind: 'highWinds' };
    const held = run(campaign({ day: 2, half: 3 }, windy), scripted(1));
    expect(held.state.weather.wind).toBe('highWinds');
    expect(held.events[0]?.data).toMatchObject({ roll: 'persistence', phenomenon: 'highWinds', die: 1, persisted: true });
    const ended = run(campaign({ day: 2, half: 3 }, windy), scripted(2));
    expect(ended.state.weather.wind).toBe('none');
    expect(ended.events[0]?.data).toMatchObject({ roll: 'persistence', phenomenon: 'highWinds', die: 2, persisted: false });
  });

  it('000 Fog and Wind Dice: GIVEN fog WHEN the next period brings no change THEN the fog rolls for persistence at the period start', () => {
    const foggy: WeatherState = { ...FIRST_MORNING, sky: 'cloudy', fog: true };
    const dice = scripted(1, 2);
    const out = run(campaign({ day: 2, half: 2 }, foggy), dice);
    expect(out.state.weather).toMatchObject({ sky: 'cloudy', fog: true });
    expect(dice.rolls.map((r) => r.purpose)).toEqual(['weather (cloudy column)', 'fog persistence (goes on on 1 or 2)']);
    expect(out.events[0]?.data).toMatchObject({ roll: 'period', change: false, dice: { tableRolls: [{ column: 'cloudy', die: 1, result: 'noChange', change: false }], persistence: { phenomenon: 'fog', die: 2, persisted: true } } });
  });

  it('000 Fog and Wind Dice: GIVEN fog WHEN the weather dice show a change THEN the fog lifts and the chronicle says so', () => {
    const foggy: WeatherState = { ...FIRST_MORNING, sky: 'cloudy', fog: true };
    const out = run(campaign({ day: 3, half: 0 }, foggy), scripted(3, 4));
    expect(out.state.weather).toMatchObject({ sky: 'clear', fog: false });
    expect(out.events[0]?.data).toMatchObject({ roll: 'period', change: true, dice: { tableRolls: [{ column: 'cloudy', die: 3, result: 'clears', change: true }], fogWindDie: 4, endedByChange: 'fog' } });
  });
});

describe('000 Weather Effects: cumulative effects begin at the end of the triggering period', () => {
  it('GIVEN the first hard-rain period THEN fords are open during it (only -25 %), and closed once it has ended', () => {
    // Day 2 morning: cloudy column 6 (Rain), rainy column 5 (hard rain), fog/wind die 3.
    const morning = run(campaign({ day: 2, half: 0 }, { ...FIRST_MORNING, sky: 'cloudy' }), scripted(6, 5, 3));
    expect(morning.state.weather).toMatchObject({ sky: 'hardRain', rainLevel: 0 });
    expect(weatherEffects(morning.state.weather, morning.state.settings)).toMatchObject({ overlandFactor: 0.75, fordsClosed: false });
    // Day 2 evening: the day's hard rain is counted, then the rainy column shows 3 (cloudy), fog/wind die 4.
    const evening = run({ ...morning.state, clock: { day: 2, half: 2 } }, scripted(3, 4));
    expect(evening.state.weather).toMatchObject({ sky: 'cloudy', rainLevel: 1 });
    expect(evening.events.map((e) => e.type)).toEqual(['rainLevelChanged', 'weatherRolled']);
    expect(evening.events[0]?.data).toEqual({ time: { day: 2, half: 2 }, before: 0, after: 1 });
    expect(weatherEffects(evening.state.weather, evening.state.settings)).toMatchObject({ overlandFactor: 1, fordsClosed: true, ferriesClosed: false });
  });

  it('000 Curing: GIVEN three hard rains THEN through the step the second clear period brings the level to 2', () => {
    let state = campaign({ day: 3, half: 0 }, { ...FIRST_MORNING, sky: 'hardRain', rainLevel: 2 });
    // Morning: the night's hard rain makes level 3; rainy 3 -> cloudy, fog/wind 2.
    state = run(state, scripted(3, 2)).state;
    expect(state.weather).toMatchObject({ sky: 'cloudy', rainLevel: 3 });
    // Evening: a cloudy period ended (drying 1 of 2); cloudy 3 -> clears, fog/wind 2.
    state = run({ ...state, clock: { day: 3, half: 2 } }, scripted(3, 2)).state;
    expect(state.weather).toMatchObject({ sky: 'clear', rainLevel: 3 });
    // Day 4 morning: the first clear period ended (one cloudy + one clear: curing under way); clear 1 -> no change.
    state = run({ ...state, clock: { day: 4, half: 0 } }, scripted(1)).state;
    expect(state.weather).toMatchObject({ sky: 'clear', rainLevel: 3 });
    // Day 4 evening: the second clear period ended: the effects of two hard rains.
    const evening = run({ ...state, clock: { day: 4, half: 2 } }, scripted(1));
    expect(evening.state.weather.rainLevel).toBe(2);
    expect(evening.events[0]).toMatchObject({ type: 'rainLevelChanged', data: { before: 3, after: 2 } });
  });
});

describe('000 Advanced: Drought through the step', () => {
  const threeDryWeeks: WeatherState = { ...FIRST_MORNING, track: { 'drought.dryWeeks': 3, 'drought.week': 0, 'drought.rainPeriods': 0 } };

  it('GIVEN the rule on and three dry weeks WHEN the fourth ends (day 29 morning) THEN the drought starts and is reported', () => {
    const out = run(campaign({ day: 29, half: 0 }, threeDryWeeks, true), scripted(2));
    expect(droughtTrack(out.state.weather).week).toBe(5);
    expect(out.events.map((e) => e.type)).toEqual(['droughtChanged', 'weatherRolled']);
    expect(weatherEffects(out.state.weather, out.state.settings).overlandFactor).toBe(0.75);
  });

  it('GIVEN the rule on WHEN a morning that does not start a week THEN no week is closed', () => {
    const out = run(campaign({ day: 28, half: 0 }, threeDryWeeks, true), scripted(2));
    expect(droughtTrack(out.state.weather).week).toBe(0);
  });

  it('GIVEN the rule off THEN the same morning changes nothing', () => {
    const out = run(campaign({ day: 29, half: 0 }, threeDryWeeks, false), scripted(2));
    expect(out.state.weather.track).toEqual(threeDryWeeks.track);
    expect(out.events.map((e) => e.type)).toEqual(['weatherRolled']);
  });
});

describe('RULINGS 7: determinism and purity', () => {
  function play(seed: number, ticks: number): CampaignState {
    let state = campaign({ day: 1, half: 0 }, FIRST_MORNING, true);
    const dice = new SeededDice(createRngState(seed));
    for (let i = 0; i < ticks; i++) {
      state = run(state, dice).state;
      state = { ...state, clock: nextHalf(state.clock) };
    }
    return state;
  }

  it('GIVEN the same seed THEN the same weather after 400 ticks; another seed differs somewhere along the way', () => {
    expect(play(42, 400)).toEqual(play(42, 400));
    const skies = (seed: number) => Array.from({ length: 40 }, (_, i) => play(seed, i + 1).weather.sky).join();
    expect(skies(42)).not.toBe(skies(43));
  });

  it('GIVEN a frozen state THEN the step does not mutate it', () => {
    const weather = Object.freeze({ ...FIRST_MORNING, sky: 'hardRain' as const, fog: true, rainLevel: 1, track: Object.freeze({ 'rain.cureUnits': 1 }) });
    const state = Object.freeze(campaign({ day: 5, half: 2 }, weather, true));
    const out = run(state, scripted(5, 1));
    expect(state.weather).toBe(weather);
    expect(out.state.weather.rainLevel).toBe(2);
  });
});

describe('RULINGS 2a: a scenario may replace the table', () => {
  it('GIVEN a table whose clear column always turns cloudy THEN the step rolls on it', () => {
    const alwaysCloudy: WeatherTable = {
      ...defaultWeatherTable(),
      name: 'always cloudy',
      columns: { ...defaultWeatherTable().columns, clear: Array.from({ length: 4 }, () => ({ result: 'cloudy' as const })) },
    };
    const dice = scripted(2);
    const out = createWeatherStep(alwaysCloudy)({ state: campaign({ day: 1, half: 2 }), map, dice, weather: weatherEffects(FIRST_MORNING, DEFAULT_SETTINGS) });
    expect(out.state.weather.sky).toBe('cloudy');
    expect(dice.rolls).toMatchObject([{ purpose: 'weather (clear column)', sides: 4, value: 2 }]);
  });
});
