import { halfPeriodEndHour, halfPeriodName, isPeriodStart, ordinal, timeIndex } from '../clock/gameTime.js';
import type { Dice } from '../dice/dice.js';
import { event, PUBLIC, REFEREE, toArmy, type EngineEvent } from '../events/events.js';
import { assaultRegiment, regimentCount, regimentFigures, regimentStrength, type Army } from '../forces/army.js';
import type { Hex } from '../hex/hex.js';
import { hexEquals } from '../hex/hex.js';
import { isAdjacent } from '../hex/neighbours.js';
import type { MapModel } from '../map/mapModel.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState, ContactRecord } from '../state/campaign.js';
import { baselines } from './baselines.js';
import { withData, type ContactData, type ContactDie, type ContactStep, type Decision, type Step1Choice } from './contactRecord.js';
import { deploy, type DeploymentBriefing, type DeploymentInput } from './deployment.js';
import { applyRegimentLosses, resolveDisengagement, type DisengageContext, type DisengageFormation, type DisengagementOutcome } from './disengage.js';
import { describeEstimate, estimateOpponent, forceTruth, type Estimate, type ForceTruth } from './estimate.js';
import { marchFormation as movementMarchFormation } from '../movement/marchFormation.js';
import { bankAfter, contactMoveCost, forcedMarchExtra, forceMarch, spendPoints } from './moveCost.js';
import { everyoneIn, hasHostilePair, isOpen, liveArmies, maneuveringAt, meleeOnDay, opponentsIn } from './queries.js';
import { CONTACT_MODIFIERS, SCOUT_TABLE, type ContactModifierCode, type ScoutOutcome } from './tables.js';
import { withDefaultPlacement } from './sketch.js';
import { dealTerrain, GRID_COLUMNS, GRID_ROWS, terrainDrawOrder, type BattlefieldCell } from './terrainDeck.js';

/** State and events after a contact transition. */
export interface ContactOutput {
  readonly state: CampaignState;
  readonly events: readonly EngineEvent[];
}

const nowIndex = (state: CampaignState): number => timeIndex(state.clock);
const nameOf = (state: CampaignState, id: string): string => state.armies[id]?.name ?? id;

function getContact(state: CampaignState, contactId: string, step?: ContactStep): Result<ContactRecord> {
  const c = state.contacts[contactId];
  if (!c) return fail('contact.notFound', `There is no contact "${contactId}". Use /contact list to see the open contacts.`, { contactId });
  if (step && c.step !== step) {
    return fail('contact.wrongStep', `Contact ${contactId} is at step "${c.step}", not "${step}".`, { contactId, step: c.step, expected: step });
  }
  return ok(c);
}

function putContact(state: CampaignState, record: ContactRecord): CampaignState {
  return { ...state, contacts: { ...state.contacts, [record.id]: record } };
}

function setStatus(state: CampaignState, ids: readonly string[], patch: Partial<Army['status']>): CampaignState {
  const armies = { ...state.armies };
  for (const id of ids) {
    const a = armies[id];
    if (a) armies[id] = { ...a, status: { ...a.status, ...patch } };
  }
  return { ...state, armies };
}

/** Clears the in-contact flag of armies that no longer take part in an open contact. */
function refreshContactFlags(state: CampaignState, ids: readonly string[]): CampaignState {
  const stillIn = new Set(Object.values(state.contacts).filter(isOpen).flatMap((c) => c.armyIds));
  const inBattle = new Set(Object.values(state.contacts).filter((c) => c.step === 'battle').flatMap((c) => c.armyIds));
  const armies = { ...state.armies };
  for (const id of ids) {
    const a = armies[id];
    if (a) armies[id] = { ...a, status: { ...a.status, inContact: stillIn.has(id), inBattle: inBattle.has(id) } };
  }
  return { ...state, armies };
}

function disengageContext(state: CampaignState, record: ContactRecord): DisengageContext {
  const d = record.data;
  return {
    supports: d.supports ?? {},
    reinforce: d.reinforce ?? {},
    maneuvering: maneuveringAt(state),
    meleeToday: meleeOnDay(state, state.clock.day),
  };
}

/** Closes a contact: no new contact between its forces before the next half period. */
function closeContact(state: CampaignState, record: ContactRecord, patch: Partial<ContactData>): CampaignState {
  // A closed record lists every force that took part, so that the quiet check covers them all.
  const all = [...new Set(everyoneIn(record))];
  const closed = { ...withData(record, { ...patch, quietUntil: nowIndex(state) + 1 }, 'closed'), armyIds: all, hexes: liveArmies(state, all).map((a) => a.hex) };
  return refreshContactFlags(putContact(state, closed), everyoneIn(closed));
}

/**
 * Opens a contact between armies (the movement rules open theirs on map contact; the contact
 * rules open one for an exploit, a maneuver's second contact or a split). Step 1 starts at once.
 */
