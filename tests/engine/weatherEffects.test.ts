import { describe, expect, it } from 'vitest';
import { createRngState, SeededDice } from '../../src/engine/dice/dice.js';
import { describeWeather, FIRST_MORNING, NO_WEATHER_EFFECTS, weatherEffects, type WeatherState } from '../../src/engine/weather/index.js';
import { rollFogVisibility } from '../../src/engine/weather/fogVisibility.js';

const OFF = { drought: false, profile: 'valormr' as const };
const w = (extra: Partial<WeatherState>): WeatherState => ({ ...FIRST_MORNING, ...extra });

describe('000 Hard Rain: overland movement and crossings', () => {
  it('GIVEN clear dry weather THEN nothing is hindered', () => {
    expect(weatherEffects(FIRST_MORNING, OFF)).toEqual(NO_WEATHER_EFFECTS);
  });

  it('GIVEN a hard-rain period THEN overland movement is at 75 % during it', () => {
    const e = weatherEffects(w({ sky: 'hardRain' }), OFF);
    expect(e.overlandFactor).toBe(0.75);
    expect(e.overlandReason).toBe('hard rain');
    expect(e.fordsClosed).toBe(false);
  });

  it('GIVEN light rain THEN overland movement is not reduced', () => {
    expect(weatherEffects(w({ sky: 'lightRain' }), OFF).overlandFactor).toBe(1);
  });

  it('GIVEN rain level 1 THEN fords are impassable, ferries still work', () => {
    const e = weatherEffects(w({ sky: 'clear', rainLevel: 1 }), OFF);
    expect(e).toMatchObject({ fordsClosed: true, ferriesClosed: false, overlandFactor: 1 });
  });

  it('GIVEN rain level 2 THEN ferries are inoperable too', () => {
    expect(weatherEffects(w({ rainLevel: 2 }), OFF)).toMatchObject({ fordsClosed: true, ferriesClosed: true, overlandFactor: 1 });
  });

  it('GIVEN rain level 3 THEN overland movement is halved, and hard rain on top does not multiply (largest reduction)', () => {
    expect(weatherEffects(w({ rainLevel: 3 }), OFF).overlandFactor).toBe(0.5);
    const e = weatherEffects(w({ rainLevel: 3, sky: 'hardRain' }), OFF);
    expect(e.overlandFactor).toBe(0.5);
    expect(e.overlandReason).toBe('rain level 3');
  });

  it('GIVEN rain level 4 or more THEN no overland movement', () => {
    expect(weatherEffects(w({ rainLevel: 4 }), OFF).overlandFactor).toBe(0);
    expect(weatherEffects(w({ rainLevel: 6, sky: 'hardRain' }), OFF).overlandFactor).toBe(0);
  });
});

describe('000 Strategic Movement Under Fog', () => {
  it('GIVEN fog THEN ports are closed, ships at sea at half speed, overland unaffected, battlefield visibility dice x 30 yards', () => {
    const e = weatherEffects(w({ sky: 'cloudy', fog: true }), OFF);
    expect(e).toMatchObject({ portsClosed: true, sailFactor: 0.5, overlandFactor: 1, rowOnly: false, shipsHalted: false });
    expect(e.battlefield).toMatchObject({ fog: true, missileHits: 0, visibilityYardsPerPip: 30 });
  });

  it('GIVEN fog on a battlefield WHEN visibility is rolled THEN it is the die times 30 yards', () => {
    expect(rollFogVisibility(new SeededDice(createRngState(1), [1]))).toBe(30);
    expect(rollFogVisibility(new SeededDice(createRngState(1), [6]))).toBe(180);
  });
});

describe('000 Calm, High Winds, Gale', () => {
  it('GIVEN calm THEN sailed vessels do not move and oared ones row; ports stay open', () => {
    expect(weatherEffects(w({ wind: 'calm' }), OFF)).toMatchObject({ sailFactor: 0, rowOnly: true, portsClosed: false, shipsHalted: false, overlandFactor: 1 });
  });

  it('GIVEN high winds THEN ports close, sailed ships are 50 % faster, missile hits -1', () => {
    const e = weatherEffects(w({ wind: 'highWinds' }), OFF);
    expect(e).toMatchObject({ portsClosed: true, sailFactor: 1.5, rowOnly: false, shipsHalted: false, overlandFactor: 1 });
    expect(e.battlefield.missileHits).toBe(-1);
  });

  it('GIVEN a gale THEN ships at sea are halted, and on land it acts as high winds (ports closed, missile hits -1)', () => {
    const e = weatherEffects(w({ wind: 'gale' }), OFF);
    expect(e).toMatchObject({ shipsHalted: true, sailFactor: 0, portsClosed: true, overlandFactor: 1 });
    expect(e.battlefield.missileHits).toBe(-1);
  });
});

describe('RULINGS 2a: describing the weather', () => {
  it('GIVEN clear dry weather THEN a plain line', () => {
    expect(describeWeather(FIRST_MORNING, OFF)).toBe('Clear skies.');
  });

  it('GIVEN hard rain at level 2 with high winds THEN the line names sky, wind, level and what is closed', () => {
    const text = describeWeather(w({ sky: 'hardRain', wind: 'highWinds', rainLevel: 2 }), OFF);
    expect(text).toBe(
      'Hard rain, high winds; rain level 2. Overland move points at 75 % (hard rain); fords impassable; ferries inoperable; ports closed to seagoing ships; ships at sea at 150 % speed; missile hits -1.',
    );
  });

  it('GIVEN fog THEN the line says ports are closed and ships slowed', () => {
    expect(describeWeather(w({ sky: 'cloudy', fog: true }), OFF)).toBe('Cloudy, fog. Ports closed to seagoing ships; ships at sea at 50 % speed.');
  });

  it('GIVEN calm or gale THEN the line says so', () => {
    expect(describeWeather(w({ wind: 'calm' }), OFF)).toBe('Clear skies, dead calm. Sailed vessels becalmed (galleys and longships row).');
    expect(describeWeather(w({ wind: 'gale' }), OFF)).toBe(
      'Clear skies, a gale at sea (high winds on land). Ports closed to seagoing ships; ships at sea ride at anchor; missile hits -1.',
    );
  });
});
