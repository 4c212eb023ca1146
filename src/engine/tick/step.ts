import type { Dice } from '../dice/index.js';
import type { ContactEvent } from '../contact/index.js';
import type { MapModel } from '../map/index.js';
import type { MovementEvent } from '../movement/index.js';
import type { PlanEvent } from '../plans/index.js';
import type { CampaignState } from '../state/index.js';
import type { WaterEvent } from '../water/index.js';
import type { WeatherEffects, WeatherEvent } from '../weather/index.js';
import type { TickEvent } from './tickEvents.js';

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

/** What the rules report, module by module: typed facts with their sentences. */
export type RuleEvent = ContactEvent | MovementEvent | PlanEvent | WaterEvent | WeatherEvent | TickEvent;

export interface StepOutput {
  readonly state: CampaignState;
  readonly events: readonly RuleEvent[];
}

export type TickStep = (input: StepInput) => StepOutput;
