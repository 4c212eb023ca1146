import { timeIndex } from '../clock/index.js';
import { PUBLIC } from '../events/index.js';
import { isHostile, type Army } from '../forces/index.js';
import { type Hex, formatHex, hexKey, neighbours } from '../hex/index.js';
import { type CampaignState, contactHistory, type ContactRecord, compareIds, getArmy, newContactId } from '../state/index.js';
import type { MovementFact } from './movementEvents.js';

/** Armies that stand on the map: not destroyed, not aboard ship. */
function armiesOnMap(state: CampaignState): Army[] {
  return Object.values(state.armies).filter((a) => !a.status.destroyed && !a.status.embarked);
}

/**
 * Every commander holding a hex, afloat or ashore: a fleet at anchor in a port, on a beach or in
 * a river hex holds that hex too (one commander per hex).
 */
export function hexHolders(state: CampaignState): Army[] {
  return Object.values(state.armies).filter((a) => !a.status.destroyed);
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
    for (let up = parent.get(r); up !== undefined && up !== r; up = parent.get(r)) r = up;
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
    const group = groups.get(r);
    if (group) group.push(a.id);
    else groups.set(r, [a.id]);
  }
  return [...groups.values()].sort((x, y) => ((x[0] ?? '') < (y[0] ?? '') ? -1 : 1));
}

/**
 * The armies whose current half period a contact took: a delay, or a battle ("takes one half
 * period as if a battle had been fought"). Their standing orders do not march in it, and the half
 * counts as neither rest nor movement.
 * @see 001 Avoid, Evade, Delay, and Withdraw: Delay; Cost of Battle in Time and Move Points
 */
export function halvesTaken(state: CampaignState): ReadonlySet<string> {
  const now = timeIndex(state.clock);
  const out = new Set<string>();
  for (const c of contactHistory(state)) {
    for (const [id, at] of Object.entries(c.data.halfSpent ?? {})) if (at === now) out.add(id);
  }
  return out;
}

/**
 * What opening contacts reads of the contacts, indexed once per call (it used to scan every
 * contact, and copy every army and contact, for each group): the "fight on the morrow" quiets
 * still running, the closed contacts that may stand again now, and the open contacts by army.
 */
interface ContactIndex {
  readonly quiets: readonly { readonly until: number; readonly everyone: readonly string[] }[];
  /** Closed "fight on the morrow" contacts whose quiet ends now, by id; one reopened leaves it. */
  readonly standing: ContactRecord[];
  readonly openByArmy: Map<string, ContactRecord[]>;
}

function indexContacts(state: CampaignState): ContactIndex {
  const now = timeIndex(state.clock);
  const quiets = contactHistory(state).flatMap((c) => (c.data.quietUntil !== undefined && c.data.quietUntil > now ? [{ until: c.data.quietUntil, everyone: c.everyone }] : []));
  const standing = Object.values(state.contacts)
    .filter((c) => c.step === 'closed' && c.data.outcome === 'fightOnMorrow' && c.data.quietUntil === now)
    .sort((a, b) => compareIds(a.id, b.id));
  const openByArmy = new Map<string, ContactRecord[]>();
  for (const c of Object.values(state.contacts)) if (c.step !== 'closed') indexOpen(openByArmy, c);
  return { quiets, standing, openByArmy };
}

function indexOpen(openByArmy: Map<string, ContactRecord[]>, c: ContactRecord): void {
  for (const id of c.armyIds) {
    const list = (openByArmy.get(id) ?? []).filter((x) => x.id !== c.id);
    list.push(c);
    openByArmy.set(id, list);
  }
}

/** True while a "fight on the morrow" answer keeps these armies from contact. */
function quiet(index: ContactIndex, ids: readonly string[]): boolean {
  return index.quiets.some((q) => ids.every((id) => q.everyone.includes(id)));
}

/**
 * Records map contact for the groups found by detectContacts: a new ContactRecord (step1) for a
 * group none of whose armies is in an open contact; a group that reaches an open contact (a
 * third force arriving) joins it. Groups under "fight on the morrow" stay quiet until their
 * time. Marks the armies in contact and announces it publicly (names and hexes only); each
 * commander's own prompt (with its choices and buttons) comes from the contact rules.
 * One working copy of the armies and contacts for all the groups.
 * @see RULINGS 3, 5; 001 Map Contact
 */
