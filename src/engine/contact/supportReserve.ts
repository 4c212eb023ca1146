import { timeIndex } from '../clock/index.js';
import { echo, PUBLIC, toArmy } from '../events/index.js';
import type { Army } from '../forces/index.js';
import { hexEquals, type Hex, isAdjacent } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import { fitsThisHalf, spendAtOnce, type PricedMove } from '../movement/index.js';
import { fail, ok, type Result } from '../result.js';
import { type CampaignState, compareIds, contactHistory, type ContactRecord, getArmy, type OperationLog } from '../state/index.js';
import type { ContactFact } from './contactEvents.js';
import { withData } from './contactRecord.js';
import { contactMoment, contactMoveCost, contactPointsLeft, makeContactMove, ownHexCost } from './moveCost.js';
import { describeStep } from './describeContact.js';
import { openingContact } from './openContact.js';
import { adjacentEnemies, everyoneIn, hostile, isOpen, maneuveringAt, openContactOf } from './queries.js';
import { nowIndex, putContact, told, type ContactOutput } from './records.js';

function army(state: CampaignState, id: string): Result<Army> {
  const a = state.armies[id];
  if (!a || a.status.destroyed) return fail('army.notFound', `There is no army ${echo(id)} on the map.`, { armyId: id });
  return ok(a);
}

/**
 * True for a contact that is open, was opened this half period, or was resolved in it (closing
 * sets quietUntil to the next half period). A contact made by movement is opened in the half
 * period that was played and resolved in the next one.
 */
function activeThisHalf(c: ContactRecord, now: number): boolean {
  return isOpen(c) || timeIndex(c.openedAt) === now || c.data.quietUntil === now + 1;
}

/** The most recent contact record (open, or closed this half period) an army takes part in. */
function currentContactOf(state: CampaignState, armyId: string): ContactRecord | undefined {
  const now = nowIndex(state);
  const mine = Object.values(state.contacts).filter((c) => everyoneIn(c).includes(armyId) && activeThisHalf(c, now));
  return mine.find(isOpen) ?? mine.sort((a, b) => timeIndex(b.openedAt) - timeIndex(a.openedAt) || b.id.localeCompare(a.id))[0];
}

/** The contact record that holds the roles around a supported army. */
function roleRecord(state: CampaignState, supportedId: string): ContactRecord | undefined {
  return Object.values(state.contacts).find((c) => isOpen(c) && c.armyIds.includes(supportedId)) ?? currentContactOf(state, supportedId);
}

/** True when the army stands next to the hex. */
function isNear(state: CampaignState, armyId: string, hex: Hex): boolean {
  const a = state.armies[armyId];
  return a !== undefined && isAdjacent(a.hex, hex);
}

function friends(state: CampaignState, a: Army, b: Army): boolean {
  return a.id !== b.id && !hostile(state, a, b);
}

function log(record: ContactRecord, entry: OperationLog): ContactRecord {
  return withData(record, { operations: [...(record.data.operations ?? []), entry] });
}

/** Relief and support operations an army took part in today, over every contact. */
function switchesToday(state: CampaignState, armyId: string): number {
  return contactHistory(state)
    .flatMap((c) => c.data.operations ?? [])
    .filter((o) => (o.kind === 'relief' || o.kind === 'support') && (o.armyId === armyId || o.other === armyId) && o.day === state.clock.day).length;
}

/**
 * Takes up the support role (next to an allied force in map contact, and not itself in contact
 * with an enemy) or the reserve role (next to an allied force that supports it). Roles are
 * between different armies only. @see 001 Support, Reserve, Maneuver: Support; Reserve
 */
