import type { Database } from '../db/client.js';
import type { MapModel } from '../engine/map/index.js';
import type { ScenarioDoc } from '../engine/scenario/index.js';
import type { Clock, Logger } from './ports.js';
import type { WebAccess } from './web/webKeys.js';

/**
 * Everything a use-case needs, built once in main (or in a test): the database, the injected
 * clock, a logger, and dice overrides for scripts and tests.
 */
export interface App {
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Scripted d6 results used before a campaign's seeded dice (console --dice, tests). */
  readonly scriptedDice: number[];
  /** Seed for new campaigns (console --seed, tests); random when absent. */
  readonly seed?: number;
  /** Scenario and map per campaign: immutable after creation, so cached for the app's life. */
  readonly statics: Map<string, { readonly scenario: ScenarioDoc; readonly map: MapModel; readonly mapKey: string }>;
  /** Where the console writes images; unused by Discord. */
  readonly outDir?: string;
  /** The web page's keys, when the web server runs (`/web` links, sessions); absent in scripts and tests without it. */
  web?: WebAccess;
}
