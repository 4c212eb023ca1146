import { timeIndex } from '../clock/index.js';
import { namesOf, tell } from '../events/index.js';
import type { Army } from '../forces/index.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState, ContactData, ContactRecord, ContactStep } from '../state/index.js';
import type { ContactEvent, ContactFact } from './contactEvents.js';
import { withData } from './contactRecord.js';
import { describeContact } from './describeContact.js';
import type { DisengageContext } from './disengage.js';
import { everyoneIn, isOpen, liveArmies, maneuveringAt, meleeOnDay } from './queries.js';

/** Reading and writing contact records in the campaign state, for the contact rules. */

/** State and events after a contact transition. */
export interface ContactOutput {
  readonly state: CampaignState;
  readonly events: readonly ContactEvent[];
}

/** State and facts after a step of the contact rules, before they are put in words. */
export interface ContactChange {
  readonly state: CampaignState;
  readonly facts: readonly ContactFact[];
}

/** A change put in words for its readers: what a contact transition returns. */
export function told(change: ContactChange): ContactOutput {
  return { state: change.state, events: tell(change.facts, describeContact, namesOf(change.state.armies)) };
}

export const nowIndex = (state: CampaignState): number => timeIndex(state.clock);

/** A contact named by a commander or the referee: it may not exist, or be at another step (expected refusals). */
export function getContact(state: CampaignState, contactId: string, step?: ContactStep): Result<ContactRecord> {
  const c = state.contacts[contactId];
  if (!c) return fail('contact.notFound', `There is no contact "${contactId}". Use /contact list to see the open contacts.`, { contactId });
  if (step && c.step !== step) {
    return fail('contact.wrongStep', `Contact ${contactId} is at step "${c.step}", not "${step}".`, { contactId, step: c.step, expected: step });
  }
  return ok(c);
}

export function putContact(state: CampaignState, record: ContactRecord): CampaignState {
  return { ...state, contacts: { ...state.contacts, [record.id]: record } };
}

export function setStatus(state: CampaignState, ids: readonly string[], patch: Partial<Army['status']>): CampaignState {
  const armies = { ...state.armies };
  for (const id of ids) {
    const a = armies[id];
    if (a) armies[id] = { ...a, status: { ...a.status, ...patch } };
  }
  return { ...state, armies };
}

/** Clears the in-contact flag of armies that no longer take part in an open contact. */
export function refreshContactFlags(state: CampaignState, ids: readonly string[]): CampaignState {
  const stillIn = new Set(Object.values(state.contacts).filter(isOpen).flatMap((c) => c.armyIds));
  const inBattle = new Set(Object.values(state.contacts).filter((c) => c.step === 'battle').flatMap((c) => c.armyIds));
  const armies = { ...state.armies };
  for (const id of ids) {
    const a = armies[id];
    if (a) armies[id] = { ...a, status: { ...a.status, inContact: stillIn.has(id), inBattle: inBattle.has(id) } };
  }
  return { ...state, armies };
}

/** What a disengagement needs to know about the roles and actions around it. */
export function disengageContext(state: CampaignState, record: ContactRecord): DisengageContext {
  const d = record.data;
  return {
    supports: d.supports ?? {},
    reinforce: d.reinforce ?? {},
    maneuvering: maneuveringAt(state),
    meleeToday: meleeOnDay(state, state.clock.day),
  };
}

/** Closes a contact: no new contact between its forces before the next half period. */
export function closeContact(state: CampaignState, record: ContactRecord, patch: Partial<ContactData>): CampaignState {
  // A closed record lists every force that took part, so that the quiet check covers them all.
  const all = [...new Set(everyoneIn(record))];
  const closed = { ...withData(record, { ...patch, quietUntil: nowIndex(state) + 1 }, 'closed'), armyIds: all, hexes: liveArmies(state, all).map((a) => a.hex) };
  return refreshContactFlags(putContact(state, closed), everyoneIn(closed));
}
