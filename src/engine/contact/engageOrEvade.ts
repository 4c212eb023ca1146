import type { Dice } from '../dice/index.js';
import { PUBLIC } from '../events/index.js';
import type { MapModel } from '../map/index.js';
import { fail, ok, type Result } from '../result.js';
import { type CampaignState, type ContactRecord, type Decision, type DisengagementOutcome, getArmy } from '../state/index.js';
import { markDisengaged } from '../movement/index.js';
import type { ContactFact } from './contactEvents.js';
import { withData } from './contactRecord.js';
import { resolveDisengagement } from './disengage.js';
import { joinBattle } from './joinBattle.js';
import { hasHostilePair, liveArmies, opponentsIn } from './queries.js';
import { closeContact, disengageContext, getContact, putContact, refreshContactFlags, told, type ContactChange, type ContactOutput } from './records.js';

/** Step 3: engage or evade. A commander whose modified contact die is 1 or less cannot evade. @see 001 Engage or Evade */
export function chooseDecision(state: CampaignState, contactId: string, armyId: string, decision: Decision): Result<{ state: CampaignState; allAnswered: boolean }> {
  const got = getContact(state, contactId, 'decision');
  if (!got.ok) return got;
  const record = got.value;
  if (!record.armyIds.includes(armyId)) return fail('contact.notInvolved', `That army is not part of contact ${contactId}.`, { contactId, armyId });
  const d = record.data;
  if (decision === 'evade' && !canEvade(record, armyId)) {
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

/**
 * Resolves engage or evade:
 * 1. missing answers engage;
 * 2. if nobody engages an enemy, every evasion succeeds: no battle;
 * 3. evaders roll against each commander who engages, and are then out of map contact;
 * 4. enemies left who engage: deployment, then the battle step (joinBattle).
 * @see RULINGS 5 Step 3; 001 Engage or Evade; 001 Deployment
 */
export function resolveDecision(state: CampaignState, map: MapModel, contactId: string, dice: Dice): Result<ContactOutput> {
  const got = getContact(state, contactId, 'decision');
  if (!got.ok) return got;
  return ok(told(resolveDecisionOn(state, map, got.value, dice)));
}

/** Engage or evade resolved for a contact at the decision step. */
export function resolveDecisionOn(state: CampaignState, map: MapModel, contact: ContactRecord, dice: Dice): ContactChange {
  // 1. Missing answers engage.
  const decisions: Record<string, Decision> = {};
  for (const id of contact.armyIds) decisions[id] = contact.data.decisions?.[id] ?? 'engage';
  let record = withData(contact, { decisions });
  let s = putContact(state, record);
  const evaders = record.armyIds.filter((id) => decisions[id] === 'evade');
  const engagers = record.armyIds.filter((id) => decisions[id] === 'engage');
  // 2. Nobody engages an enemy: every evasion succeeds.
  if (engagers.length === 0 || !engagers.some((id) => opponentsIn(s, record.armyIds, id).length > 0)) {
    const facts: ContactFact[] = [{ type: 'contactEvaded', audience: PUBLIC, data: { contactId: record.id, armyIds: record.armyIds } }];
    // An evasion is a disengagement: no rest in this half period.
    const armies = { ...s.armies };
    for (const id of evaders) armies[id] = markDisengaged(getArmy(s, id), s.clock);
    return { state: closeContact({ ...s, armies }, record, { outcome: 'bothEvaded' }), facts };
  }
  // 3. Evaders roll against the commanders who engage them.
  const facts: ContactFact[] = [];
  const outcomes: DisengagementOutcome[] = [];
  for (const id of evaders) {
    const against = opponentsIn(s, engagers, id).map((a) => a.id);
    if (against.length === 0) continue;
    const r = resolveDisengagement(s, map, { armyId: id, opponentIds: against, operation: 'evade', ctx: disengageContext(s, record) }, dice);
    s = r.state;
    outcomes.push(r.outcome);
    facts.push(...r.facts);
  }
  record = {
    ...withData(record, { disengagements: [...(record.data.disengagements ?? []), ...outcomes], departed: [...(record.data.departed ?? []), ...evaders] }),
    armyIds: engagers,
    hexes: liveArmies(s, engagers).map((a) => a.hex),
  };
  // Evaders are no longer in map contact and may move on, even while the others fight.
  s = refreshContactFlags(putContact(s, record), evaders);
  if (!hasHostilePair(s, engagers)) return { state: closeContact(s, record, { outcome: 'evaded' }), facts };
  // 4. The battle.
  const battle = joinBattle(s, map, record, dice);
  return { state: battle.state, facts: [...facts, ...battle.facts] };
}
