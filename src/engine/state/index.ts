/** The campaign state: its parts, orders, settings, and a new campaign from a scenario. */
export { contactHistory } from './aftermath.js';
export { type CampaignState, getArmy, type Order, type OrderGiven } from './campaign.js';
export { newCampaign } from './newCampaign.js';
export { type CampaignSettings, type CatchUpPolicy, DEFAULT_SETTINGS } from './settings.js';