export function openContact(state: CampaignState, map: MapModel, armyIds: readonly string[], extra: Partial<ContactData> = {}): { state: CampaignState; contactId: string; events: EngineEvent[] } {
  // Contact ids share the movement rules' scheme; skip any id already taken.
  let n = state.nextId;
  while (state.contacts[`c${n}`] !== undefined) n++;
  const id = `c${n}`;
  // Each army once, however often it was named.
  const armies = liveArmies(state, [...new Set(armyIds)]);
  const record: ContactRecord = {
    id,
    armyIds: armies.map((a) => a.id),
    hexes: armies.map((a) => a.hex),
    openedAt: state.clock,
    step: 'step1',
    data: { stepAt: nowIndex(state), ...extra } as Readonly<Record<string, unknown>>,
  };
  let next: CampaignState = { ...putContact(state, record), nextId: n + 1 };
  next = setStatus(next, record.armyIds, { inContact: true });
  const who = armies.map((a) => `${a.name} (${map.format(a.hex)})`).join(', ');
  return { state: next, contactId: id, events: [event('contactMade', PUBLIC, `Contact: ${who}.`, { contactId: id, armyIds: record.armyIds })] };
}

/**
 * Step 1: a commander avoids (with the points to step into another hex, by a forced march if need
 * be), delays, proceeds, or stays silent. Avoiding names the hex to move to; `avoid` then says
 * what the move costs and whether it takes a forced march.
 * @see RULINGS 5 Step 1; 001 Map Contact; 001 Avoid, Evade, Delay, and Withdraw: Avoid
 */
export function chooseStep1(state: CampaignState, map: MapModel, contactId: string, armyId: string, choice: Step1Choice): Result<{ state: CampaignState; allAnswered: boolean; avoid?: AvoidCost }> {
  const got = getContact(state, contactId, 'step1');
  if (!got.ok) return got;
  const record = got.value;
  const army = state.armies[armyId];
  if (!army || !record.armyIds.includes(armyId)) return fail('contact.notInvolved', `That army is not part of contact ${contactId}.`, { contactId, armyId });
  let avoid: AvoidCost | undefined;
  if (choice.kind === 'avoid') {
    const check = canAvoidTo(state, map, army, choice.to);
    if (!check.ok) return check;
    avoid = check.value;
  }
  const step1 = { ...(record.data.step1 ?? {}), [armyId]: choice };
  const next = withData(record, { step1 });
  return ok({ state: putContact(state, next), allAnswered: next.armyIds.every((id) => step1[id] !== undefined), ...(avoid ? { avoid } : {}) });
}

/** What avoiding into a hex costs. */
export interface AvoidCost {
  /** Move points of the hex entered. */
  readonly points: number;
  /** The points left today fall short: only a forced march covers the move. */
  readonly forcedMarch: boolean;
  /** Points the forced march adds to the day (0 when no forced march is needed). */
  readonly extra: number;
}

/**
 * Whether an army may avoid contact into a hex: adjacent, on the map, land, empty, and affordable
 * with the points left today or, failing that, by a forced march (the points left plus the
 * forced march's extra for the day; none if the army already force-marched today).
 * @see 001 Avoid, Evade, Delay, and Withdraw: Avoid ("or be able to conduct a forced march")
 */
export function canAvoidTo(state: CampaignState, map: MapModel, army: Army, to: Hex): Result<AvoidCost> {
  if (!isAdjacent(army.hex, to)) return fail('contact.avoidNotAdjacent', `To avoid contact, name a hex next to ${map.format(army.hex)}.`, { to: map.format(to) });
  const pay = contactMoveCost(map, army, army.hex, to);
  if (pay === undefined || !map.inBounds(to)) return fail('contact.avoidCannotEnter', `${map.format(to)} cannot be entered by land; pick a land hex next to ${map.format(army.hex)}.`);
  if (Object.values(state.armies).some((a) => a.id !== army.id && !a.status.destroyed && hexEquals(a.hex, to))) {
    return fail('contact.avoidOccupied', `${map.format(to)} holds another commander; pick an empty hex (one commander per hex).`);
  }
  const have = army.march.pointsLeft;
  if (pay <= have) return ok({ points: pay, forcedMarch: false, extra: 0 });
  const extra = forcedMarchExtra(state, army);
  if (extra > 0 && pay <= have + extra) return ok({ points: pay, forcedMarch: true, extra });
  const forced = army.march.forcedMarchDay === state.clock.day
    ? 'it has already force-marched today'
    : `a forced march would give it ${have + extra}`;
  return fail('contact.avoidNoPoints', `Avoiding into ${map.format(to)} needs ${pay} move points; ${army.name} has ${have} left today and ${forced}. Choose delay, proceed, or stay silent.`, { need: pay, have, withForcedMarch: have + extra });
}

/**
 * Resolves step 1 once every commander has answered or the deadline passed (missing answers are
 * silence). Avoiding and delaying commanders roll against each opponent who stays; if every
 * commander disengages, nobody rolls. Then, if anyone who stays proceeds and enemies remain, the
 * contact phase runs; otherwise it is fight on the morrow (closed until the next half period).
 * @see RULINGS 5 Step 1; 001 Map Contact: Fight on the Morrow; Avoid Contact; Delay
 */
