import type { Dice } from '../dice/index.js';
import { PUBLIC, toArmy } from '../events/index.js';
import { movementProfile, owesNoRest } from '../profiles/index.js';
import type { MapModel } from '../map/index.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState, ContactRecord, DisengagementOutcome, Step1Choice } from '../state/index.js';
import { canAvoidTo, type AvoidCost } from './avoid.js';
import type { ContactFact } from './contactEvents.js';
import { runContactPhase } from './contactPhase.js';
import { withData } from './contactRecord.js';
import { resolveDisengagement } from './disengage.js';
import { forceMarch, makeContactMove } from './moveCost.js';
import { hasHostilePair, liveArmies, opponentsIn } from './queries.js';
import { closeContact, disengageContext, getContact, nowIndex, putContact, refreshContactFlags, told, type ContactChange, type ContactOutput } from './records.js';

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

/**
 * Resolves step 1 once every commander has answered or the deadline passed:
 * 1. missing answers are silence;
 * 2. avoiding and delaying commanders roll against each opponent who stays (if every commander
 *    disengages, nobody rolls); an avoider then steps into the hex it named;
 * 3. if anyone who stays proceeds and enemies remain, the contact phase runs; otherwise it is
 *    fight on the morrow (closed until the next half period).
 * @see RULINGS 5 Step 1; 001 Map Contact: Fight on the Morrow; Avoid Contact; Delay
 */
export function resolveStep1(state: CampaignState, map: MapModel, contactId: string, dice: Dice): Result<ContactOutput> {
  const got = getContact(state, contactId, 'step1');
  if (!got.ok) return got;
  return ok(told(resolveStep1On(state, map, got.value, dice)));
}

/** Step 1 resolved for a contact that is at step 1. */
export function resolveStep1On(state: CampaignState, map: MapModel, contact: ContactRecord, dice: Dice): ContactChange {
  // 1. Missing answers are silence.
  const answers: Record<string, Step1Choice> = {};
  for (const id of contact.armyIds) answers[id] = contact.data.step1?.[id] ?? { kind: 'silent' };
  let record = withData(contact, { step1: answers });
  const leaving = record.armyIds.filter((id) => answers[id]?.kind === 'avoid' || answers[id]?.kind === 'delay');
  const staying = record.armyIds.filter((id) => !leaving.includes(id));
  // 2. Disengagements before the contact phase.
  const gone = disengageBeforeContact(putContact(state, record), map, record, answers, leaving, staying, dice);
  let s = gone.state;
  record = {
    ...withData(record, { disengagements: [...(record.data.disengagements ?? []), ...gone.outcomes], departed: [...(record.data.departed ?? []), ...leaving], halfSpent: gone.halfSpent }),
    armyIds: staying,
    hexes: liveArmies(s, staying).map((a) => a.hex),
  };
  // Disengaged forces are no longer in map contact, whatever the others do.
  s = refreshContactFlags(putContact(s, record), leaving);
  // 3. The contact phase, or fight on the morrow.
  if (staying.some((id) => answers[id]?.kind === 'proceed') && hasHostilePair(s, staying)) {
    const phase = runContactPhase(s, map, record, dice);
    return { state: phase.state, facts: [...gone.facts, ...phase.facts] };
  }
  const outcome = leaving.length > 0 ? 'disengaged' : 'fightOnMorrow';
  s = closeContact(s, record, { outcome });
  // A round of a standoff whose forces are the ones of the round before: the same standoff going on.
  const round = record.data.previousRound;
  const again = round !== undefined && sameForces(round.armyIds, staying);
  const deferred: ContactFact[] = outcome === 'fightOnMorrow' ? [{ type: 'contactDeferred', audience: PUBLIC, data: { contactId: record.id, armyIds: staying, ...(again ? { again: true as const } : {}) } }] : [];
  return { state: s, facts: [...gone.facts, ...deferred] };
}

/**
 * Step 2 of resolving step 1: each avoiding or delaying force rolls against every opponent who
 * stays (a delay takes the half period); an avoider not displaced by its roll steps into the hex
 * it named.
 */
function disengageBeforeContact(state: CampaignState, map: MapModel, record: ContactRecord, answers: Readonly<Record<string, Step1Choice>>, leaving: readonly string[], staying: readonly string[], dice: Dice): ContactChange & { outcomes: DisengagementOutcome[]; halfSpent: Record<string, number> } {
  let s = state;
  const facts: ContactFact[] = [];
  const outcomes: DisengagementOutcome[] = [];
  const halfSpent: Record<string, number> = { ...(record.data.halfSpent ?? {}) };
  for (const id of leaving) {
    const choice = answers[id];
    if (choice?.kind !== 'avoid' && choice?.kind !== 'delay') continue;
    const against = opponentsIn(s, staying, id).map((a) => a.id);
    if (choice.kind === 'delay') halfSpent[id] = nowIndex(s);
    let displaced = false;
    if (against.length > 0) {
      const r = resolveDisengagement(s, map, { armyId: id, opponentIds: against, operation: choice.kind, ctx: disengageContext(s, record) }, dice);
      s = r.state;
      outcomes.push(r.outcome);
      facts.push(...r.facts);
      displaced = r.outcome.displacedTo !== undefined;
    } else {
      facts.push({ type: 'forceDisengaged', audience: PUBLIC, data: { armyId: id, operation: choice.kind, opposed: false } });
    }
    // The avoiding force steps into the hex it named (a displacement already was its move).
    if (choice.kind === 'avoid' && !displaced) {
      const moved = stepAway(s, map, id, choice.to);
      s = moved.state;
      facts.push(...moved.facts);
    }
  }
  return { state: s, facts, outcomes, halfSpent };
}

/**
 * An avoider steps into the hex it named, as the movement rules price and allow it (unformed
 * where the hex demands it); short of points, the avoid is a forced march (its extra joins the
 * day, and tomorrow must be rest).
 */
function stepAway(state: CampaignState, map: MapModel, armyId: string, to: Extract<Step1Choice, { kind: 'avoid' }>['to']): ContactChange {
  const army = state.armies[armyId];
  if (!army || army.status.destroyed) return { state, facts: [] };
  const hex = map.format(to);
  const pay = canAvoidTo(state, map, army, to);
  if (!pay.ok) return { state, facts: [{ type: 'avoidBlocked', audience: toArmy(armyId), data: { armyId, to: hex, violation: pay.violation } }] };
  const marching = pay.value.forcedMarch ? forceMarch(army, pay.value.extra, state.clock.day) : army;
  const moved = makeContactMove(state, map, marching, pay.value.move);
  const next: CampaignState = { ...state, armies: { ...state.armies, [armyId]: moved.army } };
  const facts: ContactFact[] = [{ type: 'armyAvoided', audience: PUBLIC, data: { armyId, to: hex } }, ...moved.facts];
  // Tireless troops force-march without the day of rest after it (004 Rest and Recuperation).
  const noRestOwed = owesNoRest(army, movementProfile(state.settings));
  if (pay.value.forcedMarch) facts.push({ type: 'avoidForcedMarch', audience: toArmy(armyId), data: { armyId, to: hex, day: state.clock.day, ...(noRestOwed ? { noRestOwed: true as const } : {}) } });
  return { state: next, facts };
}

/** Whether two lists name the same forces (in any order). */
function sameForces(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}