export function openContacts(
  state: CampaignState,
  groups: readonly (readonly string[])[],
  format: (h: Hex) => string = (h) => formatHex(h),
): { state: CampaignState; facts: MovementFact[] } {
  if (groups.length === 0) return { state, facts: [] };
  const armies: Record<string, Army> = { ...state.armies };
  const contacts: Record<string, ContactRecord> = { ...state.contacts };
  let s: CampaignState = { ...state, armies, contacts };
  const index = indexContacts(state);
  const facts: MovementFact[] = [];
  for (const group of groups) {
    if (group.length < 2 || quiet(index, group)) continue;
    const found = contactFor(s, index, group);
    if (!found) continue;
    const record = found.record;
    if (found.numbered) s = { ...s, nextId: s.nextId + 1 };
    for (const id of record.armyIds) {
      const a = getArmy(s, id);
      if (!a.status.inContact) armies[id] = { ...a, status: { ...a.status, inContact: true } };
    }
    contacts[record.id] = record;
    indexOpen(index.openByArmy, record);
    const round = found.standing ? record.data.previousRound : undefined;
    const standing = round ? { standing: sameForces(round.armyIds, record.armyIds) ? 'same' as const : 'changed' as const } : {};
    facts.push({ type: 'contactMade', audience: PUBLIC, data: { contactId: record.id, armyIds: record.armyIds, near: format(getArmy(s, group[0] ?? '').hex), ...standing } });
  }
  return { state: s, facts };
}

/**
 * The contact a group of armies in map contact makes: newcomers join a contact still before its
 * contact phase; one that is further along (dice rolled, estimates sent) is not reopened, and the
 * forces not already in an open contact make a new one (those still busy meet the newcomers once
 * it is over). Undefined when nothing changes.
 */
function contactFor(s: CampaignState, index: ContactIndex, group: readonly string[]): { record: ContactRecord; numbered: boolean; standing?: true } | undefined {
  const open = [...new Map(group.flatMap((id) => index.openByArmy.get(id) ?? []).map((c) => [c.id, c])).values()];
  const free = group.filter((id) => !open.some((c) => c.armyIds.includes(id)));
  if (free.length === 0) return undefined;
  const existing = open.find((c) => c.step === 'step1');
  if (existing) {
    const joined = [...existing.armyIds, ...free];
    return { record: { ...existing, armyIds: joined, hexes: joined.map((id) => getArmy(s, id).hex) }, numbered: false };
  }
  const members = free.map((id) => getArmy(s, id));
  const hostilePair = members.some((a) => members.some((b) => isHostile(s.sides, a.side, b.side)));
  if (!hostilePair) return undefined;
  const standing = standingContact(s, index, free);
  if (standing) return { record: goesOn(s, standing, free), numbered: false, standing: true };
  const { id, numbered } = newContactId(s, free);
  return { record: { id, armyIds: free, hexes: members.map((a) => a.hex), openedAt: s.clock, step: 'step1', data: {} }, numbered };
}

/**
 * A contact that stands: it closed in the last half period as "fight on the morrow" (nobody
 * pressed it), and two of its forces hostile to each other face each other again now. It goes on
 * under the same id instead of a new one (and leaves the index: one contact, one next round).
 * @see 001 Map Contact: Fight on the Morrow ("again in map contact at the beginning of the next half period")
 */
function standingContact(s: CampaignState, index: ContactIndex, free: readonly string[]): ContactRecord | undefined {
  const facing = (c: ContactRecord): boolean => {
    const back = free.filter((id) => c.armyIds.includes(id)).map((id) => getArmy(s, id));
    return back.some((a) => back.some((b) => isHostile(s.sides, a.side, b.side)));
  };
  const at = index.standing.findIndex(facing);
  if (at < 0) return undefined;
  const [found] = index.standing.splice(at, 1);
  return found;
}

/**
 * The next round of a standing contact: step 1 again for the forces now facing each other
 * (newcomers join), its answers and results cleared; the roles, maneuvers and the day's switches
 * around it kept, and the round before remembered for the contact dice ("previous contact").
 */
function goesOn(s: CampaignState, old: ContactRecord, armyIds: readonly string[]): ContactRecord {
  const { supports, reserves, reinforce, maneuver, operations, halfSpent, splitFrom } = old.data;
  return {
    id: old.id,
    armyIds: [...armyIds],
    hexes: armyIds.map((id) => getArmy(s, id).hex),
    openedAt: s.clock,
    step: 'step1',
    data: {
      ...(supports ? { supports } : {}),
      ...(reserves ? { reserves } : {}),
      ...(reinforce ? { reinforce } : {}),
      ...(maneuver ? { maneuver } : {}),
      ...(operations ? { operations } : {}),
      ...(halfSpent ? { halfSpent } : {}),
      ...(splitFrom ? { splitFrom } : {}),
      previousRound: { at: timeIndex(old.openedAt), armyIds: old.armyIds },
    },
  };
}

/** Whether two lists name the same forces (in any order). */
function sameForces(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}
