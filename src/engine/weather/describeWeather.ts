import type { CampaignSettings } from '../state/settings.js';
import { droughtTrack } from './drought.js';
import type { Sky, Wind, WeatherEffects, WeatherState } from './types.js';
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

function percent(factor: number): string {
  return `${Math.round(factor * 100)} %`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "cloudy, fog" / "hard rain, high winds" / "clear skies". */
export function describeSky(weather: WeatherState): string {
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
export function describeWeather(weather: WeatherState, settings: Pick<CampaignSettings, 'drought'>): string {
  const sky = describeSky(weather);
  const parts = [capitalise(sky)];
  if (weather.rainLevel > 0) parts.push(`rain level ${weather.rainLevel}`);
  if (settings.drought) {
    const { week } = droughtTrack(weather);
    if (week > 0) parts.push(`drought, week ${week}`);
  }
  const effects = describeEffects(weatherEffects(weather, settings));
  const head = parts.join('; ');
  return effects.length === 0 ? `${head}.` : `${head}. ${capitalise(effects.join('; '))}.`;
}
