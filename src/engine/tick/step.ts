import type { ContactEvent } from '../contact/index.js';
import type { MovementEvent } from '../movement/index.js';
import type { PlanEvent } from '../plans/index.js';
import type { StepOutput, TickStep } from '../state/index.js';
import type { WaterEvent } from '../water/index.js';
import type { WeatherEvent } from '../weather/index.js';
import type { TickEvent } from './tickEvents.js';

/**
 * What the rules report, module by module: typed facts with their sentences. Joined here, above
 * every rule module; each module's steps name only their own events (TickStep<E>, in state/).
 */
export type RuleEvent = ContactEvent | MovementEvent | PlanEvent | WaterEvent | WeatherEvent | TickEvent;

/** A step of the tick's plan: any module's step. */
export type AnyStep = TickStep<RuleEvent>;

/** What a whole tick produced. */
export type TickOutput = StepOutput<RuleEvent>;
