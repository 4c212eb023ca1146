import type { WeatherEffects, WeatherState } from '../state/index.js';

export const FIRST_MORNING: WeatherState = { sky: 'clear', fog: false, wind: 'none', rainLevel: 0, track: {} };

export const NO_WEATHER_EFFECTS: WeatherEffects = {
  overlandFactor: 1,
  fordsClosed: false,
  ferriesClosed: false,
  majorAsMinor: false,
  minorFordable: false,
  majorFordable: false,
  minorNavigable: true,
  portsClosed: false,
  sailFactor: 1,
  rowOnly: false,
  shipsHalted: false,
  battlefield: { fog: false, missileHits: 0 },
};
