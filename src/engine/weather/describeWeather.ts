import { formatGameTime } from '../clock/index.js';
import type { Names } from '../events/index.js';
import { MOVEMENT_PROFILES } from '../profiles/index.js';
import type { CampaignSettings, Sky, WeatherEffects, WeatherState, Wind } from '../state/index.js';
import { droughtTrack } from './drought.js';
import type { Phenomenon } from './rollHalfPersistence.js';
import type { WeatherFact } from './weatherEvents.js';
import { weatherEffects } from './weatherEffects.js';

const SKY_TEXT: Readonly<Record<Sky, string>> = {
  clear: 'clear skies',
  cloudy: 'cloudy',
  lightRain: 'light rain',
  hardRain: 'hard rain',
};

const WIND_TEXT: Readonly<Record<Exclude<Wind, 'none'>, string>> = {
  calm: 'dead calm',
  highWinds: 'high winds',
  gale: 'a gale at sea (high winds on land)',
};

/** A factor as a percentage, exact to the tenth (12.5 %, not 13 %). */
function percent(factor: number): string {
  return `${Math.round(factor * 1000) / 10} %`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "cloudy, fog" / "hard rain, high winds" / "clear skies". */
export function describeSky(weather: Pick<WeatherState, 'sky' | 'fog' | 'wind'>): string {
  const parts = [SKY_TEXT[weather.sky]];
  if (weather.fog) parts.push('fog');
  if (weather.wind !== 'none') parts.push(WIND_TEXT[weather.wind]);
  return parts.join(', ');
}

/** What is closed or slowed, one short phrase each; empty when the weather hinders nothing. */
export function describeEffects(effects: WeatherEffects): string[] {
  const out: string[] = [];
  if (effects.overlandFactor === 0) out.push(`no overland movement (${effects.overlandReason ?? 'weather'})`);
  else if (effects.overlandFactor < 1) out.push(`overland move points at ${percent(effects.overlandFactor)} (${effects.overlandReason ?? 'weather'})`);
  if (effects.fordsClosed) out.push('fords impassable');
  if (effects.ferriesClosed) out.push('ferries inoperable');
  if (effects.majorAsMinor) out.push('major rivers count as minor');
  if (effects.majorFordable) out.push('all rivers fordable');
  else if (effects.minorFordable) out.push('minor rivers fordable anywhere');
  if (!effects.minorNavigable) out.push('minor rivers not navigable');
  if (effects.droughtCasualties === 'halfDice') out.push('drought losses half-dice x 5 % a week');
  if (effects.droughtCasualties === 'dice') out.push('drought losses dice x 5 % a week');
  if (effects.portsClosed) out.push('ports closed to seagoing ships');
  if (effects.shipsHalted) out.push('ships at sea ride at anchor');
  else if (effects.rowOnly) out.push('sailed vessels becalmed (galleys and longships row)');
  else if (effects.sailFactor !== 1) out.push(`ships at sea at ${percent(effects.sailFactor)} speed`);
  if (effects.battlefield.missileHits !== 0) out.push(`missile hits ${effects.battlefield.missileHits}`);
  return out;
}

/**
 * One short line on the weather for the chronicle and /weather show: sky, fog, wind, rain
 * level, drought and what the weather closes or slows.
 * @see RULINGS 2a
 */
export function describeWeather(weather: WeatherState, settings: Pick<CampaignSettings, 'drought' | 'profile'> & Partial<Pick<CampaignSettings, 'temperature'>>): string {
  const sky = describeSky(weather);
  const parts = [capitalise(sky)];
  // The season's temperature, where the profile's weather rules read it (ACKS).
  if (settings.temperature && settings.temperature !== 'moderate' && MOVEMENT_PROFILES[settings.profile].weather.temperature) parts.push(settings.temperature);
  if (weather.rainLevel > 0) parts.push(`rain level ${weather.rainLevel}`);
  if (settings.drought) {
    const { week } = droughtTrack(weather);
    if (week > 0) parts.push(`drought, week ${week}`);
  }
  const effects = describeEffects(weatherEffects(weather, settings));
  const head = parts.join('; ');
  return effects.length === 0 ? `${head}.` : `${head}. ${capitalise(effects.join('; '))}.`;
}

const PHENOMENON_NAME: Readonly<Record<Phenomenon, string>> = {
  fog: 'fog',
  calm: 'calm',
  highWinds: 'high winds',
  gale: 'gale',
};

/** "the fog holds" / "the high winds end": high winds are plural. */
function phenomenonVerb(p: Phenomenon, goesOn: boolean): string {
  const plural = p === 'highWinds';
  return goesOn ? (plural ? 'hold' : 'holds') : plural ? 'end' : 'ends';
}

function weatherRolled(d: Extract<WeatherFact, { type: 'weatherRolled' }>['data']): string {
  const when = formatGameTime(d.time);
  const now = describeWeather(d.weather, { drought: d.drought, profile: d.profile ?? 'valormr', ...(d.temperature ? { temperature: d.temperature } : {}) });
  switch (d.roll) {
    case 'opening':
      return `${when}: ${now} The campaign opens in this weather; nothing is rolled.`;
    case 'persistence':
      return `${when}: the ${PHENOMENON_NAME[d.phenomenon]} ${phenomenonVerb(d.phenomenon, d.persisted)}. ${now}`;
    case 'period': {
      const ended = d.dice.endedByChange ? ` The ${PHENOMENON_NAME[d.dice.endedByChange]} ${phenomenonVerb(d.dice.endedByChange, false)} with the change.` : '';
      // In words only: the dice are the table's business (`/dice log`, the referee's view), not the chronicle's.
      return `${when}: ${now}${ended}`;
    }
  }
}

function droughtChanged(before: number, after: number): string {
  if (after === 0) return 'The rain ends the drought.';
  return after > before ? `Drought: the land enters week ${after} without enough rain.` : `Rain eases the drought to the conditions of week ${after}.`;
}

/** The sentence of a weather fact for its audience. */
export function describeWeatherFact(f: WeatherFact, names: Names): string {
  switch (f.type) {
    case 'weatherRolled':
      return weatherRolled(f.data);
    case 'rainLevelChanged':
      return f.data.after > f.data.before ? `The rain of the last period raises the rain level to ${f.data.after}.` : `The ground dries: the rain level falls to ${f.data.after}.`;
    case 'droughtChanged':
      return droughtChanged(f.data.before, f.data.after);
    case 'droughtTookToll':
      return `${formatGameTime(f.data.time)}: the drought takes its toll; every force in the field loses men to thirst and sickness.`;
    case 'droughtCasualties': {
      const d = f.data;
      const detail = d.regiments.map((r) => `${r.name} ${r.lost} (${r.before} → ${r.before - r.lost})`).join(', ');
      return d.figuresLost > 0
        ? `${formatGameTime(d.time)}: the drought costs ${names.army(d.armyId)} ${d.percent} % of its figures, ${d.figuresLost} in all: ${detail}.`
        : `${formatGameTime(d.time)}: the drought weighs on ${names.army(d.armyId)}, but it loses no figures this week.`;
    }
    case 'droughtCasualtiesSummary':
      return `${formatGameTime(f.data.time)}: drought losses: ${f.data.losses.map((l) => `${names.army(l.armyId)} ${l.percent} % (${l.figuresLost} figure${l.figuresLost === 1 ? '' : 's'})`).join('; ')}.`;
  }
}
