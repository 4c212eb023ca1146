import { describe, expect, it } from 'vitest';
import { closeRainPeriod, rainTrack } from '../../src/engine/weather/rainLevel.js';
import { FIRST_MORNING, type Sky, type WeatherState } from '../../src/engine/weather/index.js';

/** Closes one period after another with the given skies; returns the rain level after each. */
function levels(skies: readonly Sky[], start: WeatherState = FIRST_MORNING): number[] {
  let w = start;
  return skies.map((s) => {
    w = closeRainPeriod({ ...w, sky: s }).weather;
    return w.rainLevel;
  });
}

describe('000 Hard Rain / RULINGS 2a: the rain level', () => {
  it('GIVEN hard rain THEN each period adds one level at its end', () => {
    expect(levels(['hardRain', 'hardRain', 'hardRain', 'hardRain', 'hardRain'])).toEqual([1, 2, 3, 4, 5]);
  });

  it('000 Light Rain: GIVEN light rain THEN one period keeps things as they are and every second consecutive one adds a level', () => {
    expect(levels(['lightRain', 'lightRain', 'lightRain', 'lightRain'])).toEqual([0, 1, 1, 2]);
  });

  it('000 Light Rain: GIVEN light rains that are not consecutive THEN they add nothing', () => {
    expect(levels(['lightRain', 'cloudy', 'lightRain', 'clear', 'lightRain'])).toEqual([0, 0, 0, 0, 0]);
    expect(levels(['lightRain', 'hardRain', 'lightRain'])).toEqual([0, 1, 1]);
  });

  it('GIVEN a dry period with no rain level THEN nothing is tracked', () => {
    const out = closeRainPeriod({ ...FIRST_MORNING, sky: 'clear' });
    expect(out.change).toBe('unchanged');
    expect(out.weather.track).toEqual({});
  });
});

describe('000 Curing', () => {
  it('GIVEN three hard rains WHEN clear periods follow THEN the second clear period brings the effects back to two hard rains', () => {
    expect(levels(['hardRain', 'hardRain', 'hardRain', 'clear', 'clear', 'clear', 'clear'])).toEqual([1, 2, 3, 3, 2, 1, 0]);
  });

  it('GIVEN rain WHEN cloudy periods follow THEN two cloudy count as one clear: two to start the curing, then one level per two', () => {
    expect(levels(['hardRain', 'hardRain', 'cloudy', 'cloudy', 'cloudy', 'cloudy', 'cloudy', 'cloudy'])).toEqual([1, 2, 2, 2, 2, 1, 1, 0]);
  });

  it('GIVEN cloudy then clear THEN their drying adds up (three halves: curing started, one more cloudy removes a level)', () => {
    expect(levels(['hardRain', 'hardRain', 'cloudy', 'clear', 'cloudy'])).toEqual([1, 2, 2, 2, 1]);
  });

  it('GIVEN curing under way WHEN it rains again THEN the drying starts over', () => {
    expect(levels(['hardRain', 'hardRain', 'clear', 'lightRain', 'clear', 'clear'])).toEqual([1, 2, 2, 2, 2, 1]);
  });

  it('GIVEN the level is cured to 0 THEN the curing bookkeeping is cleared', () => {
    let w: WeatherState = FIRST_MORNING;
    for (const s of ['hardRain', 'clear', 'clear'] as const) w = closeRainPeriod({ ...w, sky: s }).weather;
    expect(w.rainLevel).toBe(0);
    expect(rainTrack(w)).toEqual({ lightStreak: 0, cureUnits: 0 });
  });

  it('GIVEN an outcome THEN it reports rose / drying / cured', () => {
    const a = closeRainPeriod({ ...FIRST_MORNING, sky: 'hardRain' });
    expect(a.change).toBe('rose');
    const b = closeRainPeriod({ ...a.weather, sky: 'clear' });
    expect(b.change).toBe('drying');
    const c = closeRainPeriod({ ...b.weather, sky: 'clear' });
    expect(c).toMatchObject({ change: 'cured', before: 1, after: 0 });
  });

  it('GIVEN an input state THEN it is not mutated', () => {
    const w: WeatherState = Object.freeze({ ...FIRST_MORNING, sky: 'hardRain', rainLevel: 2, track: Object.freeze({ 'rain.cureUnits': 1, other: 'kept' }) });
    const out = closeRainPeriod(w);
    expect(w.rainLevel).toBe(2);
    expect(out.weather.track).toEqual({ other: 'kept' });
  });
});
