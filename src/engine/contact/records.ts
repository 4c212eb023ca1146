import { timeIndex } from '../clock/index.js';
import { echo, namesOf, tell } from '../events/index.js';
import type { Army } from '../forces/index.js';
import { fail, ok, type Result } from '../result.js';
import { type CampaignState, closeArmies, type ContactData, type ContactRecord, type ContactStep, openArmies, writeArmy } from '../state/index.js';
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
  if (!c) return fail('contact.notFound', `There is no contact ${echo(contactId)}. Use /contact list to see the open contacts.`, { contactId });
  if (step && c.step !== step) {
    return fail('contact.wrongStep', `Contact ${contactId} is at step "${c.step}", not "${step}".`, { contactId, step: c.step, expected: step });
  }
  return ok(c);
}

/**
 * The armies and contacts records a tick's contact step owns while it runs (`inDraft`): the
 * writers below put a contact or an army's flags into such a record in place instead of copying
 * it. Copying every army and every contact for each contact resolved made the step quadratic
 * (about 1 us a key, issue 25). Nothing outside the step ever sees a draft while it is written:
 * the step copies both records once on entry, works only on its latest state, and lets go of the
 * drafts on return, after which they are ordinary records that nobody changes again.
 */
const drafts = new WeakSet<object>();

/**
 * For a draft contacts record: the contacts each army is named in (its `armyIds`), kept by
 * `putContact`, so `refreshContactFlags` looks at an army's own contacts instead of every contact
 * of the tick for each one it closes (quadratic in contacts: 10 % of an 800-army tick).
 */
const draftIndexes = new WeakMap<object, Map<string, Set<string>>>();

function indexContact(index: Map<string, Set<string>>, record: ContactRecord): void {
  for (const armyId of record.armyIds) {
    let ids = index.get(armyId);
    if (!ids) {
      ids = new Set();
      index.set(armyId, ids);
    }
    ids.add(record.id);
  }
}

/** Runs `step` on a state whose armies and contacts records are its own drafts (see `drafts`). */
export function inDraft<T>(state: CampaignState, step: (draft: CampaignState) => T): T {
  const armies = { ...state.armies };
  const contacts = { ...state.contacts };
  const index = new Map<string, Set<string>>();
  for (const c of Object.values(contacts)) indexContact(index, c);
  drafts.add(armies);
  drafts.add(contacts);
  openArmies(armies);
  draftIndexes.set(contacts, index);
  try {
    return step({ ...state, armies, contacts });
  } finally {
    drafts.delete(armies);
    drafts.delete(contacts);
    closeArmies(armies);
    draftIndexes.delete(contacts);
  }
}

/** The armies record to write into (through `writeArmy`, which keeps its hex index current): the draft itself, or a copy of an ordinary record. */
function writableArmies(state: CampaignState): Record<string, Army> {
  return drafts.has(state.armies) ? (state.armies as Record<string, Army>) : { ...state.armies };
}

export function putContact(state: CampaignState, record: ContactRecord): CampaignState {
  if (!drafts.has(state.contacts)) return { ...state, contacts: { ...state.contacts, [record.id]: record } };
  const contacts = state.contacts as Record<string, ContactRecord>;
  const index = draftIndexes.get(contacts);
  const before = contacts[record.id];
  if (index && before) for (const armyId of before.armyIds) index.get(armyId)?.delete(record.id);
  contacts[record.id] = record;
  if (index) indexContact(index, record);
  return { ...state };
}

export function setStatus(state: CampaignState, ids: readonly string[], patch: Partial<Army['status']>): CampaignState {
  const armies = writableArmies(state);
  for (const id of ids) {
    const a = armies[id];
    if (a) writeArmy(armies, { ...a, status: { ...a.status, ...patch } });
  }
  return { ...state, armies };
}

/**
 * Clears the in-contact flag of armies that no longer take part in an open contact (and sets the
 * in-battle flag from the contacts at battle). Only the named armies are looked up, in one pass
 * over the contacts, and the armies record is copied only when a flag changes: the contact step
 * calls this for every contact it resolves, so a copy of every army each time made a tick
 * quadratic in armies (issue 25).
 */
export function refreshContactFlags(state: CampaignState, ids: readonly string[]): CampaignState {
  if (ids.length === 0) return state;
  const wanted = new Set(ids);
  const stillIn = new Set<string>();
  const inBattle = new Set<string>();
  const index = draftIndexes.get(state.contacts);
  // In a draft, each named army's own contacts; else one pass over them all.
  const named = index ? [...new Set(ids.flatMap((id) => [...(index.get(id) ?? [])]))].map((cid) => state.contacts[cid] as ContactRecord) : Object.values(state.contacts);
  for (const c of named) {
    if (!isOpen(c)) continue;
    for (const id of c.armyIds) {
      if (!wanted.has(id)) continue;
      stillIn.add(id);
      if (c.step === 'battle') inBattle.add(id);
    }
  }
  let armies: Record<string, Army> | undefined;
  for (const id of ids) {
    const a = (armies ?? state.armies)[id];
    if (!a) continue;
    const inContact = stillIn.has(id);
    const battle = inBattle.has(id);
    if (a.status.inContact === inContact && a.status.inBattle === battle) continue;
    armies ??= writableArmies(state);
    writeArmy(armies, { ...a, status: { ...a.status, inContact, inBattle: battle } });
  }
  return armies ? { ...state, armies } : state;
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
