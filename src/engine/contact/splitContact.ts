import { PUBLIC } from '../events/index.js';
import type { MapModel } from '../map/index.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState, ContactData } from '../state/index.js';
import type { ContactFact } from './contactEvents.js';
import { withData } from './contactRecord.js';
import { openingContact } from './openContact.js';
import { hasHostilePair } from './queries.js';
import { getContact, nowIndex, putContact, told, type ContactOutput } from './records.js';

/**
 * The referee splits a contact of three or more forces into separate engagements (before the
 * contact phase). Every army goes in exactly one group; each group needs enemies facing each
 * other. Each part keeps the step 1 answers, the roles and the maneuvers around its own forces,
 * and the original contact time. @see RULINGS 5 (one battle by default); 001 Map Contact: Three or More Forces
 */
export function splitContact(state: CampaignState, map: MapModel, contactId: string, groups: readonly (readonly string[])[]): Result<ContactOutput & { readonly contactIds: readonly string[] }> {
  const got = getContact(state, contactId, 'step1');
  if (!got.ok) return fail('contact.splitTooLate', 'A contact can only be split before its contact phase (step 1).', { contactId });
  const record = got.value;
  const all = groups.flat();
  if (all.length !== record.armyIds.length || new Set(all).size !== all.length || !record.armyIds.every((id) => all.includes(id))) {
    return fail('contact.splitNotPartition', `Put each of ${record.armyIds.join(', ')} in exactly one group.`);
  }
  if (groups.length < 2) return fail('contact.splitNeedsTwo', 'A split needs at least two groups.');
  for (const g of groups) {
    if (!hasHostilePair(state, g)) return fail('contact.splitNoEnemies', `The group ${g.join(', ')} has no enemies facing each other.`);
  }
  let s = state;
  const ids: string[] = [];
  const facts: ContactFact[] = [];
  for (const g of groups) {
    const opened = openingContact(s, map, g, { splitFrom: contactId, stepAt: record.data.stepAt ?? nowIndex(s), ...partOf(record.data, g) });
    const part = opened.state.contacts[opened.contactId];
    // Keep the original contact time; the split itself is announced, not each part.
    s = part ? putContact(opened.state, { ...part, openedAt: record.openedAt }) : opened.state;
    ids.push(opened.contactId);
  }
  s = putContact(s, withData(record, { outcome: 'split', splitInto: ids }, 'closed'));
  facts.push({ type: 'contactSplit', audience: PUBLIC, data: { contactId, into: ids, groups } });
  return ok({ ...told({ state: s, facts }), contactIds: ids });
}

/** What a part of a split contact keeps: the answers, roles (supporters, their reinforce, reserves) and maneuvers around its own forces. */
function partOf(d: ContactData, g: readonly string[]): Partial<ContactData> {
  const step1 = Object.fromEntries(Object.entries(d.step1 ?? {}).filter(([id]) => g.includes(id)));
  const supports = Object.fromEntries(Object.entries(d.supports ?? {}).filter(([, target]) => g.includes(target)));
  const reserves = Object.fromEntries(Object.entries(d.reserves ?? {}).filter(([, target]) => g.includes(target)));
  const reinforce = Object.fromEntries(Object.entries(d.reinforce ?? {}).filter(([k]) => supports[k] !== undefined));
  return {
    step1,
    ...(Object.keys(supports).length > 0 ? { supports } : {}),
    ...(Object.keys(reserves).length > 0 ? { reserves } : {}),
    ...(Object.keys(reinforce).length > 0 ? { reinforce } : {}),
    ...(d.maneuver ? { maneuver: d.maneuver } : {}),
  };
}
