/**
 * The campaign state: the plain data model (its parts, orders, settings, ids). A new campaign and
 * a stored state brought up to date are engine/campaign's.
 */
export { contactHistory } from './aftermath.js';
export { armiesAt } from './armiesByHex.js';
export { byId } from './byId.js';
export { type CampaignState, getArmy, type Order, type OrderGiven } from './campaign.js';
export { type CampaignSettings, DEFAULT_SETTINGS, TEMPERATURES, type Temperature } from './settings.js';
export { checkSettings, quietMinutes, readSettings } from './settings.js';
export { NUMBER_LIMITS, SETTING_LIMITS, wholeNumber } from './settings.js';
export { type ContactRecord } from './campaign.js';
export { newContactId, newCourierId } from './ids.js';
