import type { Dice } from '../dice/index.js';
import type { MapModel } from '../map/index.js';
import type { CampaignState } from './campaign.js';
import type { WeatherEffects } from './weatherRecords.js';

/**
 * What one step of a tick (weather, movement, contacts, couriers, ships) is given: the state, the
 * map, the dice and the weather's effects this half period.
 */
export interface StepInput {
  readonly state: CampaignState;
  readonly map: MapModel;
  readonly dice: Dice;
  readonly weather: WeatherEffects;
}

/** A step's new state and the events (of its rule module's kind `E`) it produced. */
export interface StepOutput<E> {
  readonly state: CampaignState;
  readonly events: readonly E[];
}

/**
 * One step of a tick: a pure function from the state to a new state and its events. Each rule
 * module names its own events; the tick (above every rule module) joins them into one union.
 */
export type TickStep<E> = (input: StepInput) => StepOutput<E>;
