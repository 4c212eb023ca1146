import { describe, expect, it } from 'vitest';
import { FIRST_MORNING, overrideWeather, type WeatherState } from '../../src/engine/weather/index.js';
import { RAIN_TRACK_KEYS } from '../../src/engine/weather/rainLevel.js';

const drying: WeatherState = { ...FIRST_MORNING, sky: 'cloudy', rainLevel: 2, track: { [RAIN_TRACK_KEYS.cureUnits]: 3, [RAIN_TRACK_KEYS.lightStreak]: 0, 'drought.week': 0 } };

describe('overrideWeather: the referee sets the weather', () => {
  it('GIVEN some fields THEN only those change', () => {
    const r = overrideWeather(drying, { fog: true, wind: 'gale' });
    expect(r).toEqual({ ok: true, value: { ...drying, fog: true, wind: 'gale' } });
  });

  it('GIVEN a new rain level THEN the drying starts over from it; the same level keeps the drying', () => {
    const r = overrideWeather(drying, { rainLevel: 4 });
    expect(r.ok && r.value).toMatchObject({ rainLevel: 4, track: { [RAIN_TRACK_KEYS.cureUnits]: 0, 'drought.week': 0 } });
    const same = overrideWeather(drying, { rainLevel: 2, sky: 'clear' });
    expect(same.ok && same.value.track).toBe(drying.track);
  });

  it('refuses nothing to set, unknown values and rain levels outside 0-6, with stable codes', () => {
    const code = (r: ReturnType<typeof overrideWeather>) => (r.ok ? 'ok' : r.violation.code);
    expect(code(overrideWeather(drying, {}))).toBe('weather.nothingToSet');
    expect(code(overrideWeather(drying, { sky: 'snow' as never }))).toBe('weather.badSky');
    expect(code(overrideWeather(drying, { wind: 'breeze' as never }))).toBe('weather.badWind');
    expect(code(overrideWeather(drying, { rainLevel: 7 }))).toBe('weather.badRainLevel');
    expect(code(overrideWeather(drying, { rainLevel: -1 }))).toBe('weather.badRainLevel');
    expect(code(overrideWeather(drying, { rainLevel: 1.5 }))).toBe('weather.badRainLevel');
  });
});
