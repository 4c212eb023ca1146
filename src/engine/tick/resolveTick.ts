import { nextHalf } from '../clock/index.js';
import type { Dice } from '../dice/index.js';
import { PUBLIC } from '../events/index.js';
import type { MapModel } from '../map/index.js';
import type { CampaignState, WeatherEffects } from '../state/index.js';
import type { AnyStep, RuleEvent, TickOutput } from './step.js';
import { describeTick, type TickFact } from './tickEvents.js';

/**
 * The steps of one tick, in order. A tick plays out the current half period and opens the next:
 * 1. `closeHalf`: steps that finish the half period being played (contact deadlines, movement,
 *    ships and couriers);
 * 2. the clock moves on one half period;
 * 3. `openHalf`: steps that begin the new half period (weather, daily rollover, contacts between
 *    stationary forces).
 */
export interface TickPlan {
  readonly closeHalf: readonly AnyStep[];
  readonly openHalf: readonly AnyStep[];
  /** How the current weather affects the rules. */
  readonly effects: (state: CampaignState) => WeatherEffects;
}

/** Plays one half period. Pure: the same state, map and dice give the same result. */
export function resolveTick(state: CampaignState, map: MapModel, dice: Dice, plan: TickPlan): TickOutput {
  const events: RuleEvent[] = [];
  let s = state;
  for (const step of plan.closeHalf) {
    const out = step({ state: s, map, dice, weather: plan.effects(s) });
    s = out.state;
    events.push(...out.events);
  }
  s = { ...s, clock: nextHalf(s.clock) };
  const advanced: TickFact = { type: 'clockAdvanced', audience: PUBLIC, data: { from: state.clock, to: s.clock } };
  events.push({ ...advanced, text: describeTick(advanced) });
  for (const step of plan.openHalf) {
    const out = step({ state: s, map, dice, weather: plan.effects(s) });
    s = out.state;
    events.push(...out.events);
  }
  return { state: s, events };
}
