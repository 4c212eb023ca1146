import { PUBLIC } from '../../engine/events/index.js';
import { describeSky, describeWeather, overrideWeather, type Sky, type Wind } from '../../engine/weather/index.js';
import type { Actor } from '../actor.js';
import type { App } from '../app.js';
import { UserError } from '../errors.js';
import { reply, type Reply } from '../messages.js';
import { inCampaign } from '../unitOfWork.js';
import { requireReferee } from '../access.js';

export interface SetWeatherInput {
  readonly sky?: string | undefined;
  readonly fog?: boolean | undefined;
  readonly wind?: string | undefined;
  readonly rainLevel?: number | undefined;
}

/**
 * `/weather set` (referee): overrides the current weather. Logged as a public event and
 * announced in the channel (the public reply). A changed rain level restarts the drying.
 */
export function setWeather(app: App, actor: Actor, input: SetWeatherInput): Reply[] {
  return inCampaign(app, { actor }, (tx) => {
    requireReferee(tx, 'set the weather');
    const before = tx.state.weather;
    const result = overrideWeather(before, {
      ...(input.sky !== undefined ? { sky: input.sky as Sky } : {}),
      ...(input.fog !== undefined ? { fog: input.fog } : {}),
      ...(input.wind !== undefined ? { wind: input.wind as Wind } : {}),
      ...(input.rainLevel !== undefined ? { rainLevel: input.rainLevel } : {}),
    });
    if (!result.ok) throw new UserError(result.violation.code, result.violation.message);
    const weather = result.value;
    const was = `${describeSky(before)}, rain level ${before.rainLevel}`;
    const text = `The referee sets the weather: ${describeWeather(weather, tx.state.settings)} (was: ${was}.)`;
    const data = {
      before: { sky: before.sky, fog: before.fog, wind: before.wind, rainLevel: before.rainLevel },
      after: { sky: weather.sky, fog: weather.fog, wind: weather.wind, rainLevel: weather.rainLevel },
    };
    return {
      state: { ...tx.state, weather },
      events: [{ type: 'weatherSet', audience: PUBLIC, text, data }],
      result: [reply(text, data)],
    };
  });
}
