import type { CampaignState } from '../../engine/state/index.js';
import { TICK_PLAN } from '../../engine/tick/index.js';
import type { WeatherEffects } from '../../engine/weather/index.js';

/**
 * The weather's effects on the rules right now, as the tick computes them: the one way a use-case
 * asks (orders previewed or checked now must meet the weather the tick will apply).
 */
export function currentEffects(state: CampaignState): WeatherEffects {
  return TICK_PLAN.effects(state);
}