export function resolveStep1(state: CampaignState, map: MapModel, contactId: string, dice: Dice): Result<ContactOutput> {
  const got = getContact(state, contactId, 'step1');
  if (!got.ok) return got;
  let record = got.value;
  const answers: Record<string, Step1Choice> = {};
  for (const id of record.armyIds) answers[id] = record.data.step1?.[id] ?? { kind: 'silent' };
  record = withData(record, { step1: answers });
  let s = putContact(state, record);
  const events: EngineEvent[] = [];
  const leaving = record.armyIds.filter((id) => answers[id]?.kind === 'avoid' || answers[id]?.kind === 'delay');
  const staying = record.armyIds.filter((id) => !leaving.includes(id));
  const outcomes: DisengagementOutcome[] = [];
  const halfSpent: Record<string, number> = { ...(record.data.halfSpent ?? {}) };
  // 1. Disengagements before the contact phase.
  for (const id of leaving) {
    const choice = answers[id] as Step1Choice;
    const against = opponentsIn(s, staying, id).map((a) => a.id);
    if (choice.kind === 'delay') halfSpent[id] = nowIndex(s);
    let displaced = false;
    if (against.length > 0) {
      const r = resolveDisengagement(s, map, { armyId: id, opponentIds: against, operation: choice.kind === 'avoid' ? 'avoid' : 'delay', ctx: disengageContext(s, record) }, dice);
      s = r.state;
      outcomes.push(r.outcome);
      events.push(...r.events);
      displaced = r.outcome.displacedTo !== undefined;
    } else {
      events.push(event('forceDisengaged', PUBLIC, `${nameOf(s, id)} ${choice.kind === 'avoid' ? 'avoided contact' : 'broke contact'}; nobody stayed to oppose it.`, { armyId: id, operation: choice.kind }));
    }
    // The avoiding force steps into the hex it named (a displacement already was its move).
    const army = s.armies[id];
    if (choice.kind === 'avoid' && army && !army.status.destroyed && !displaced) {
      const pay = canAvoidTo(s, map, army, choice.to);
      if (pay.ok) {
        // Short of points, the avoid is a forced march: its extra joins the day, and tomorrow must be rest.
        const marching = pay.value.forcedMarch ? forceMarch(army, pay.value.extra, s.clock.day) : army;
        s = { ...s, armies: { ...s.armies, [id]: { ...spendPoints(marching, pay.value.points), hex: choice.to, bank: bankAfter(map, army, choice.to) } } };
        events.push(event('armyAvoided', PUBLIC, `${army.name} moved away to ${map.format(choice.to)}.`, { armyId: id, to: map.format(choice.to) }));
        if (pay.value.forcedMarch) {
          events.push(event('avoidForcedMarch', toArmy(id), `${army.name} avoided to ${map.format(choice.to)} by a forced march: rest all of tomorrow or be fatigued.`, { armyId: id, to: map.format(choice.to), day: s.clock.day }));
        }
      } else {
        events.push(event('avoidBlocked', toArmy(id), `${army.name} could not move to ${map.format(choice.to)} after avoiding: ${pay.violation.message}`));
      }
    }
  }
  const departed = [...(record.data.departed ?? []), ...leaving];
  const prior = record.data.disengagements ?? [];
  record = { ...withData(record, { disengagements: [...prior, ...outcomes], departed, halfSpent }), armyIds: staying, hexes: liveArmies(s, staying).map((a) => a.hex) };
  // Disengaged forces are no longer in map contact, whatever the others do.
  s = refreshContactFlags(putContact(s, record), leaving);
  // 2. Contact phase, or fight on the morrow.
  const proceeding = staying.filter((id) => answers[id]?.kind === 'proceed');
  if (proceeding.length > 0 && hasHostilePair(s, staying)) {
    const phase = runContactPhase(s, map, contactId, dice);
    if (!phase.ok) return phase;
    return ok({ state: phase.value.state, events: [...events, ...phase.value.events] });
  }
  const outcome = leaving.length > 0 ? 'disengaged' : 'fightOnMorrow';
  s = closeContact(s, record, { outcome });
  if (outcome === 'fightOnMorrow') {
    events.push(event('contactDeferred', PUBLIC, `No commander pressed the contact: ${[...staying].map((id) => nameOf(s, id)).join(', ')} will fight on the morrow (contact again next half period).`, { contactId }));
  }
  return ok({ state: s, events });
}

/** Start of the previous period, as a time index (the previous-contact window). */
function previousPeriodStart(state: CampaignState): number {
  const now = nowIndex(state);
  const periodStart = isPeriodStart(state.clock) ? now : now - 1;
  return periodStart - 2;
}

/**
 * Contact dice modifiers for one commander. "Previous contact" is another contact with one of
 * the same opponents opened this period or the one before; a captured scout of any opponent
 * counts for every commander facing it; terrain ignores the commander's own hex.
 * @see 001 Contact Dice: Contact Modifiers; 000 Scouts Out
 */
