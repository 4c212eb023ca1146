import { isPeriodStart } from '../../engine/clock/index.js';
import { describeEffects, describeWeather, droughtTrack, weatherEffects } from '../../engine/weather/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { gameTimeLabel } from '../format.js';
import { reply, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';

/**
 * `/weather show` (everyone, public): the current conditions, the rain level and what the weather
 * closes or slows. No forecast: the future is dice.
 * @see RULINGS 2a
 */
export function showWeather(app: App, actor: Actor): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    const s = tx.state;
    const effects = weatherEffects(s.weather, s.settings);
    const hindrances = describeEffects(effects);
    const next = isPeriodStart(s.clock)
      ? 'The weather of this period is set; fog and wind may lift at the half.'
      : 'The next period\'s weather is rolled at the next tick.';
    const text = [
      `**Weather, ${gameTimeLabel(s)}**`,
      describeWeather(s.weather, s.settings),
      hindrances.length === 0 ? 'Nothing is closed or slowed.' : '',
      `${next} No forecast: the future is dice.`,
    ].filter((l) => l !== '').join('\n');
    const data = {
      clock: s.clock,
      weather: { sky: s.weather.sky, fog: s.weather.fog, wind: s.weather.wind, rainLevel: s.weather.rainLevel },
      ...(s.settings.drought ? { droughtWeek: droughtTrack(s.weather).week } : {}),
      closed: hindrances,
      effects,
    };
    return { result: [reply(text, data)] };
  });
}