export function assumeRole(state: CampaignState, armyId: string, role: 'support' | 'reserve', supportedId: string): Result<ContactOutput> {
  const a = army(state, armyId);
  if (!a.ok) return a;
  const t = army(state, supportedId);
  if (!t.ok) return t;
  if (!friends(state, a.value, t.value)) return fail('contact.roleNotAllied', `${t.value.name} is not an allied army.`);
  const record = roleRecord(state, supportedId);
  if (!record || !isOpen(record)) return fail('contact.roleNoContact', `${t.value.name} is not in map contact; support and reserve roles need an ally in contact.`);
  const d = record.data;
  if (role === 'support') {
    if (!isAdjacent(a.value.hex, t.value.hex)) return fail('contact.roleNotAdjacent', `${a.value.name} must stand next to ${t.value.name} to support it.`);
    if (adjacentEnemies(state, armyId).length > 0) return fail('contact.roleInContact', `${a.value.name} is itself in contact with an enemy and cannot support.`);
    const next = withData(record, { supports: { ...(d.supports ?? {}), [armyId]: supportedId } });
    return ok(told({ state: putContact(state, next), facts: [{ type: 'roleAssumed', audience: PUBLIC, data: { armyId, role, supportedId } }] }));
  }
  const supporter = Object.entries(d.supports ?? {}).find(([s, target]) => target === supportedId && s !== armyId && isNear(state, s, a.value.hex));
  if (!supporter) return fail('contact.reserveNoSupporter', `${a.value.name} must stand next to an army that supports ${t.value.name} to be its reserve.`);
  const next = withData(record, { reserves: { ...(d.reserves ?? {}), [armyId]: supportedId } });
  return ok(told({ state: putContact(state, next), facts: [{ type: 'roleAssumed', audience: PUBLIC, data: { armyId, role, supportedId } }] }));
}

/** A supporter declares (or withdraws) that it will reinforce the force it supports against displacement. @see 001 Support: Reinforce */
export function declareReinforce(state: CampaignState, supporterId: string, on: boolean): Result<ContactOutput> {
  const rec = Object.values(state.contacts).find((c) => isOpen(c) && c.data.supports?.[supporterId] !== undefined);
  if (!rec) return fail('contact.notSupporting', 'Your army does not support a force in contact; take up the support role first (/support).');
  const next = withData(rec, { reinforce: { ...(rec.data.reinforce ?? {}), [supporterId]: on } });
  return ok(told({ state: putContact(state, next), facts: [{ type: 'reinforceDeclared', audience: toArmy(supporterId), data: { armyId: supporterId, on } }] }));
}

/**
 * Swaps the hexes of two allied armies. Each hex entry is one the movement rules allow now (night,
 * rain, rivers; unformed where the ground demands it). A force's first relief or support
 * operation of the turn costs it neither points nor time; a later one costs the points of the hex
 * it enters and the time they take: it must fall within this half period, as a march's hex entry
 * would. @see 001 Support and Reserve ("the necessary time and move points are required")
 */
function switchHexes(state: CampaignState, map: MapModel, aId: string, bId: string): Result<{ state: CampaignState; costs: Record<string, number>; facts: ContactFact[] }> {
  const a = getArmy(state, aId);
  const b = getArmy(state, bId);
  const costs: Record<string, number> = {};
  const moves: { army: Army; move: PricedMove }[] = [];
  for (const [x, to] of [[a, b.hex], [b, a.hex]] as const) {
    const priced = contactMoveCost(state, map, x, [to]);
    if (!priced.ok) return priced;
    const pay = switchesToday(state, x.id) === 0 ? 0 : priced.value.points;
    if (pay > 0) {
      const have = contactPointsLeft(state, x);
      if (pay > have) return fail('contact.switchNoPoints', `${x.name} has already switched hexes this turn; another switch costs ${pay} move points and it has ${have}.`);
      if (!fitsThisHalf(x, pay, contactMoment(state))) {
        return fail('contact.switchNoTime', `${x.name} has already switched hexes this turn; another switch takes the time of a march into ${map.format(to)} (${pay} move points), more than is left of this half period. Switch in the next half period.`, { points: pay });
      }
    }
    costs[x.id] = pay;
    moves.push({ army: x, move: priced.value });
  }
  const armies = { ...state.armies };
  const facts: ContactFact[] = [];
  for (const { army: x, move } of moves) {
    const done = makeContactMove(state, map, x, move, costs[x.id] ?? 0);
    armies[x.id] = done.army;
    facts.push(...done.facts);
  }
  return ok({ state: { ...state, armies }, costs, facts });
}