export function contactModifiers(state: CampaignState, map: MapModel, record: ContactRecord, army: Army, opponents: readonly Army[], scouts: Readonly<Record<string, readonly ScoutOutcome[]>>): ContactDie['modifiers'] {
  const out: { code: ContactModifierCode; label: string; value: number }[] = [];
  const add = (code: ContactModifierCode): void => {
    out.push({ code, label: CONTACT_MODIFIERS[code].label, value: CONTACT_MODIFIERS[code].value });
  };
  if (opponents.length === 0) return out;
  if (opponents.every((o) => army.march.pointsLeft > o.march.pointsLeft)) add('morePoints');
  if (opponents.every((o) => regimentCount(army) + 1 <= regimentCount(o))) add('smallest');
  if ((scouts[army.id] ?? []).includes('successful')) add('scouts');
  if (opponents.some((o) => (scouts[o.id] ?? []).includes('captured'))) add('capturedScouts');
  const since = previousPeriodStart(state);
  const related = new Set([record.id, ...(record.data.splitFrom ? [record.data.splitFrom as string] : [])]);
  const previous = Object.values(state.contacts).some((c) => {
    if (related.has(c.id) || timeIndex(c.openedAt) < since || timeIndex(c.openedAt) > nowIndex(state)) return false;
    const ids = everyoneIn(c);
    return ids.includes(army.id) && opponents.some((o) => ids.includes(o.id));
  });
  if (previous) add('previousContact');
  const terrains = opponents.map((o) => map.terrainAt(o.hex));
  if (terrains.every((t) => t === 'clear')) add('opponentsClear');
  if (terrains.every((t) => t === 'mountain')) add('opponentsMountain');
  return out;
}

/** Contact hour: the half period's end hour minus the spread of the unmodified dice. @see 001 Contact Hour */
export function contactHour(half: Parameters<typeof halfPeriodEndHour>[0], rawDice: readonly number[]): number {
  const spread = rawDice.length > 0 ? Math.max(...rawDice) - Math.min(...rawDice) : 0;
  return halfPeriodEndHour(half) - spread;
}

/**
 * Step 2, the contact phase: scouts, contact dice, contact hour, each commander's estimates
 * (army audience only), the truth for the referee, and the terrain cards. Unaware commanders
 * (modified die 1 or less) are entered as engaging. @see RULINGS 5 Step 2; 001 Contact Dice;
 * 001 Terrain Reconnaissance; 000 Scouts Out
 */
