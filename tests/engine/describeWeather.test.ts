import { describe, expect, it } from 'vitest';
import { namesOf, PUBLIC, REFEREE, toArmy } from '../../src/engine/events/events.js';
import { describeWeatherFact } from '../../src/engine/weather/describeWeather.js';
import { FIRST_MORNING } from '../../src/engine/weather/types.js';
import type { WeatherFact } from '../../src/engine/weather/weatherEvents.js';
import { army } from './movementFixtures.js';
import type { WeatherState } from '../../src/engine/state/index.js';

const names = namesOf({ a: { ...army('a', '0101'), name: 'Army a' }, b: { ...army('b', '0102'), name: 'Army b' } });
const say = (f: WeatherFact): string => describeWeatherFact(f, names);
const w = (patch: Partial<WeatherState>): WeatherState => ({ ...FIRST_MORNING, ...patch });
const shown = (day: number, half: 0 | 1 | 2 | 3, weather: WeatherState) => ({ time: { day, half }, weather, drought: false, rolls: [] });

describe('describeWeatherFact: the weather of a half period', () => {
  it('GIVEN the first morning THEN the chronicle says nothing was rolled', () => {
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(1, 0, FIRST_MORNING), roll: 'opening' } }))
      .toBe('Day 1, morning: Clear skies. The campaign opens in this weather; nothing is rolled.');
  });

  it('GIVEN a period roll THEN the weather and its effects in words, no die (the dice are in /dice log)', () => {
    const foggy = w({ sky: 'cloudy', fog: true });
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(1, 2, foggy), roll: 'period', change: true, dice: { tableRolls: [{ column: 'clear', die: 6, result: 'cloudy', change: true }], fogWindDie: 1 } } }))
      .toBe('Day 1, evening: Cloudy, fog. Ports closed to seagoing ships; ships at sea at 50 % speed.');
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(2, 2, foggy), roll: 'period', change: false, dice: { tableRolls: [{ column: 'cloudy', die: 1, result: 'noChange', change: false }], persistence: { phenomenon: 'fog', die: 2, persisted: true } } } }))
      .toBe('Day 2, evening: Cloudy, fog. Ports closed to seagoing ships; ships at sea at 50 % speed.');
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(3, 0, FIRST_MORNING), roll: 'period', change: true, dice: { tableRolls: [{ column: 'cloudy', die: 3, result: 'clears', change: true }], fogWindDie: 4, endedByChange: 'fog' } } }))
      .toBe('Day 3, morning: Clear skies. The fog ends with the change.');
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(3, 0, w({ sky: 'cloudy', wind: 'highWinds' })), roll: 'period', change: false, dice: { tableRolls: [{ column: 'cloudy', die: 2, result: 'noChange', change: false }], windTypeDie: 3, endedByChange: 'highWinds' } } }))
      .toMatch(/The high winds end with the change\.$/);
  });

  it('GIVEN a persistence roll THEN the verdict in words and the weather after it', () => {
    const foggy = w({ sky: 'cloudy', fog: true });
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(2, 1, foggy), roll: 'persistence', phenomenon: 'fog', die: 2, persisted: true } }))
      .toBe('Day 2, afternoon: the fog holds. Cloudy, fog. Ports closed to seagoing ships; ships at sea at 50 % speed.');
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(2, 1, w({ sky: 'cloudy' })), roll: 'persistence', phenomenon: 'fog', die: 3, persisted: false } }))
      .toBe('Day 2, afternoon: the fog ends. Cloudy.');
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(2, 3, w({ wind: 'highWinds' })), roll: 'persistence', phenomenon: 'highWinds', die: 1, persisted: true } }))
      .toMatch(/^Day 2, night: the high winds hold\. /);
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(2, 3, FIRST_MORNING), roll: 'persistence', phenomenon: 'highWinds', die: 2, persisted: false } }))
      .toBe('Day 2, night: the high winds end. Clear skies.');
  });

  it('GIVEN the drought rule on THEN the week of drought is shown', () => {
    const dry = w({ track: { 'drought.week': 5 } });
    expect(say({ type: 'weatherRolled', audience: PUBLIC, data: { ...shown(29, 0, dry), drought: true, roll: 'opening' } })).toContain('Clear skies; drought, week 5.');
  });

  it('GIVEN the rain level or the drought moving THEN one line says which way', () => {
    const time = { day: 2, half: 2 } as const;
    expect(say({ type: 'rainLevelChanged', audience: PUBLIC, data: { time, before: 0, after: 1 } })).toBe('The rain of the last period raises the rain level to 1.');
    expect(say({ type: 'rainLevelChanged', audience: PUBLIC, data: { time, before: 3, after: 2 } })).toBe('The ground dries: the rain level falls to 2.');
    expect(say({ type: 'droughtChanged', audience: PUBLIC, data: { time, before: 0, after: 5 } })).toBe('Drought: the land enters week 5 without enough rain.');
    expect(say({ type: 'droughtChanged', audience: PUBLIC, data: { time, before: 7, after: 6 } })).toBe('Rain eases the drought to the conditions of week 6.');
    expect(say({ type: 'droughtChanged', audience: PUBLIC, data: { time, before: 5, after: 0 } })).toBe('The rain ends the drought.');
  });
});

describe('describeWeatherFact: drought casualties', () => {
  const time = { day: 8, half: 0 } as const;
  it('GIVEN the losses THEN the channel hears no number, each commander their own, the referee every army', () => {
    expect(say({ type: 'droughtTookToll', audience: PUBLIC, data: { time } })).toBe('Day 8, morning: the drought takes its toll; every force in the field loses men to thirst and sickness.');
    expect(say({ type: 'droughtCasualties', audience: toArmy('a'), data: { time, armyId: 'a', percent: 5, figuresLost: 2, regiments: [{ regimentId: 'r1', name: 'Regiment r1', before: 20, lost: 1 }, { regimentId: 'r2', name: 'Regiment r2', before: 11, lost: 1 }] } }))
      .toBe('Day 8, morning: the drought costs Army a 5 % of its figures, 2 in all: Regiment r1 1 (20 → 19), Regiment r2 1 (11 → 10).');
    expect(say({ type: 'droughtCasualties', audience: toArmy('a'), data: { time, armyId: 'a', percent: 5, figuresLost: 0, regiments: [] } }))
      .toBe('Day 8, morning: the drought weighs on Army a, but it loses no figures this week.');
    expect(say({ type: 'droughtCasualtiesSummary', audience: REFEREE, data: { time, losses: [{ armyId: 'a', percent: 5, figuresLost: 2, regiments: [] }, { armyId: 'b', percent: 5, figuresLost: 2, regiments: [] }] } }))
      .toBe('Day 8, morning: drought losses: Army a 5 % (2 figures); Army b 5 % (2 figures).');
  });
});
