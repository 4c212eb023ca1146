import { PUBLIC } from '../events/index.js';
import type { MapModel } from '../map/index.js';
import { type CampaignState, type ContactData, type ContactRecord, newContactId } from '../state/index.js';
import type { ContactFact } from './contactEvents.js';
import { liveArmies } from './queries.js';
import { nowIndex, putContact, setStatus, told, type ContactOutput } from './records.js';

/**
 * A contact opened between armies: the state with it, its id and the public fact. Contact ids
 * share the movement rules' scheme (`newContactId`: numbered in public, derived in fog); an id
 * already taken is skipped.
 */
export function openingContact(state: CampaignState, map: MapModel, armyIds: readonly string[], extra: Partial<ContactData> = {}): { state: CampaignState; contactId: string; facts: ContactFact[] } {
  // Each army once, however often it was named.
  const armies = liveArmies(state, [...new Set(armyIds)]);
  const { id, numbered } = newContactId(state, armies.map((a) => a.id), extra.splitFrom);
  const record: ContactRecord = {
    id,
    armyIds: armies.map((a) => a.id),
    hexes: armies.map((a) => a.hex),
    openedAt: state.clock,
    step: 'step1',
    data: { stepAt: nowIndex(state), ...extra },
  };
  const next = setStatus({ ...putContact(state, record), ...(numbered ? { nextId: Number(id.slice(1)) + 1 } : {}) }, record.armyIds, { inContact: true });
  return { state: next, contactId: id, facts: [{ type: 'contactMade', audience: PUBLIC, data: { how: 'opened', contactId: id, armyIds: record.armyIds, hexes: armies.map((a) => map.format(a.hex)) } }] };
}

/**
 * Opens a contact between armies (the movement rules open theirs on map contact; the contact
 * rules open one for an exploit, a maneuver's second contact or a split, the referee one by
 * hand). Step 1 starts at once.
 */
export function openContact(state: CampaignState, map: MapModel, armyIds: readonly string[], extra: Partial<ContactData> = {}): ContactOutput & { readonly contactId: string } {
  const opened = openingContact(state, map, armyIds, extra);
  return { ...told(opened), contactId: opened.contactId };
}
