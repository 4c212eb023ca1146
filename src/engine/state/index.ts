/** The campaign state: its parts, orders, settings, and a new campaign from a scenario. */
export { contactHistory } from './aftermath.js';
export { armiesAt } from './armiesByHex.js';
export { byId } from './byId.js';
export { type CampaignState, getArmy, type Order, type OrderGiven } from './campaign.js';
export { newCampaign } from './newCampaign.js';
export { type CampaignSettings, DEFAULT_SETTINGS, TEMPERATURES, type Temperature } from './settings.js';
export { checkSettings, quietMinutes } from './settings.js';
export { NUMBER_LIMITS, SETTING_LIMITS, wholeNumber } from './settings.js';
export { type ContactRecord } from './campaign.js';
export { STATE_VERSION } from './upgrade.js';
export { StateVersionError } from './upgrade.js';
export { SPEEDS_RESTORED_VERSION, upgradeState } from './upgrade.js';
export { lostRegimentSpeeds, type RestoredSpeed } from './upgrades/regimentSpeeds.js';
export { newContactId, newCourierId } from './ids.js';
