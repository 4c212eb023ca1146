/** Scenario documents: their schema and the check that refuses a bad one with every problem. */
export { type ScenarioDoc } from './schema.js';
export { type ScenarioProblem, validateScenario } from './validateScenario.js';
