import { canEvade, chooseDecision, chooseStep1, isOpen } from '../contact/index.js';
import { REFEREE } from '../events/index.js';
import { assaultRegiment, isHostile, regimentFigures, type Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import type { ArmyPlan, CampaignState, ContactRecord, Decision, Step1Choice } from '../state/index.js';
import type { PlanDecidedFact, PlanReason } from './planEvents.js';

/** Figures of the army's engaging (assault) regiment: what an estimate of an enemy is compared with. */
export function ownFigures(army: Army): number {
  const r = assaultRegiment(army);
  return r ? regimentFigures(r) : 0;
}

/** How the army judges the enemies of a contact: only on its own estimates (of this contact, or remembered). */
export interface Judgement {
  readonly verdict: 'stronger' | 'notStronger' | 'noEstimate';
  readonly own: number;
  readonly estimate?: number;
}

/**
 * Whether the army's estimates say it is the stronger: its engaging regiment against the sum of
 * what it estimated of each hostile force's engaging regiment. An enemy it has no estimate of
 * leaves the question open.
 */
function judge(state: CampaignState, plan: ArmyPlan, army: Army, contact: ContactRecord): Judgement {
  const own = ownFigures(army);
  const enemies = contact.armyIds.filter((id) => {
    const o = state.armies[id];
    return o !== undefined && !o.status.destroyed && id !== army.id && isHostile(state.sides, army.side, o.side);
  });
  let estimate = 0;
  for (const id of enemies) {
    const figures = contact.data.estimates?.[army.id]?.[id]?.estimatedFigures ?? plan.estimates?.[id]?.figures;
    if (figures === undefined) return { verdict: 'noEstimate', own };
    estimate += figures;
  }
  return { verdict: own > estimate ? 'stronger' : 'notStronger', own, estimate };
}

/** The open contact the army takes part in, if any. */
export function contactOf(state: CampaignState, armyId: string): ContactRecord | undefined {
  return Object.values(state.contacts).find((c) => isOpen(c) && c.armyIds.includes(armyId));
}

/** Whether the army still owes an answer at the contact's current step. */
export function owesAnswer(contact: ContactRecord, armyId: string): boolean {
  if (contact.step === 'step1') return contact.data.step1?.[armyId] === undefined;
  if (contact.step === 'decision') return contact.data.decisions?.[armyId] === undefined;
  return false;
}

export interface PolicyAnswer {
  readonly state: CampaignState;
  readonly fact: PlanDecidedFact;
  /** The decision's key (told to the referee once). */
  readonly key: string;
}

/**
 * The plan's answer to a contact, given with the same rules a commander's answer goes through
 * (chooseStep1, chooseDecision):
 * 1. policy `referee`: no answer (the referee answers by the deadline, or the defaults apply);
 * 2. step 1: proceed when its estimate says it is the stronger or when it has none yet (the
 *    contact phase gives one, and it may still evade); otherwise delay (policy `delay`) or stay
 *    silent (policy `evade`: nobody pressing, the contact stands over to the morrow);
 * 3. the decision: engage when the stronger; otherwise evade, unless unaware (it cannot).
 * @see docs/rulings.md (Plans: contact policies); 001 Map Contact; 001 Engage or Evade
 */
export function answerByPolicy(state: CampaignState, map: MapModel, plan: ArmyPlan, army: Army, contact: ContactRecord, summary: string): PolicyAnswer {
  const base = { armyId: army.id, plan: summary, contactId: contact.id };
  const key = `${contact.id}:${contact.step}`;
  // 1. The referee answers.
  if (plan.contact === 'referee') {
    return { state, key: `wait:${key}`, fact: { type: 'planDecided', audience: REFEREE, data: { ...base, action: 'wait', reason: 'refereeDecides' } } };
  }
  const j = judge(state, plan, army, contact);
  const odds = { own: j.own, ...(j.estimate !== undefined ? { estimate: j.estimate } : {}) };
  let answer: string;
  let reason: PlanReason = j.verdict;
  let result: { ok: true; state: CampaignState } | { ok: false; message: string };
  if (contact.step === 'step1') {
    // 2. Step 1.
    const choice: Step1Choice = j.verdict !== 'notStronger' ? { kind: 'proceed' } : plan.contact === 'delay' ? { kind: 'delay' } : { kind: 'silent' };
    answer = choice.kind;
    const r = chooseStep1(state, map, contact.id, army.id, choice);
    result = r.ok ? { ok: true, state: r.value.state } : { ok: false, message: r.violation.message };
  } else {
    // 3. Engage or evade.
    const evade = j.verdict !== 'stronger';
    const mayEvade = canEvade(contact, army.id);
    if (evade && !mayEvade) reason = 'cannotEvade';
    const decision: Decision = evade && mayEvade ? 'evade' : 'engage';
    answer = decision;
    const r = chooseDecision(state, contact.id, army.id, decision);
    result = r.ok ? { ok: true, state: r.value.state } : { ok: false, message: r.violation.message };
  }
  if (!result.ok) {
    return { state, key: `refused:${key}`, fact: { type: 'planDecided', audience: REFEREE, data: { ...base, action: 'wait', reason: 'refused', detail: result.message } } };
  }
  return { state: result.state, key: `answer:${key}`, fact: { type: 'planDecided', audience: REFEREE, data: { ...base, action: 'answer', answer, reason, ...odds } } };
}
