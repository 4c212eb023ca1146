import { MOVEMENT_PROFILES, VALORMR_PROFILE, type MovementProfile } from '../profiles/index.js';
import type { CampaignSettings, Temperature, WeatherEffects, WeatherState } from '../state/index.js';
import { droughtStage } from './drought.js';
import { NO_WEATHER_EFFECTS } from './types.js';

/** Overland move point factors of the Valormr rain levels (the default profile's). @see 000 Hard Rain */
export const RAIN_LEVEL_FACTORS = VALORMR_PROFILE.weather.rainLevels;
/** Rain level from which fords are impassable, and ferries inoperable. */
export const FORDS_CLOSED_FROM_LEVEL = 1;
export const FERRIES_CLOSED_FROM_LEVEL = 2;
/** Fog: visibility on a battlefield is one die times this many yards. @see 000 Strategic Movement Under Fog */
export const FOG_YARDS_PER_PIP = 30;

interface Reduction {
  readonly factor: number;
  readonly reason: string;
}

/** The settings the weather's effects read: drought, the movement profile whose weather rules apply, and the season's temperature. */
type WeatherSettings = Pick<CampaignSettings, 'drought' | 'profile'> & Partial<Pick<CampaignSettings, 'temperature'>>;

/** A temperature as a reason for slower marching. */
const TEMPERATURE_REASON: Readonly<Record<Temperature, string>> = { frigid: 'frigid cold', cold: 'cold', moderate: 'moderate temperature', sweltering: 'sweltering heat' };

/** The weather rules of the campaign's movement profile (the referee's choices do not touch them). */
function profileOf(settings: WeatherSettings): Pick<MovementProfile, 'weather'> {
  return MOVEMENT_PROFILES[settings.profile];
}

/**
 * The overland reductions in force, under the profile: hard rain, high winds, a gale, the rain
 * level, drought, the season's temperature (ACKS: frigid and sweltering halve). Valormr takes the largest reduction only (RULINGS 2a); ACKS multiplies them
 * (004: "all effects are cumulative", 50 % x 50 % = 25 %). A factor of 1 is no reduction.
 */
function overland(weather: WeatherState, settings: WeatherSettings, profile: Pick<MovementProfile, 'weather'>): Reduction | undefined {
  const w = profile.weather;
  const candidates: Reduction[] = [];
  if (weather.sky === 'hardRain' && w.hardRain < 1) candidates.push({ factor: w.hardRain, reason: 'hard rain' });
  if (weather.wind === 'highWinds' && w.highWinds < 1) candidates.push({ factor: w.highWinds, reason: 'high winds' });
  if (weather.wind === 'gale' && w.gale < 1) candidates.push({ factor: w.gale, reason: 'a gale' });
  const byLevel = w.rainLevels.find((f) => weather.rainLevel >= f.fromLevel);
  if (byLevel) candidates.push({ factor: byLevel.factor, reason: `rain level ${weather.rainLevel}` });
  const drought = droughtStage(weather, settings);
  if (drought) candidates.push({ factor: drought.overlandFactor, reason: 'drought' });
  const heat = settings.temperature ? w.temperature?.[settings.temperature] : undefined;
  if (settings.temperature && heat !== undefined && heat < 1) candidates.push({ factor: heat, reason: TEMPERATURE_REASON[settings.temperature] });
  if (w.combine === 'multiply' && candidates.length > 1) {
    return { factor: candidates.reduce((f, c) => f * c.factor, 1), reason: candidates.map((c) => c.reason).join(' and ') };
  }
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
export function weatherEffects(weather: WeatherState, settings: WeatherSettings): WeatherEffects {
  const profile = profileOf(settings);
  const reduction = overland(weather, settings, profile);
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
    ...(weather.sky === 'hardRain' && profile.weather.reconnaissanceInHardRain !== 0 ? { reconnaissance: profile.weather.reconnaissanceInHardRain } : {}),
    battlefield: battlefieldWeather(weather, windy, profile),
  };
}

/** Ships at sea: half speed in fog, 50 % faster in high winds, none under sail in calm or a gale. */
function sailFactor(weather: WeatherState): number {
  if (weather.wind === 'calm' || weather.wind === 'gale') return 0;
  if (weather.wind === 'highWinds') return 1.5;
  return weather.fog ? 0.5 : 1;
}

/** The penalty to missile attack throws in this weather under the profile (ACKS), 0 for none. */
function missileAttack(weather: WeatherState, profile: Pick<MovementProfile, 'weather'>): number {
  const m = profile.weather.missileAttack;
  if (!m) return 0;
  const wind = weather.wind === 'gale' ? m.gale : weather.wind === 'highWinds' ? m.highWinds : 0;
  return (weather.sky === 'hardRain' ? m.hardRain : 0) + wind;
}

/** What the weather does on a tabletop battlefield: fog's visibility, high winds' missile hits, the profile's missile penalties. */
function battlefieldWeather(weather: WeatherState, windy: boolean, profile: Pick<MovementProfile, 'weather'>): WeatherEffects['battlefield'] {
  const notes: string[] = [];
  if (weather.fog) {
    notes.push(`Fog: visibility one die x ${FOG_YARDS_PER_PIP} yards (30-180).`);
    notes.push('Fog: creatures hurt by bright light suffer nothing from the sun.');
  }
  const hits = windy ? profile.weather.windMissileHits : 0;
  if (hits < 0) notes.push('High winds: missile fire scores one hit fewer (catapults unaffected).');
  const attack = missileAttack(weather, profile);
  if (attack < 0) notes.push(`Severe weather: missile units ${attack} to their attack throws.`);
  return {
    fog: weather.fog,
    missileHits: hits,
    ...(attack < 0 ? { missileAttack: attack } : {}),
    ...(weather.fog ? { visibilityYardsPerPip: FOG_YARDS_PER_PIP } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
