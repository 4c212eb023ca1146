import { movementProfile } from '../../engine/profiles/index.js';
import type { CampaignSettings } from '../../engine/state/index.js';
import {
  CURE_STEP, CURE_UNITS, CURE_WAIT, defaultWeatherTable, DROUGHT_STAGES, FERRIES_CLOSED_FROM_LEVEL, FORDS_CLOSED_FROM_LEVEL,
  FOG_YARDS_PER_PIP, RAIN_LEVEL_FACTORS, WEATHER_COLUMNS, weatherEffects, type WeatherEffects, type WeatherResult,
} from '../../engine/weather/index.js';
import { FIRST_MORNING, type Wind } from '../../engine/weather/index.js';
import type { TopicAnswer } from './movementTopics.js';
import { codeTable, dieFaces, signed } from './text.js';

const RESULT_WORDS: Record<WeatherResult, string> = { noChange: '-', cloudy: 'cloudy', clears: 'clears', rain: 'rain', lightRain: 'light rain', hardRain: 'hard rain' };
const periods = (n: number, sky: string): string => (n === 1 ? `one ${sky} period` : `${n} ${sky} periods`);
const WIND_WORDS = { none: 'nothing', calm: 'calm', highWinds: 'high winds', gale: 'gale' } as const;

/** What high winds do to missiles on the table: Valormr's hits, or the profile's attack penalty. */
function missiles(e: WeatherEffects): string {
  const parts = [
    ...(e.battlefield.missileHits !== 0 ? [`missile hits ${signed(e.battlefield.missileHits)}`] : []),
    ...(e.battlefield.missileAttack ? [`missile attacks ${signed(e.battlefield.missileAttack)}`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'missiles unaffected';
}

export function weather(settings: CampaignSettings): TopicAnswer {
  const t = defaultWeatherTable();
  const sides = Math.max(...WEATHER_COLUMNS.map((c) => t.columns[c].length));
  const rows = Array.from({ length: sides }, (_, i) => [i + 1, ...WEATHER_COLUMNS.map((c) => {
    const e = t.columns[c][i];
    return e ? `${RESULT_WORDS[e.result]}${e.change ? '*' : ''}` : '';
  })]);
  // The weather's effects under the campaign's movement profile (drought apart: its own line).
  const under = { drought: false, profile: settings.profile };
  const combine = movementProfile(settings).weather.combine;
  const maxLevel = Math.max(FORDS_CLOSED_FROM_LEVEL, FERRIES_CLOSED_FROM_LEVEL, ...RAIN_LEVEL_FACTORS.map((f) => f.fromLevel));
  const levels = Array.from({ length: maxLevel + 1 }, (_, level) => {
    const e = weatherEffects({ ...FIRST_MORNING, sky: 'cloudy', rainLevel: level }, under);
    return { level, overland: e.overlandFactor, fords: !e.fordsClosed, ferries: !e.ferriesClosed };
  });
  const hard = weatherEffects({ ...FIRST_MORNING, sky: 'hardRain' }, under);
  const windOf = (wind: Wind, fog = false) => weatherEffects({ ...FIRST_MORNING, wind, fog }, under);
  const fog = windOf('none', true);
  const high = windOf('highWinds');
  const pers = (faces: readonly number[]): string => (faces.length === 1 ? String(faces[0]) : `${Math.min(...faces)}-${Math.max(...faces)}`);
  const text = [
    `**Weather**: each period, d${sides} on the column of the current sky (rain of either kind reads "rainy").`,
    codeTable(['d6', ...WEATHER_COLUMNS], rows),
    '`*` = a change: roll the fog/wind die. "rain": roll the rainy column at once.',
    `Fog/wind die: ${dieFaces(t.fogWindDie, (f) => (f === 'none' ? 'nothing' : f))}. Wind die: ${dieFaces(t.windTypeDie, (w) => WIND_WORDS[w])}.`,
    `Each half period, d${t.persistence.sides}: fog goes on on ${pers(t.persistence.fog)}, wind on ${pers(t.persistence.wind)}.`,
    '**Rain level**: +1 per hard-rain period, +1 per second light-rain period in a row; '
      + `once the ground has dried for ${periods(CURE_WAIT / CURE_UNITS.clear, 'clear')} (or ${CURE_WAIT / CURE_UNITS.cloudy} cloudy), each further ${periods(CURE_STEP / CURE_UNITS.clear, 'clear')} (or ${CURE_STEP / CURE_UNITS.cloudy} cloudy) lowers it by 1.`,
    codeTable(['level', 'overland', 'fords', 'ferries'], levels.map((l) => [l.level === maxLevel ? `${l.level}+` : l.level, `×${l.overland}`, l.fords ? 'open' : 'closed', l.ferries ? 'open' : 'closed'])),
    combine === 'multiply'
      ? `During a hard-rain period overland points ×${hard.overlandFactor}; high winds ×${high.overlandFactor}, a gale ×${windOf('gale').overlandFactor}. Reductions multiply (hard rain in high winds: ×${hard.overlandFactor * high.overlandFactor}).`
      : `During a hard-rain period overland points ×${hard.overlandFactor}. Reductions do not multiply: the largest applies.`,
    `Fog: ports closed to seagoing ships, sailing ×${fog.sailFactor}, battlefield visibility d6 × ${FOG_YARDS_PER_PIP} yards. High winds: ports closed, sailing ×${high.sailFactor}, ${missiles(high)}. `
      + `Calm: ${windOf('calm').rowOnly ? 'only rowed vessels move' : 'no effect'}. Gale: ${windOf('gale').shipsHalted ? 'no ship at sea moves' : 'no effect'} (high winds on land).`,
    settings.drought
      ? `Drought (on): overland ×${Object.entries(DROUGHT_STAGES).map(([w, s]) => `${s.overlandFactor} wk ${w}`).join(', ')}.`
      : 'Drought: optional rule, off.',
  ].join('\n');
  return {
    text,
    data: {
      table: t,
      rainLevels: levels,
      hardRainFactor: hard.overlandFactor,
      rainLevelFactors: RAIN_LEVEL_FACTORS,
      fordsClosedFromLevel: FORDS_CLOSED_FROM_LEVEL,
      ferriesClosedFromLevel: FERRIES_CLOSED_FROM_LEVEL,
      curing: { units: CURE_UNITS, wait: CURE_WAIT, step: CURE_STEP },
      fog: { sailFactor: fog.sailFactor, yardsPerPip: FOG_YARDS_PER_PIP },
      highWinds: { sailFactor: high.sailFactor, missileHits: high.battlefield.missileHits },
      drought: settings.drought ? DROUGHT_STAGES : false,
    },
  };
}
