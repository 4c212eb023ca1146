import { fail, ok, type Result } from '../result.js';
import { RAIN_TRACK_KEYS } from './rainLevel.js';
import type { Sky, WeatherState, Wind } from '../state/index.js';

const SKIES: readonly Sky[] = ['clear', 'cloudy', 'lightRain', 'hardRain'];
const WINDS: readonly Wind[] = ['none', 'calm', 'highWinds', 'gale'];
/** Highest rain level a referee may set (level 4 already stops all overland movement). */
const MAX_SET_RAIN_LEVEL = 6;

/** A referee's override of the current weather; absent fields keep their value. */
export interface WeatherOverride {
  readonly sky?: Sky;
  readonly fog?: boolean;
  readonly wind?: Wind;
  readonly rainLevel?: number;
}

/**
 * The weather after a referee's override. A changed rain level restarts the drying (curing
 * counts from the new level). Light-rain streaks and the drought count are left alone.
 * Refused: an unknown sky or wind ('weather.badSky', 'weather.badWind'), a rain level outside
 * 0-6 or not whole ('weather.badRainLevel'), nothing to change ('weather.nothingToSet').
 */
export function overrideWeather(weather: WeatherState, o: WeatherOverride): Result<WeatherState> {
  if (o.sky === undefined && o.fog === undefined && o.wind === undefined && o.rainLevel === undefined) {
    return fail('weather.nothingToSet', 'Say what to set: `sky:`, `fog:`, `wind:` or `rain-level:`, e.g. `/weather set sky:hardRain rain-level:2`.');
  }
  if (o.sky !== undefined && !SKIES.includes(o.sky)) return fail('weather.badSky', `sky must be one of ${SKIES.join(', ')}.`);
  if (o.wind !== undefined && !WINDS.includes(o.wind)) return fail('weather.badWind', `wind must be one of ${WINDS.join(', ')}.`);
  if (o.rainLevel !== undefined && (!Number.isInteger(o.rainLevel) || o.rainLevel < 0 || o.rainLevel > MAX_SET_RAIN_LEVEL)) {
    return fail('weather.badRainLevel', `rain-level is a whole number from 0 to ${MAX_SET_RAIN_LEVEL}.`);
  }
  const levelChanged = o.rainLevel !== undefined && o.rainLevel !== weather.rainLevel;
  return ok({
    ...weather,
    ...(o.sky !== undefined ? { sky: o.sky } : {}),
    ...(o.fog !== undefined ? { fog: o.fog } : {}),
    ...(o.wind !== undefined ? { wind: o.wind } : {}),
    ...(o.rainLevel !== undefined ? { rainLevel: o.rainLevel } : {}),
    track: levelChanged ? { ...weather.track, [RAIN_TRACK_KEYS.cureUnits]: 0 } : weather.track,
  });
}