export function runContactPhase(state: CampaignState, map: MapModel, contactId: string, dice: Dice): Result<ContactOutput> {
  const got = getContact(state, contactId, 'step1');
  if (!got.ok) return got;
  const record = got.value;
  const armies = liveArmies(state, record.armyIds);
  const events: EngineEvent[] = [];
  // 1. Scouts: one roll per deployed scout; captured and killed scouts do not come back.
  const scouts: Record<string, ScoutOutcome[]> = {};
  const armyMap = { ...state.armies };
  for (const a of armies) {
    if (a.scouts <= 0) continue;
    scouts[a.id] = Array.from({ length: a.scouts }, (_, i) => SCOUT_TABLE[dice.d6(`scout ${i + 1} of ${a.id}`) - 1] ?? 'unsuccessful');
    const lost = scouts[a.id]?.filter((x) => x === 'captured' || x === 'killed').length ?? 0;
    armyMap[a.id] = { ...a, scouts: a.scouts - lost };
    events.push(event('scoutsReturned', toArmy(a.id), `Your scouts: ${scouts[a.id]?.join(', ')}.`, { contactId, scouts: scouts[a.id] }));
  }
  for (const a of armies) {
    const caught = opponentsIn(state, record.armyIds, a.id).filter((o) => (scouts[o.id] ?? []).includes('captured'));
    for (const o of caught) events.push(event('scoutCaptured', toArmy(a.id), `Your pickets captured a scout of ${o.name}.`, { contactId, from: o.id }));
  }
  // 2. Contact dice.
  const contactDice: Record<string, ContactDie> = {};
  for (const a of armies) {
    const raw = dice.d6(`contact dice: ${a.id}`);
    const modifiers = contactModifiers(state, map, record, a, opponentsIn(state, record.armyIds, a.id), scouts);
    contactDice[a.id] = { raw, modifiers, modified: raw + modifiers.reduce((n, m) => n + m.value, 0) };
  }
  const raws = Object.values(contactDice).map((d) => d.raw);
  const hour = contactHour(halfPeriodName(record.openedAt), raws);
  // 3. Estimates and the truth.
  const estimates: Record<string, Record<string, Estimate>> = {};
  const truth: Record<string, ForceTruth> = {};
  for (const a of armies) {
    truth[a.id] = forceTruth(a);
    const mine: Record<string, Estimate> = {};
    for (const o of opponentsIn(state, record.armyIds, a.id)) mine[o.id] = estimateOpponent(a.id, contactDice[a.id]?.modified ?? 1, o, dice);
    estimates[a.id] = mine;
  }
  // 4. Terrain reconnaissance: rank by modified, then unmodified dice, then a roll-off.
  const tiebreak: Record<string, number[]> = {};
  const ranked = [...armies].map((a) => a.id);
  const key = (id: string): number => (contactDice[id]?.modified ?? 0) * 10 + (contactDice[id]?.raw ?? 0);
  // Roll-offs in rounds, compared round by round: those still tied roll again ("still a tie, dice for it").
  const rollOff = (x: string, y: string): number => {
    const a = tiebreak[x] ?? [];
    const b = tiebreak[y] ?? [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (b[i] ?? 0) - (a[i] ?? 0);
    return 0;
  };
  let tied = ranked.filter((id) => ranked.some((o) => o !== id && key(o) === key(id)));
  while (tied.length > 0) {
    for (const id of tied) tiebreak[id] = [...(tiebreak[id] ?? []), dice.d6(`terrain first draw roll-off: ${id}`)];
    const round = tied;
    tied = round.filter((id) => round.some((o) => o !== id && key(o) === key(id) && rollOff(o, id) === 0));
  }
  ranked.sort((x, y) => key(y) - key(x) || rollOff(x, y));
  const spread = raws.length > 0 ? Math.max(...raws) - Math.min(...raws) : 0;
  const terrain = withDefaultPlacement(dealTerrain(terrainDrawOrder(ranked, spread), dice));
  // 5. Unaware commanders cannot evade: they engage.
  const decisions: Record<string, Decision> = {};
  for (const a of armies) if ((contactDice[a.id]?.modified ?? 1) <= 1) decisions[a.id] = 'engage';
  const next = withData(record, { scouts, contactDice, contactHour: hour, estimates, truth, terrain, decisions, stepAt: nowIndex(state) }, 'decision');
  const s = putContact({ ...state, armies: armyMap }, next);
  // 6. Events: numbers go to their commander and the referee, never to the channel.
  for (const a of armies) {
    const d = contactDice[a.id] as ContactDie;
    const mods = d.modifiers.map((m) => ` ${m.value >= 0 ? '+' : ''}${m.value} (${m.label})`).join('');
    const lines = Object.values(estimates[a.id] ?? {}).map((e) => describeEstimate(e, nameOf(state, e.targetId)));
    const unaware = d.modified <= 1 ? ' You are unaware of the enemy and cannot evade.' : '';
    events.push(event('contactEstimated', toArmy(a.id), `Contact dice ${d.raw}${mods} = ${d.modified}. Contact at the ${ordinal(hour)} hour. ${lines.join(' ')}${unaware}`, { contactId, die: d, hour, estimates: estimates[a.id] }));
    const cards = terrain.filter((c) => c.armyId === a.id).map((c) => c.card);
    events.push(event('terrainDealt', toArmy(a.id), `Your terrain cards: ${cards.join(', ') || 'none'}.`, { contactId, cards, order: terrain.map((c) => c.armyId) }));
  }
  events.push(event('contactTruth', REFEREE, `Contact ${contactId}: ${armies.map((a) => `${a.name} die ${contactDice[a.id]?.raw} -> ${contactDice[a.id]?.modified}, engaging ${truth[a.id]?.figures} figures`).join('; ')}; hour ${hour}.`, { contactId, contactDice, truth, estimates, scouts, terrain }));
  events.push(event('contactPhaseRun', PUBLIC, `Contact phase between ${armies.map((a) => a.name).join(', ')}: each commander now chooses to engage or evade.`, { contactId }));
  return ok({ state: s, events });
}

/** Step 3: engage or evade. A commander whose modified contact die is 1 or less cannot evade. @see 001 Engage or Evade */
export function chooseDecision(state: CampaignState, contactId: string, armyId: string, decision: Decision): Result<{ state: CampaignState; allAnswered: boolean }> {
  const got = getContact(state, contactId, 'decision');
  if (!got.ok) return got;
  const record = got.value;
  if (!record.armyIds.includes(armyId)) return fail('contact.notInvolved', `That army is not part of contact ${contactId}.`, { contactId, armyId });
  const d = record.data;
  if (decision === 'evade' && (d.contactDice?.[armyId]?.modified ?? 2) <= 1) {
    return fail('contact.cannotEvadeUnaware', 'Your force is unaware of the enemy (contact dice 1): it cannot evade and will engage.', { contactId, armyId });
  }
  const decisions = { ...(d.decisions ?? {}), [armyId]: decision };
  const next = withData(record, { decisions });
  return ok({ state: putContact(state, next), allAnswered: next.armyIds.every((id) => decisions[id] !== undefined) });
}

/** True when a commander in the decision step may evade. */
export function canEvade(record: ContactRecord, armyId: string): boolean {
  return (record.data.contactDice?.[armyId]?.modified ?? 2) > 1;
}

/** The deployment inputs of the armies still in a contact. */
export function deploymentInputs(state: CampaignState, map: MapModel, record: ContactRecord): DeploymentInput[] {
  const d = record.data;
  const maneuvering = maneuveringAt(state);
  return liveArmies(state, record.armyIds).map((a) => ({
    armyId: a.id,
    contactRaw: d.contactDice?.[a.id]?.raw ?? 0,
    contactModified: d.contactDice?.[a.id]?.modified ?? 0,
    maneuver: maneuvering.has(a.id),
    opponentTerrains: opponentsIn(state, record.armyIds, a.id).map((o) => map.terrainAt(o.hex)),
    formation: movementMarchFormation(map, a),
    companies: assaultRegiment(a)?.companies.filter((c) => c.figures > 0).length ?? 1,
  }));
}

/**
 * Resolves engage or evade (missing answers engage). Everyone evades: no battle. Evaders roll
 * against each commander who engages. Enemies left who engage: deployment, then the battle step.
 * @see RULINGS 5 Step 3; 001 Engage or Evade; 001 Deployment
 */
export function resolveDecision(state: CampaignState, map: MapModel, contactId: string, dice: Dice): Result<ContactOutput> {
  const got = getContact(state, contactId, 'decision');
  if (!got.ok) return got;
  let record = got.value;
  const decisions: Record<string, Decision> = {};
  for (const id of record.armyIds) decisions[id] = record.data.decisions?.[id] ?? 'engage';
  record = withData(record, { decisions });
  let s = putContact(state, record);
  const events: EngineEvent[] = [];
  const evaders = record.armyIds.filter((id) => decisions[id] === 'evade');
  const engagers = record.armyIds.filter((id) => decisions[id] === 'engage');
  if (engagers.length === 0 || !engagers.some((id) => opponentsIn(s, record.armyIds, id).length > 0)) {
    // Nobody engages an enemy: every evasion succeeds.
    events.push(event('contactEvaded', PUBLIC, `${record.armyIds.map((id) => nameOf(s, id)).join(' and ')} broke off: no battle.`, { contactId }));
    return ok({ state: closeContact(s, record, { outcome: 'bothEvaded' }), events });
  }
  const outcomes: DisengagementOutcome[] = [];
  for (const id of evaders) {
    const against = opponentsIn(s, engagers, id).map((a) => a.id);
    if (against.length === 0) continue;
    const r = resolveDisengagement(s, map, { armyId: id, opponentIds: against, operation: 'evade', ctx: disengageContext(s, record) }, dice);
    s = r.state;
    outcomes.push(r.outcome);
    events.push(...r.events);
  }
  record = {
    ...withData(record, { disengagements: [...(record.data.disengagements ?? []), ...outcomes], departed: [...(record.data.departed ?? []), ...evaders] }),
    armyIds: engagers,
    hexes: liveArmies(s, engagers).map((a) => a.hex),
  };
  // Evaders are no longer in map contact and may move on, even while the others fight.
  s = refreshContactFlags(putContact(s, record), evaders);
  if (!hasHostilePair(s, engagers)) return ok({ state: closeContact(s, record, { outcome: 'evaded' }), events });
  const battle = startBattle(s, map, record, dice);
  return ok({ state: battle.state, events: [...events, ...battle.events] });
}

/** Both sides engage: deployment dice, baselines and schedules; the contact waits for the result. */
function startBattle(state: CampaignState, map: MapModel, record: ContactRecord, dice: Dice): ContactOutput {
  const layout = baselines(state.settings.tableWidth, state.settings.shortBowRange);
  const briefing: DeploymentBriefing = deploy(deploymentInputs(state, map, record), layout, dice);
  const halfSpent = { ...(record.data.halfSpent ?? {}) };
  for (const id of record.armyIds) halfSpent[id] = nowIndex(state);
  const next = withData(record, { deployment: briefing, halfSpent, combatants: [...record.armyIds], stepAt: nowIndex(state) }, 'battle');
  const s = setStatus(putContact(state, next), record.armyIds, { inBattle: true, inContact: true });
  const names = record.armyIds.map((id) => nameOf(state, id)).join(' and ');
  const hexes = record.hexes.map((h) => map.format(h)).join('/');
  // The modifiers' reasons (highest contact die, contact die of 1 or less) are contact-dice secrets: referee only.
  const publicBriefing = { ...briefing, entries: briefing.entries.map(({ modifiers: _secret, ...e }) => e) };
  return {
    state: s,
    events: [
      event('battleJoined', PUBLIC, `Battle joined at ${hexes} between ${names}. The deployment briefing is posted; the referee records the result with /battle result.`, { contactId: record.id, deployment: publicBriefing }),
      event('deploymentRolled', REFEREE, `Deployment for ${record.id}: ${briefing.entries.map((e) => `${nameOf(state, e.armyId)} ${e.die} -> ${e.score}`).join('; ')}; initiative ${nameOf(state, briefing.initiative)}.`, { contactId: record.id, deployment: briefing }),
    ],
  };
}

/** What the referee records after a tabletop battle. */
export interface BattleResult {
  /** Figures lost per regiment id, per army. */
  readonly losses: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Sides that withdrew and how: formed in good order, in retreat or in rout. */
  readonly withdrawals?: readonly { readonly armyId: string; readonly condition: 'formed' | 'retreat' | 'rout' }[];
  /** Armies ordering an aggressive pursuit (a maneuver action). */
  readonly pursuers?: readonly string[];
}

/**
 * Applies a tabletop battle's result: the losses per regiment, then each withdrawal as a
 * disengagement (delay/withdraw column) against every enemy who stays, with aggressive pursuit
 * for formed, unfatigued pursuers of a force not in good order (they pay the maneuver cost).
 * The battle took the half period (recorded when it was joined); it costs no move points.
 * @see 001 Avoid, Evade, Delay, and Withdraw: Withdraw; Cost of Battle in Time and Move Points
 */
export function applyBattleResult(state: CampaignState, map: MapModel, contactId: string, result: BattleResult, dice: Dice): Result<ContactOutput> {
  const got = getContact(state, contactId, 'battle');
  if (!got.ok) return got;
  const record = got.value;
  // 1. Check the report.
  for (const [armyId, byRegiment] of Object.entries(result.losses)) {
    const army = state.armies[armyId];
    if (!army || !record.armyIds.includes(armyId)) return fail('battle.armyNotInBattle', `${armyId} did not fight in ${contactId}; the armies are ${record.armyIds.join(', ')}.`);
    for (const [regId, lost] of Object.entries(byRegiment)) {
      const reg = army.regiments.find((r) => r.id === regId);
      if (!reg) return fail('battle.unknownRegiment', `${army.name} has no regiment "${regId}"; its regiments are ${army.regiments.map((r) => r.id).join(', ')}.`);
      if (!Number.isInteger(lost) || lost < 0 || lost > regimentFigures(reg)) {
        return fail('battle.badLosses', `Losses for ${reg.name} must be a whole number from 0 to ${regimentFigures(reg)} figures.`, { regimentId: regId, lost });
      }
    }
  }
  const withdrawals = result.withdrawals ?? [];
  for (const w of withdrawals) if (!record.armyIds.includes(w.armyId)) return fail('battle.armyNotInBattle', `${w.armyId} did not fight in ${contactId}.`);
  const withdrawing = new Set(withdrawals.map((w) => w.armyId));
  const pursuers = new Set(result.pursuers ?? []);
  const maneuvering = maneuveringAt(state);
  const pursuitCost: Record<string, number> = {};
  for (const p of pursuers) {
    const army = state.armies[p];
    if (!army || !record.armyIds.includes(p) || withdrawing.has(p)) return fail('battle.badPursuer', 'Only a commander who stayed on the field may pursue.', { armyId: p });
    if (army.formation !== 'formed' || army.status.fatigued) return fail('battle.pursuerNotFit', `${army.name} must be formed and not fatigued to pursue.`);
    if (!withdrawals.some((w) => w.condition !== 'formed' && opponentsIn(state, [w.armyId], p).length > 0)) {
      return fail('battle.nothingToPursue', 'Aggressive pursuit needs an enemy withdrawing in retreat or in rout.');
    }
    if (!maneuvering.has(p)) {
      const pay = contactMoveCost(map, army, army.hex, army.hex) ?? 0;
      if (pay > army.march.pointsLeft) return fail('battle.pursuitNoPoints', `${army.name} needs ${pay} move points for the maneuver of a pursuit; it has ${army.march.pointsLeft}.`);
      pursuitCost[p] = pay;
    }
  }
  // 2. Losses per regiment.
  let s = state;
  const armies = { ...s.armies };
  for (const [armyId, byRegiment] of Object.entries(result.losses)) armies[armyId] = applyRegimentLosses(armies[armyId] as Army, byRegiment);
  for (const [p, pay] of Object.entries(pursuitCost)) {
    const a = armies[p] as Army;
    armies[p] = spendPoints(a, pay);
  }
  s = { ...s, armies };
  const d = record.data;
  const maneuver = { ...(d.maneuver ?? {}) };
  for (const p of Object.keys(pursuitCost)) maneuver[p] = nowIndex(s);
  let rec = withData(record, { maneuver });
  s = putContact(s, rec);
  const events: EngineEvent[] = [];
  // 3. Withdrawals.
  const stayers = record.armyIds.filter((id) => !withdrawing.has(id));
  const outcomes: DisengagementOutcome[] = [];
  for (const w of withdrawals) {
    const against = opponentsIn(s, stayers, w.armyId).map((a) => a.id);
    if (against.length === 0 || s.armies[w.armyId]?.status.destroyed) continue;
    const ctx = { ...disengageContext(s, rec), meleeToday: new Set([...meleeOnDay(s, s.clock.day), ...record.armyIds]) };
    const r = resolveDisengagement(s, map, { armyId: w.armyId, opponentIds: against, operation: 'withdraw', formation: w.condition as DisengageFormation, pursuers: w.condition === 'formed' ? new Set() : pursuers, ctx }, dice);
    s = r.state;
    outcomes.push(r.outcome);
    events.push(...r.events);
  }
  // 4. Reports: own figures to each commander, everything to the referee, no numbers in public.
  for (const id of record.armyIds) {
    const a = s.armies[id];
    if (!a) continue;
    const lines = a.regiments.map((r) => `${r.name} ${regimentFigures(r)} figures (${regimentStrength(r)}%)`).join('; ');
    events.push(event('battleLossesApplied', toArmy(id), `After the battle: ${lines}.`, { contactId, armyId: id }));
  }
  events.push(event('battleRecorded', REFEREE, `Battle ${contactId} recorded: losses ${JSON.stringify(result.losses)}; withdrawals ${withdrawals.map((w) => `${w.armyId} ${w.condition}`).join(', ') || 'none'}.`, { contactId, result, outcomes }));
  events.push(event('battleFought', PUBLIC, `The battle between ${record.armyIds.map((id) => nameOf(s, id)).join(' and ')} is over${withdrawals.length > 0 ? `; ${withdrawals.map((w) => `${nameOf(s, w.armyId)} withdrew`).join(', ')}` : ''}.`, { contactId }));
  rec = withData(rec, {
    battle: { lossesByArmy: result.losses, withdrawals, pursuers: [...pursuers], recordedAt: nowIndex(s) },
    disengagements: [...(d.disengagements ?? []), ...outcomes],
  });
  return ok({ state: closeContact(s, rec, { outcome: 'battle' }), events });
}

/**
 * A commander places one of their terrain cards (their `n`-th, from 1) on the 3 x 3 battlefield
 * grid, with an orientation of 0, 90, 180 or 270 degrees; a card may be moved until the battle.
 * @see RULINGS 5 Terrain reconnaissance; 001 Chainmail's Terrain Selection Clarification
 */
export function placeTerrainCard(state: CampaignState, contactId: string, armyId: string, n: number, cell: BattlefieldCell, orientation = 0): Result<{ state: CampaignState }> {
  const got = getContact(state, contactId, 'decision');
  if (!got.ok) return fail('contact.placeNotNow', 'Terrain cards are placed after the contact phase, before engage or evade is settled.', { contactId });
  const cards = got.value.data.terrain ?? [];
  const mine = cards.map((c, i) => ({ c, i })).filter((x) => x.c.armyId === armyId);
  const pick = mine[n - 1];
  if (!pick) return fail('contact.noSuchCard', `You hold ${mine.length} terrain card(s); name one from 1 to ${mine.length}.`);
  if (!GRID_ROWS.includes(cell.row) || !GRID_COLUMNS.includes(cell.column)) return fail('contact.badCell', 'Place a card on near/middle/far and left/centre/right.');
  if (![0, 90, 180, 270].includes(orientation)) return fail('contact.badOrientation', 'Orientation is 0, 90, 180 or 270 degrees.');
  const terrain = cards.map((c, i) => (i === pick.i ? { ...c, cell, orientation } : c));
  return ok({ state: putContact(state, withData(got.value, { terrain })) });
}

/**
 * A commander declares a withdrawal from the tabletop battle (formed in good order, in retreat or
 * in rout, as the table decided); the referee's result uses it unless it says otherwise.
 * @see 001 Avoid, Evade, Delay, and Withdraw: Withdraw
 */
export function declareWithdrawal(state: CampaignState, contactId: string, armyId: string, condition: 'formed' | 'retreat' | 'rout'): Result<{ state: CampaignState }> {
  const got = getContact(state, contactId, 'battle');
  if (!got.ok) return fail('contact.noBattle', 'A withdrawal is declared during a battle; this contact has no battle waiting for its result.', { contactId });
  if (!got.value.armyIds.includes(armyId)) return fail('contact.notInvolved', `That army is not part of contact ${contactId}.`, { contactId, armyId });
  const withdrawals = { ...(got.value.data.withdrawals ?? {}), [armyId]: condition };
  return ok({ state: putContact(state, withData(got.value, { withdrawals })) });
}

/**
 * The referee splits a contact of three or more forces into separate engagements (before the
 * contact phase). Every army goes in exactly one group; each group needs enemies facing each
 * other. @see RULINGS 5 (one battle by default); 001 Map Contact: Three or More Forces
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
  const events: EngineEvent[] = [];
  const answers = record.data.step1 ?? {};
  const d = record.data;
  for (const g of groups) {
    const step1 = Object.fromEntries(Object.entries(answers).filter(([id]) => g.includes(id)));
    // Each group keeps the roles around its own forces (supporters, their reinforce, reserves).
    const supports = Object.fromEntries(Object.entries(d.supports ?? {}).filter(([, target]) => g.includes(target)));
    const reserves = Object.fromEntries(Object.entries(d.reserves ?? {}).filter(([, target]) => g.includes(target)));
    const reinforce = Object.fromEntries(Object.entries(d.reinforce ?? {}).filter(([k]) => supports[k] !== undefined));
    const roles = {
      ...(Object.keys(supports).length > 0 ? { supports } : {}),
      ...(Object.keys(reserves).length > 0 ? { reserves } : {}),
      ...(Object.keys(reinforce).length > 0 ? { reinforce } : {}),
    };
    const opened = openContact(s, map, g, { splitFrom: contactId, step1, stepAt: d.stepAt ?? nowIndex(s), ...roles, ...(d.maneuver ? { maneuver: d.maneuver } : {}) });
    s = opened.state;
    // Keep the original contact time.
    const c = s.contacts[opened.contactId] as ContactRecord;
    s = putContact(s, { ...c, openedAt: record.openedAt });
    ids.push(opened.contactId);
  }
  s = putContact(s, withData(record, { outcome: 'split', splitInto: ids }, 'closed'));
  events.push(event('contactSplit', PUBLIC, `The referee split the contact into ${groups.length} engagements: ${groups.map((g) => g.map((id) => nameOf(s, id)).join(' vs ')).join('; ')}.`, { contactId, into: ids }));
  return ok({ state: s, events, contactIds: ids });
}
