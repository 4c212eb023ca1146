import type { Sky, WeatherState } from '../state/index.js';

/**
 * Rain bookkeeping kept in WeatherState.track.
 * - lightStreak: consecutive light-rain periods just ended.
 * - cureUnits: drying since the rain stopped, in half clear periods (a clear period is 2, a
 *   cloudy period 1).
 */
export interface RainTrack {
  readonly lightStreak: number;
  readonly cureUnits: number;
}

/** Keys of the rain bookkeeping in WeatherState.track. */
export const RAIN_TRACK_KEYS = { lightStreak: 'rain.lightStreak', cureUnits: 'rain.cureUnits' } as const;

/** Drying a period brings, in half clear periods: two cloudy periods count as one clear. @see 000 Curing */
export const CURE_UNITS: Readonly<Record<'clear' | 'cloudy', number>> = { clear: 2, cloudy: 1 };
/** Drying before curing starts (one clear period), and drying per level removed after that. */
export const CURE_WAIT = 2;
export const CURE_STEP = 2;

function num(weather: WeatherState, key: string): number {
  const v = weather.track[key];
  return typeof v === 'number' ? v : 0;
}

/** Reads the rain bookkeeping (missing keys count as 0). */
export function rainTrack(weather: WeatherState): RainTrack {
  return { lightStreak: num(weather, RAIN_TRACK_KEYS.lightStreak), cureUnits: num(weather, RAIN_TRACK_KEYS.cureUnits) };
}

/** How the period just ended changed the rain level. */
export type RainChange = 'rose' | 'unchanged' | 'drying' | 'cured';

/** The weather after a period is settled, with the rain level before and after. */
export interface RainPeriodOutcome {
  readonly weather: WeatherState;
  readonly before: number;
  readonly after: number;
  readonly change: RainChange;
}

/**
 * Closes a period for the rain rules, from the sky of the period that just ended. Cumulative
 * effects start at the end of the period that triggers them.
 * - Hard rain: the level rises by one.
 * - Light rain: every second consecutive light-rain period raises the level by one; a single one
 *   keeps things as they are.
 * - Clear or cloudy: once the ground has dried for one clear period (or two cloudy), each further
 *   clear period (or two cloudy) lowers the level by one.
 * Any rain restarts the drying. Example: after three hard rains, the second clear period brings
 * the level from 3 to 2.
 * @see 000 Light Rain
 * @see 000 Hard Rain
 * @see 000 Curing
 * @see RULINGS 2a
 */
export function closeRainPeriod(weather: WeatherState, endedSky: Sky = weather.sky): RainPeriodOutcome {
  const before = weather.rainLevel;
  const track = rainTrack(weather);
  let level = before;
  let lightStreak = 0;
  let cureUnits = 0;
  let change: RainChange = 'unchanged';

  if (endedSky === 'hardRain') {
    level += 1;
  } else if (endedSky === 'lightRain') {
    lightStreak = track.lightStreak + 1;
    if (lightStreak % 2 === 0) level += 1;
  } else if (level > 0) {
    cureUnits = track.cureUnits + CURE_UNITS[endedSky];
    if (cureUnits >= CURE_WAIT + CURE_STEP) {
      level -= 1;
      cureUnits -= CURE_STEP;
      change = 'cured';
    } else {
      change = 'drying';
    }
    if (level === 0) cureUnits = 0;
  }
  if (level > before) change = 'rose';

  const rest = Object.fromEntries(Object.entries(weather.track).filter(([k]) => k !== RAIN_TRACK_KEYS.lightStreak && k !== RAIN_TRACK_KEYS.cureUnits));
  const trackOut = {
    ...rest,
    ...(lightStreak > 0 ? { [RAIN_TRACK_KEYS.lightStreak]: lightStreak } : {}),
    ...(cureUnits > 0 ? { [RAIN_TRACK_KEYS.cureUnits]: cureUnits } : {}),
  };
  return { weather: { ...weather, rainLevel: level, track: trackOut }, before, after: level, change };
}
