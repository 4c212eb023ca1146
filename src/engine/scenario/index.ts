/** Scenario documents: their format (schema and limits). The check that refuses a bad one is a campaign's (engine/campaign). */
export { SCENARIO_LIMITS, scenarioSchemas, type ScenarioDoc } from './schema.js';
