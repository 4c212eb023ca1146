/**
 * A campaign as a whole, above every rule module: a scenario checked and opened as a new
 * campaign, and a stored state of any version brought up to the current shape.
 */
export { newCampaign } from './newCampaign.js';
export { type ScenarioProblem, validateScenario } from './validateScenario.js';
export { SPEEDS_RESTORED_VERSION, STATE_VERSION, type StateJson, StateVersionError, upgradeState } from './upgrade.js';
export { lostRegimentSpeeds, type RestoredSpeed } from './upgrades/regimentSpeeds.js';
