import { derivedId } from '../dice/index.js';
import type { GameTime } from '../clock/index.js';
import type { CampaignState } from './campaign.js';

/*
 * Ids a player reads (contacts, couriers). With positions public they are numbered across the
 * campaign (c1, c2, ...; k1, k2, ...): every contact is announced anyway. In fog of war a number
 * counted across the campaign would tell a commander how many contacts (or couriers) others had
 * that they never saw: their own contact would be c2 in one world and c1 in a world without the
 * hidden one. So in fog an id is derived from what everyone who reads it knows of the thing
 * itself: when it began and which armies it concerns, hashed into a few letters. The campaign's
 * counters do not move in fog, so switching to public later reveals nothing either.
 * @see docs/rulings.md (Fog of war: ids)
 */

const at = (t: GameTime): string => `${t.day}.${t.half}`;

/** Made on first use: the first collator of a process loads ICU's collation data (~12 ms), which a start that sorts no ids (the console's first `/help`) need not pay. */
let numbered: Intl.Collator | undefined;

/**
 * Ids in reading order, a number inside counted as a number (c2 before c10):
 * `a.localeCompare(b, 'en', { numeric: true })`, with its collator made once instead of at every
 * comparison (a tick of 800 armies sorts its contacts several times).
 */
export const compareIds = (a: string, b: string): number => (numbered ??= new Intl.Collator('en', { numeric: true })).compare(a, b);

/**
 * The id of a contact opening now between `armyIds`: `c<n>` with positions public (n from the
 * campaign's count, which the caller advances), else derived from the time, the armies (sorted)
 * and the contact it was split from. Never one of the open contacts' ids.
 */
export function newContactId(state: Pick<CampaignState, 'settings' | 'nextId' | 'contacts' | 'clock'>, armyIds: readonly string[], splitFrom?: string): { id: string; numbered: boolean } {
  if (state.settings.positions !== 'fog') {
    let n = state.nextId;
    while (state.contacts[`c${n}`] !== undefined) n++;
    return { id: `c${n}`, numbered: true };
  }
  const facts = `contact|${at(state.clock)}|${[...armyIds].sort().join(',')}|${splitFrom ?? ''}`;
  return { id: derivedId('c', facts, (id) => state.contacts[id] !== undefined), numbered: false };
}

/**
 * The id of a courier `fromArmy` sends now to `toArmy`: `k<n>` with positions public, else
 * derived from the time, both armies and how many couriers the sender already sent them this
 * half period (all of them still riding, and all known to the sender).
 */
export function newCourierId(state: Pick<CampaignState, 'settings' | 'nextCourierId' | 'couriers' | 'clock'>, fromArmy: string, toArmy: string): { id: string; numbered: boolean } {
  if (state.settings.positions !== 'fog') return { id: `k${state.nextCourierId}`, numbered: true };
  const sent = Object.values(state.couriers).filter((c) => c.fromArmy === fromArmy && c.toArmy === toArmy && c.sentAt.day === state.clock.day && c.sentAt.half === state.clock.half).length;
  const facts = `courier|${at(state.clock)}|${fromArmy}|${toArmy}|${sent}`;
  return { id: derivedId('k', facts, (id) => state.couriers[id] !== undefined), numbered: false };
}
