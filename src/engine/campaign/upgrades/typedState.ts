import type { CampaignState } from '../../state/index.js';
import { upgradeContacts } from './contacts.js';
import type { LegacyState } from './legacyState.js';
import { upgradeOrders } from './orders.js';
import { upgradeMarches } from './marches.js';

/**
 * The upgrade from the state stored before issue 18 to exact types, in one step: contacts
 * (exact step, no `joined`), march logs as lists and fatigue reasons as codes, orders as the Order union. Pure; a state
 * already upgraded comes back equal.
 */
export function upgradeToTypedState(state: LegacyState | CampaignState): CampaignState {
  const armies = upgradeMarches(state.armies);
  return {
    ...state,
    armies,
    orders: upgradeOrders(state.orders, armies, state.clock),
    contacts: upgradeContacts(state.contacts),
  };
}
