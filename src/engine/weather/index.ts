export { type Sky, type WeatherEffects, type WeatherState, type Wind } from '../state/index.js';
/** Weather, rain level and drought, and what they do to the other rules. @see 000 Determining Weather; RULINGS 2a */
export { describeEffects, describeSky, describeWeather } from './describeWeather.js';
export { DROUGHT_STAGES, droughtTrack } from './drought.js';
export { droughtCasualtyStep } from './droughtCasualtyStep.js';
export { rollFogVisibility } from './fogVisibility.js';
export { overrideWeather } from './overrideWeather.js';
export { CURE_STEP, CURE_UNITS, CURE_WAIT } from './rainLevel.js';
export { FIRST_MORNING, NO_WEATHER_EFFECTS } from './types.js';
export { FERRIES_CLOSED_FROM_LEVEL, FOG_YARDS_PER_PIP, FORDS_CLOSED_FROM_LEVEL, RAIN_LEVEL_FACTORS, weatherEffects } from './weatherEffects.js';
export { type WeatherEvent } from './weatherEvents.js';
export { weatherStep } from './weatherStep.js';
export { defaultWeatherTable, WEATHER_COLUMNS, type WeatherResult } from './weatherTable.js';