/**
 * Relief: a supporter switches hexes with the force it supports, before the contact dice are
 * rolled or after a disengagement; the supporter takes the contact, the relieved force becomes
 * its supporter. @see 001 Support: Relief
 */
export function relief(state: CampaignState, map: MapModel, supporterId: string): Result<ContactOutput> {
  // The current role: an open contact first, else the latest one (an old contact may name another force).
  const withRole = Object.values(state.contacts).filter((c) => c.data.supports?.[supporterId] !== undefined);
  const current = withRole.find(isOpen) ?? withRole.sort((a, b) => timeIndex(b.openedAt) - timeIndex(a.openedAt) || compareIds(b.id, a.id))[0];
  const rec = roleRecord(state, (current ? current.data.supports?.[supporterId] : undefined) ?? '');
  const supportedId = rec ? rec.data.supports?.[supporterId] : undefined;
  if (!rec || !supportedId) return fail('contact.notSupporting', 'Only a supporting force can relieve; take up the support role first (/support).');
  const afterDisengagement = rec.step === 'closed' || (rec.data.departed ?? []).includes(supportedId);
  if (rec.step !== 'step1' && !afterDisengagement) {
    return fail('contact.reliefTooLate', 'Relief is possible before the contact dice are rolled or after a disengagement, not now.', { step: rec.step });
  }
  const sw = switchHexes(state, map, supporterId, supportedId);
  if (!sw.ok) return sw;
  let s = sw.value.state;
  const d = rec.data;
  const supports = Object.fromEntries(Object.entries(d.supports ?? {}).filter(([k]) => k !== supporterId));
  supports[supportedId] = supporterId;
  let next = withData(rec, { supports });
  if (isOpen(rec) && rec.armyIds.includes(supportedId)) {
    const armyIds = rec.armyIds.map((id) => (id === supportedId ? supporterId : id));
    const step1 = { ...(d.step1 ?? {}) };
    delete step1[supportedId];
    next = { ...withData(next, { step1 }), armyIds, hexes: armyIds.map((id) => getArmy(s, id).hex) };
  }
  next = log(next, { kind: 'relief', armyId: supporterId, other: supportedId, day: s.clock.day, half: s.clock.half, points: sw.value.costs[supporterId] ?? 0 });
  s = putContact(s, next);
  // The relieving force is now in the contact and the relieved one is out of it (unless in another).
  const inOpen = new Set(Object.values(s.contacts).filter(isOpen).flatMap((c) => c.armyIds));
  const armies = { ...s.armies };
  for (const id of [supporterId, supportedId]) {
    const a = armies[id];
    if (a) armies[id] = { ...a, status: { ...a.status, inContact: inOpen.has(id) } };
  }
  s = { ...s, armies };
  return ok(told({ state: s, facts: [{ type: 'forceRelieved', audience: PUBLIC, data: { supporterId, supportedId } }, ...sw.value.facts] }));
}

/**
 * The support operation: a reserve switches hexes and roles with the supporting force, at any
 * time. @see 001 Reserve: Support
 */
