import type { Dice } from '../dice/dice.js';
import type { EngineEvent } from '../events/events.js';
import type { MapModel } from '../map/mapModel.js';
import type { CampaignState } from '../state/campaign.js';
import type { WeatherEffects } from '../weather/types.js';

/**
 * One step of a tick (weather, movement, contacts, couriers, ships). Every step is a pure
 * function from the state to a new state and the events it produced.
 */
export interface StepInput {
  readonly state: CampaignState;
  readonly map: MapModel;
  readonly dice: Dice;
  readonly weather: WeatherEffects;
}

export interface StepOutput {
  readonly state: CampaignState;
  readonly events: readonly EngineEvent[];
}

export type TickStep = (input: StepInput) => StepOutput;
