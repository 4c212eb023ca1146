import { isForgettable } from '../contact/index.js';
import { timeIndex } from '../clock/index.js';
import type { CampaignState, TickStep } from '../state/index.js';
import { courierFinished } from '../water/index.js';

/**
 * The live state holds what the rules need now: contacts no rule can need any more and couriers
 * with nothing left to do (delivered, or captured and their sender told) leave it. It runs first in a tick, so what it drops was saved
 * in its final form by the tick (or command) that finished it; their records stay in their
 * tables and the event log. No rule ever scans history.
 */
export function forgetFinished(state: CampaignState): CampaignState {
  const now = timeIndex(state.clock);
  const contacts = Object.values(state.contacts).filter((c) => !isForgettable(c, now));
  const couriers = Object.values(state.couriers).filter((c) => !courierFinished(c));
  if (contacts.length === Object.keys(state.contacts).length && couriers.length === Object.keys(state.couriers).length) return state;
  return {
    ...state,
    contacts: Object.fromEntries(contacts.map((c) => [c.id, c])),
    couriers: Object.fromEntries(couriers.map((c) => [c.id, c])),
  };
}

export const forgetFinishedStep: TickStep<never> = ({ state }) => ({ state: forgetFinished(state), events: [] });