export function supportOperation(state: CampaignState, map: MapModel, reserveId: string): Result<ContactOutput> {
  const rec = Object.values(state.contacts).find((c) => c.data.reserves?.[reserveId] !== undefined && c.data.outcome !== 'split' && activeThisHalf(c, nowIndex(state)));
  const supportedId = rec ? rec.data.reserves?.[reserveId] : undefined;
  if (!rec || !supportedId) return fail('contact.notReserve', 'Only a reserve force can take over the support role; take up the reserve role first (/reserve).');
  const d = rec.data;
  const reserve = getArmy(state, reserveId);
  const supporterId = Object.entries(d.supports ?? {}).find(([s, t]) => t === supportedId && isNear(state, s, reserve.hex))?.[0];
  if (!supporterId) return fail('contact.reserveNoSupporter', 'No supporting force stands next to your reserve.');
  const sw = switchHexes(state, map, reserveId, supporterId);
  if (!sw.ok) return sw;
  const supports = Object.fromEntries(Object.entries(d.supports ?? {}).filter(([k]) => k !== supporterId));
  supports[reserveId] = supportedId;
  const reserves = Object.fromEntries(Object.entries(d.reserves ?? {}).filter(([k]) => k !== reserveId));
  reserves[supporterId] = supportedId;
  let next = withData(rec, { supports, reserves });
  next = log(next, { kind: 'support', armyId: reserveId, other: supporterId, day: state.clock.day, half: state.clock.half, points: sw.value.costs[reserveId] ?? 0 });
  const s = putContact(sw.value.state, next);
  return ok(told({ state: s, facts: [{ type: 'supportSwitched', audience: PUBLIC, data: { reserveId, supporterId } }, ...sw.value.facts] }));
}

/**
 * Exploit: after the supported force's contact is resolved, a reserve moves through the
 * supporting force's hex into a hex that puts it in map contact with an enemy, paying only for
 * that last hex. A new contact opens. @see 001 Reserve: Exploit
 */
export function exploit(state: CampaignState, map: MapModel, reserveId: string, to: Hex): Result<ContactOutput & { readonly contactId: string }> {
  // A split contact hands its roles to its parts: it is not itself resolved. A closed contact
  // counts when it closed this half period or the last (closing sets quietUntil to the next one).
  const now = nowIndex(state);
  const recent = (c: ContactRecord): boolean => isOpen(c) || timeIndex(c.openedAt) >= now - 1 || (c.data.quietUntil ?? -Infinity) >= now;
  const rec = Object.values(state.contacts).find((c) => c.data.reserves?.[reserveId] !== undefined && c.data.outcome !== 'split' && recent(c));
  const supportedId = rec ? rec.data.reserves?.[reserveId] : undefined;
  if (!rec || !supportedId) return fail('contact.notReserve', 'Only a reserve force can exploit; take up the reserve role first (/reserve).');
  // A standing contact that went on this half period after a fight on the morrow was resolved
  // (for that round) in the last one: the exploit may follow, joining the new round.
  const goneOn = rec.step === 'step1' && rec.data.previousRound !== undefined && timeIndex(rec.openedAt) === now;
  if (isOpen(rec) && !goneOn) return fail('contact.exploitTooEarly', 'Exploit follows the resolution of the contact (or battle); wait until it is resolved.');
  const reserve = getArmy(state, reserveId);
  const d = rec.data;
  const through = Object.entries(d.supports ?? {}).map(([s]) => state.armies[s]).find((s) => s && !s.status.destroyed && isAdjacent(s.hex, reserve.hex) && isAdjacent(s.hex, to));
  if (!through) return fail('contact.exploitPath', `The exploit must pass through the hex of the supporting force and end next to it; ${map.format(to)} does not.`);
  if (Object.values(state.armies).some((a) => !a.status.destroyed && hexEquals(a.hex, to))) return fail('contact.exploitOccupied', `${map.format(to)} holds another commander.`);
  // Both hexes are entered as the movement rules allow; only the last is paid for.
  const priced = contactMoveCost(state, map, reserve, [through.hex, to]);
  if (!priced.ok) return priced;
  const pay = priced.value.hexes[priced.value.hexes.length - 1]?.points ?? 0;
  const have = contactPointsLeft(state, reserve);
  if (pay > have) return fail('contact.exploitNoPoints', `Entering ${map.format(to)} costs ${pay} move points; ${reserve.name} has ${have}.`);
  const made = makeContactMove(state, map, reserve, priced.value, pay);
  const moved = made.army;
  let s: CampaignState = { ...state, armies: { ...state.armies, [reserveId]: moved } };
  const enemies = adjacentEnemies(s, reserveId);
  if (enemies.length === 0) return fail('contact.exploitNoEnemy', `From ${map.format(to)} ${reserve.name} would not be in contact with an enemy; the exploit must end in map contact.`);
  s = putContact(s, log(rec, { kind: 'exploit', armyId: reserveId, other: through.id, day: s.clock.day, half: s.clock.half, points: pay }));
  const exploited: ContactFact = { type: 'forceExploited', audience: PUBLIC, data: { reserveId, through: through.id, to: map.format(to) } };
  const noted = made.facts;
  // An enemy already in a contact before its contact phase: the reserve joins it (as a force
  // arriving by movement does), rather than putting the enemy in two contacts at once.
  const joinable = Object.values(s.contacts).find((c) => c.step === 'step1' && c.armyIds.some((id) => enemies.some((e) => e.id === id)));
  if (joinable) {
    const armyIds = [...joinable.armyIds, reserveId];
    s = putContact(s, { ...joinable, armyIds, hexes: armyIds.map((id) => getArmy(s, id).hex) });
    s = { ...s, armies: { ...s.armies, [reserveId]: { ...moved, status: { ...moved.status, inContact: true } } } };
    return ok({ ...told({ state: s, facts: [exploited, ...noted, { type: 'contactMade', audience: PUBLIC, data: { how: 'exploitJoined', contactId: joinable.id, armyIds, armyId: reserveId } }] }), contactId: joinable.id });
  }
  const opened = openingContact(s, map, [reserveId, ...enemies.map((e) => e.id)]);
  return ok({ ...told({ state: opened.state, facts: [exploited, ...noted, ...opened.facts] }), contactId: opened.contactId });
}

