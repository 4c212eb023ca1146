import { timeIndex } from '../clock/gameTime.js';
import { event, PUBLIC, type EngineEvent } from '../events/events.js';
import { isHostile, type Army } from '../forces/army.js';
import type { Hex } from '../hex/hex.js';
import { formatHex, hexKey } from '../hex/hexId.js';
import { neighbours } from '../hex/neighbours.js';
import type { CampaignState, ContactRecord } from '../state/campaign.js';

/** Armies that stand on the map: not destroyed, not aboard ship. */
export function armiesOnMap(state: CampaignState): Army[] {
  return Object.values(state.armies).filter((a) => !a.status.destroyed && !a.status.embarked);
}

/**
 * Every commander holding a hex, afloat or ashore: a fleet at anchor in a port, on a beach or in
 * a river hex holds that hex too (one commander per hex).
 */
export function hexHolders(state: CampaignState): Army[] {
  return Object.values(state.armies).filter((a) => !a.status.destroyed);
}

/** The name the chronicle uses for an army: its commander. */
export function who(a: Army): string {
  return a.commander || a.name;
}

/**
 * Map contact: opposing commanders in adjacent hexes. Returns the connected groups of hostile
 * commanders linked by adjacency (each group sorted by army id, groups in order of their first
 * id), skipping destroyed and embarked armies.
 * @see RULINGS 3 (map contact), 5 (a contact is one connected group)
 */
export function detectContacts(state: CampaignState): string[][] {
  const armies = armiesOnMap(state).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const at = new Map<string, Army>();
  for (const a of armies) at.set(hexKey(a.hex), a);
  const parent = new Map<string, string>(armies.map((a) => [a.id, a.id]));
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) as string;
    parent.set(x, r);
    return r;
  };
  const linked = new Set<string>();
  for (const a of armies) {
    for (const n of neighbours(a.hex)) {
      const b = at.get(hexKey(n));
      if (!b || !isHostile(state.sides, a.side, b.side)) continue;
      linked.add(a.id);
      linked.add(b.id);
      const ra = find(a.id);
      const rb = find(b.id);
      if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
    }
  }
  const groups = new Map<string, string[]>();
  for (const a of armies) {
    if (!linked.has(a.id)) continue;
    const r = find(a.id);
    groups.set(r, [...(groups.get(r) ?? []), a.id]);
  }
  return [...groups.values()].sort((x, y) => ((x[0] ?? '') < (y[0] ?? '') ? -1 : 1));
}

/** True while a "fight on the morrow" answer keeps these armies from contact. */
function quiet(state: CampaignState, ids: readonly string[]): boolean {
  const now = timeIndex(state.clock);
  return Object.values(state.contacts).some((c) => {
    const until = c.data.quietUntil;
    return until !== undefined && until > now && ids.every((id) => c.armyIds.includes(id));
  });
}

/** "A", "A and B", "A, B and C". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Records map contact for the groups found by detectContacts: a new ContactRecord (step1) for a
 * group none of whose armies is in an open contact; a group that reaches an open contact (a
 * third force arriving) joins it. Groups under "fight on the morrow" stay quiet until their
 * time. Marks the armies in contact and announces it publicly (names and hexes only).
 * @see RULINGS 3, 5; 001 Map Contact
 */
export function openContacts(
  state: CampaignState,
  groups: readonly (readonly string[])[],
  format: (h: Hex) => string = (h) => formatHex(h),
): { state: CampaignState; events: EngineEvent[] } {
  let s = state;
  const events: EngineEvent[] = [];
  for (const group of groups) {
    if (group.length < 2 || quiet(s, group)) continue;
    const open = Object.values(s.contacts).filter((c) => c.step !== 'closed' && c.armyIds.some((id) => group.includes(id)));
    const newcomers = group.filter((id) => !open.some((c) => c.armyIds.includes(id)));
    if (newcomers.length === 0) continue;
    const armies = group.map((id) => s.armies[id] as Army);
    let record: ContactRecord;
    // A newcomer joins a contact still before its contact phase; one that is further along (dice
    // rolled, estimates sent) is not reopened: the newcomer gets a contact of its own.
    const existing = open.find((c) => c.step === 'step1');
    if (existing) {
      const joined = [...existing.armyIds, ...newcomers];
      record = {
        ...existing,
        armyIds: joined,
        hexes: joined.map((id) => (s.armies[id] as Army).hex),
      };
    } else {
      // Only forces not already in an open contact make the new one; those still busy with a
      // contact further along meet the newcomers once it is over.
      const free = group.filter((id) => !open.some((c) => c.armyIds.includes(id)));
      const members = free.map((id) => s.armies[id] as Army);
      const hostilePair = members.some((a) => members.some((b) => isHostile(s.sides, a.side, b.side)));
      if (!hostilePair) continue;
      record = { id: `c${s.nextId}`, armyIds: free, hexes: members.map((a) => a.hex), openedAt: s.clock, step: 'step1', data: {} };
      s = { ...s, nextId: s.nextId + 1 };
    }
    const marked: Record<string, Army> = { ...s.armies };
    for (const id of record.armyIds) {
      const a = marked[id];
      if (a && !a.status.inContact) marked[id] = { ...a, status: { ...a.status, inContact: true } };
    }
    s = { ...s, armies: marked, contacts: { ...s.contacts, [record.id]: record } };
    const where = format((armies[0] as Army).hex);
    const names = listNames(record.armyIds.map((id) => who(s.armies[id] as Army)));
    events.push(event('contactMade', PUBLIC, `${names} are in contact near ${where}.`, { contactId: record.id, armyIds: record.armyIds }));
    // Each commander's own prompt (with its choices and buttons) comes from the contact rules.
  }
  return { state: s, events };
}
