import type { CampaignSettings } from '../state/index.js';
import { droughtStage } from './drought.js';
import { NO_WEATHER_EFFECTS, type WeatherEffects, type WeatherState } from './types.js';

/** Overland move point factors of the rain rules. @see 000 Hard Rain */
export const HARD_RAIN_FACTOR = 0.75;
export const RAIN_LEVEL_FACTORS: readonly { readonly fromLevel: number; readonly factor: number }[] = [
  { fromLevel: 4, factor: 0 },
  { fromLevel: 3, factor: 0.5 },
];
/** Rain level from which fords are impassable, and ferries inoperable. */
export const FORDS_CLOSED_FROM_LEVEL = 1;
export const FERRIES_CLOSED_FROM_LEVEL = 2;
/** Fog: visibility on a battlefield is one die times this many yards. @see 000 Strategic Movement Under Fog */
export const FOG_YARDS_PER_PIP = 30;

interface Reduction {
  readonly factor: number;
  readonly reason: string;
}

function overland(weather: WeatherState, settings: Pick<CampaignSettings, 'drought'>): Reduction | undefined {
  const candidates: Reduction[] = [];
  if (weather.sky === 'hardRain') candidates.push({ factor: HARD_RAIN_FACTOR, reason: 'hard rain' });
  const byLevel = RAIN_LEVEL_FACTORS.find((f) => weather.rainLevel >= f.fromLevel);
  if (byLevel) candidates.push({ factor: byLevel.factor, reason: `rain level ${weather.rainLevel}` });
  const drought = droughtStage(weather, settings);
  if (drought) candidates.push({ factor: drought.overlandFactor, reason: 'drought' });
  // Reductions do not multiply: the largest one applies (RULINGS 2a).
  return candidates.reduce<Reduction | undefined>((best, c) => (best === undefined || c.factor < best.factor ? c : best), undefined);
}

/**
 * What the weather does to the other rules this half period.
 * - Overland movement: x0.75 during a hard-rain period, x0.5 from rain level 3, nothing moves
 *   from level 4; drought x0.75 / x0.5 / x0.25 in its 5th / 6th / 7th+ week. The largest
 *   reduction applies; they do not multiply.
 * - Fords impassable from rain level 1, ferries inoperable from level 2. Rain-closed fords beat
 *   drought-fordable rivers.
 * - Fog: ports closed to seagoing ships, ships at sea at half speed, battlefield visibility one
 *   die x 30 yards.
 * - Calm: sailed vessels do not move; galleys and longships row.
 * - High winds: ports closed, sailed ships at sea 50 % faster, missile hits -1 on a battlefield.
 * - Gale: no ship at sea moves (a ship on a coast hex may beach); on land it acts as high winds.
 * @see 000 Hard Rain
 * @see 000 Strategic Movement Under Fog
 * @see 000 High Winds
 * @see 000 Advanced: Drought
 * @see RULINGS 2a
 */
export function weatherEffects(weather: WeatherState, settings: Pick<CampaignSettings, 'drought'>): WeatherEffects {
  const reduction = overland(weather, settings);
  const drought = droughtStage(weather, settings);
  const fordsClosed = weather.rainLevel >= FORDS_CLOSED_FROM_LEVEL;
  const windy = weather.wind === 'highWinds' || weather.wind === 'gale';
  return {
    ...NO_WEATHER_EFFECTS,
    overlandFactor: reduction?.factor ?? 1,
    ...(reduction ? { overlandReason: reduction.reason } : {}),
    fordsClosed,
    ferriesClosed: weather.rainLevel >= FERRIES_CLOSED_FROM_LEVEL,
    majorAsMinor: drought?.majorAsMinor ?? false,
    minorFordable: !fordsClosed && (drought?.minorFordable ?? false),
    majorFordable: !fordsClosed && (drought?.majorFordable ?? false),
    minorNavigable: drought?.minorNavigable ?? true,
    portsClosed: weather.fog || windy,
    sailFactor: sailFactor(weather),
    rowOnly: weather.wind === 'calm',
    shipsHalted: weather.wind === 'gale',
    ...(drought?.casualties ? { droughtCasualties: drought.casualties } : {}),
    battlefield: battlefieldWeather(weather, windy),
  };
}

/** Ships at sea: half speed in fog, 50 % faster in high winds, none under sail in calm or a gale. */
function sailFactor(weather: WeatherState): number {
  if (weather.wind === 'calm' || weather.wind === 'gale') return 0;
  if (weather.wind === 'highWinds') return 1.5;
  return weather.fog ? 0.5 : 1;
}

/** What the weather does on a tabletop battlefield: fog's visibility, high winds' missile hits. */
function battlefieldWeather(weather: WeatherState, windy: boolean): WeatherEffects['battlefield'] {
  const notes: string[] = [];
  if (weather.fog) {
    notes.push(`Fog: visibility one die x ${FOG_YARDS_PER_PIP} yards (30-180).`);
    notes.push('Fog: creatures hurt by bright light suffer nothing from the sun.');
  }
  if (windy) notes.push('High winds: missile fire scores one hit fewer (catapults unaffected).');
  return {
    fog: weather.fog,
    missileHits: windy ? -1 : 0,
    ...(weather.fog ? { visibilityYardsPerPip: FOG_YARDS_PER_PIP } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