/**
 * The maneuver action: a formed, unfatigued force next to an enemy pays the move points of its own
 * hex and gains +1 on deployment and disengagement dice for the half period; it may then force a
 * second contact. @see 001 Support, Reserve, Maneuver: Maneuver
 */
export function maneuver(state: CampaignState, map: MapModel, armyId: string): Result<ContactOutput> {
  const a = army(state, armyId);
  if (!a.ok) return a;
  const self = a.value;
  if (adjacentEnemies(state, armyId).length === 0) return fail('contact.maneuverNoEnemy', `${self.name} must stand next to an enemy to maneuver.`);
  if (self.formation !== 'formed' || self.status.fatigued) return fail('contact.maneuverNotFit', `Only a formed force that is not fatigued may maneuver.`);
  if (maneuveringAt(state).has(armyId)) return fail('contact.alreadyManeuvering', `${self.name} is already maneuvering this half period.`);
  const rec = currentContactOf(state, armyId);
  if (!rec) return fail('contact.maneuverNoContact', `${self.name} has no contact this half period.`);
  const cost = ownHexCost(state, map, self);
  if (!cost.ok) return cost;
  const pay = cost.value;
  const have = contactPointsLeft(state, self);
  if (pay > have) return fail('contact.maneuverNoPoints', `Maneuver costs ${pay} move points here; ${self.name} has ${have}.`);
  const s0: CampaignState = { ...state, armies: { ...state.armies, [armyId]: spendAtOnce(self, pay, state.clock) } };
  let next = withData(rec, { maneuver: { ...(rec.data.maneuver ?? {}), [armyId]: nowIndex(state) } });
  next = log(next, { kind: 'maneuver', armyId, day: state.clock.day, half: state.clock.half, points: pay });
  return ok(told({ state: putContact(s0, next), facts: [{ type: 'armyManeuvered', audience: PUBLIC, data: { armyId } }] }));
}

/**
 * A maneuvering commander forces a second map contact in the half period, once its first contact
 * is resolved: a contact with every adjacent enemy, even one it just disengaged from. An enemy
 * already in a contact before its contact phase is not put in a second one: the commander (and
 * any other enemy next to it that is free) joins that contact, as a force arriving by movement or
 * an exploit does. An enemy whose contact is further along (contact phase run, battle) cannot be
 * forced into another until that one is resolved.
 * @see 001 Maneuver; Disengagement
 */
