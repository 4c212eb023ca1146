import type { Database } from '../db/client.js';
import type { MapModel } from '../engine/map/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { DiceSource } from './dice/diceSource.js';
import type { Clock, Logger } from './ports.js';
import type { WebAccess } from './web/webKeys.js';

/**
 * Everything a use-case needs, built once in main (or in a test): the database, the injected
 * clock, a logger, and the dice source (random in production).
 */
export interface App {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where new dice seeds come from (random in production; the console's --seed and tests inject theirs). */
  readonly dice: DiceSource;
  /** Scenario and map per campaign: immutable after creation, so cached for the app's life. */
  readonly statics: Map<string, { readonly scenario: ScenarioDoc; readonly map: MapModel; readonly mapKey: string }>;
  /** The web page's keys, when the web server runs (`/web` links, sessions); absent in scripts and tests without it. */
  web?: WebAccess;
}