export function forceSecondContact(state: CampaignState, map: MapModel, armyId: string): Result<ContactOutput & { readonly contactId: string }> {
  const a = army(state, armyId);
  if (!a.ok) return a;
  if (!maneuveringAt(state).has(armyId)) return fail('contact.notManeuvering', 'Only a commander who used the maneuver action this half period can force a second contact (/maneuver first).');
  const now = nowIndex(state);
  const open = Object.values(state.contacts).find((c) => isOpen(c) && c.armyIds.includes(armyId));
  if (open) return fail('contact.firstNotResolved', `Contact ${open.id} must be resolved before a second contact.`);
  const forcedNow = (c: ContactRecord): boolean => (c.data.forcedBy === armyId && timeIndex(c.openedAt) === now)
    || (c.data.operations ?? []).some((o) => o.kind === 'secondContact' && o.armyId === armyId && o.day === state.clock.day && o.half === state.clock.half);
  if (Object.values(state.contacts).some(forcedNow)) {
    return fail('contact.secondAlreadyForced', 'A second contact has already been forced this half period.');
  }
  const enemies = adjacentEnemies(state, armyId);
  if (enemies.length === 0) return fail('contact.noEnemyAdjacent', `${a.value.name} has no enemy next to it.`);
  // Where the enemies stand: free, or already in an open contact.
  const held = enemies.map((e) => ({ enemy: e, contact: openContactOf(state, e.id) }));
  const busy = held.find((x) => x.contact !== undefined && x.contact.step !== 'step1');
  if (busy?.contact) {
    return fail('contact.secondEnemyEngaged', `${busy.enemy.name} is already in contact ${busy.contact.id} (${describeStep(busy.contact.step)}): a second contact cannot be forced on it until that one is resolved.`, { enemyId: busy.enemy.id, contactId: busy.contact.id, step: busy.contact.step });
  }
  const joinable = [...new Map(held.flatMap((x) => (x.contact ? [[x.contact.id, x.contact] as const] : []))).values()];
  if (joinable.length > 1) {
    return fail('contact.secondSeveralContacts', `The enemies next to ${a.value.name} are in separate contacts (${joinable.map((c) => c.id).join(', ')}): a second contact cannot join them all; wait until they are resolved.`, { contactIds: joinable.map((c) => c.id) });
  }
  const entry: OperationLog = { kind: 'secondContact', armyId, day: state.clock.day, half: state.clock.half, points: 0 };
  const target = joinable[0];
  if (target) {
    // Join the enemy's contact before its contact phase, with any free enemy next to the commander.
    const newcomers = [armyId, ...held.filter((x) => x.contact === undefined).map((x) => x.enemy.id)];
    const armyIds = [...target.armyIds, ...newcomers.filter((id) => !target.armyIds.includes(id))];
    let s: CampaignState = putContact(state, log(withData({ ...target, armyIds, hexes: armyIds.map((id) => getArmy(state, id).hex) }, { maneuver: { ...(target.data.maneuver ?? {}), [armyId]: now } }), entry));
    const armies = { ...s.armies };
    for (const id of newcomers) {
      const x = armies[id];
      if (x) armies[id] = { ...x, status: { ...x.status, inContact: true } };
    }
    s = { ...s, armies };
    const joined = newcomers.map((id) => ({ armyId: id, hex: map.format(getArmy(state, id).hex) }));
    return ok({ ...told({ state: s, facts: [{ type: 'contactMade', audience: PUBLIC, data: { how: 'forcedJoined', contactId: target.id, armyIds, newcomers: joined, forcedBy: armyId } }] }), contactId: target.id });
  }
  const opened = openingContact(state, map, [armyId, ...enemies.map((e) => e.id)], { forcedBy: armyId, maneuver: { [armyId]: now } });
  const rec = opened.state.contacts[opened.contactId];
  const s = rec ? putContact(opened.state, log(rec, entry)) : opened.state;
  return ok({ ...told({ state: s, facts: opened.facts }), contactId: opened.contactId });
}
