import type { Dice } from '../dice/index.js';
import { echo, PUBLIC, REFEREE, toArmy } from '../events/index.js';
import { regimentFigures, regimentStrength, type Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import { spendAtOnce } from '../movement/index.js';
import { fail, ok, type Result, type Violation } from '../result.js';
import { type CampaignState, type ContactRecord, type DisengagementOutcome, getArmy } from '../state/index.js';
import type { BattleResult, ContactFact, WithdrawalCondition } from './contactEvents.js';
import { withData } from './contactRecord.js';
import { applyRegimentLosses, resolveDisengagement } from './disengage.js';
import { contactPointsLeft, ownHexCost } from './moveCost.js';
import { maneuveringAt, meleeOnDay, opponentsIn } from './queries.js';
import { closeContact, disengageContext, getContact, nowIndex, putContact, told, type ContactOutput } from './records.js';

/**
 * Applies a tabletop battle's result:
 * 1. the report is checked: armies that fought, their regiments, whole losses;
 * 2. each pursuer must have stayed on the field, be formed and unfatigued, face an enemy
 *    withdrawing in retreat or rout, and pay the maneuver cost (unless already maneuvering);
 * 3. the losses per regiment, and the pursuit's points;
 * 4. each withdrawal is a disengagement (delay/withdraw column) against every enemy who stays,
 *    pursued aggressively when the force is not in good order;
 * 5. reports: own figures to each commander, everything to the referee, no numbers in public.
 * The battle took the half period (recorded when it was joined); it costs no move points.
 * @see 001 Avoid, Evade, Delay, and Withdraw: Withdraw; Cost of Battle in Time and Move Points
 */
export function applyBattleResult(state: CampaignState, map: MapModel, contactId: string, result: BattleResult, dice: Dice): Result<ContactOutput> {
  const got = getContact(state, contactId, 'battle');
  if (!got.ok) return got;
  const record = got.value;
  const bad = badReport(state, record, result);
  if (bad) return { ok: false, violation: bad };
  const pursuit = pursuitCosts(state, map, record, result);
  if (!pursuit.ok) return pursuit;
  // 3. Losses per regiment, and the pursuit's points.
  const armies: Record<string, Army> = { ...state.armies };
  for (const [armyId, byRegiment] of Object.entries(result.losses)) armies[armyId] = applyRegimentLosses(getArmy({ armies }, armyId), byRegiment);
  for (const [p, pay] of Object.entries(pursuit.value)) armies[p] = spendAtOnce(getArmy({ armies }, p), pay, state.clock);
  const maneuver = { ...(record.data.maneuver ?? {}) };
  for (const p of Object.keys(pursuit.value)) maneuver[p] = nowIndex(state);
  let rec = withData(record, { maneuver });
  let s = putContact({ ...state, armies }, rec);
  // 4. Withdrawals.
  const withdrawn = withdraw(s, map, rec, result, dice);
  s = withdrawn.state;
  // 5. Reports.
  const facts: ContactFact[] = [...withdrawn.facts, ...battleReports(s, map, record, result, withdrawn.outcomes)];
  rec = withData(rec, {
    battle: { lossesByArmy: result.losses, withdrawals: result.withdrawals ?? [], pursuers: [...new Set(result.pursuers ?? [])], recordedAt: nowIndex(s) },
    disengagements: [...(record.data.disengagements ?? []), ...withdrawn.outcomes],
  });
  return ok(told({ state: closeContact(s, rec, { outcome: 'battle' }), facts }));
}

/** Step 1: what is wrong with the report, or undefined. */
function badReport(state: CampaignState, record: ContactRecord, result: BattleResult): Violation | undefined {
  for (const [armyId, byRegiment] of Object.entries(result.losses)) {
    const army = state.armies[armyId];
    if (!army || !record.armyIds.includes(armyId)) return { code: 'battle.armyNotInBattle', message: `${armyId} did not fight in ${record.id}; the armies are ${record.armyIds.join(', ')}.` };
    for (const [regId, lost] of Object.entries(byRegiment)) {
      const reg = army.regiments.find((r) => r.id === regId);
      if (!reg) return { code: 'battle.unknownRegiment', message: `${army.name} has no regiment ${echo(regId)}; its regiments are ${army.regiments.map((r) => r.id).join(', ')}.` };
      if (!Number.isInteger(lost) || lost < 0 || lost > regimentFigures(reg)) {
        return { code: 'battle.badLosses', message: `Losses for ${reg.name} must be a whole number from 0 to ${regimentFigures(reg)} figures.`, details: { regimentId: regId, lost } };
      }
    }
  }
  const stray = (result.withdrawals ?? []).find((w) => !record.armyIds.includes(w.armyId));
  return stray ? { code: 'battle.armyNotInBattle', message: `${stray.armyId} did not fight in ${record.id}.` } : undefined;
}

/** Step 2: the move points each pursuer pays for the maneuver of a pursuit (none when it is already maneuvering). */
function pursuitCosts(state: CampaignState, map: MapModel, record: ContactRecord, result: BattleResult): Result<Record<string, number>> {
  const withdrawals = result.withdrawals ?? [];
  const withdrawing = new Set(withdrawals.map((w) => w.armyId));
  const maneuvering = maneuveringAt(state);
  const costs: Record<string, number> = {};
  for (const p of new Set(result.pursuers ?? [])) {
    const army = state.armies[p];
    if (!army || !record.armyIds.includes(p) || withdrawing.has(p)) return fail('battle.badPursuer', 'Only a commander who stayed on the field may pursue.', { armyId: p });
    if (army.formation !== 'formed' || army.status.fatigued) return fail('battle.pursuerNotFit', `${army.name} must be formed and not fatigued to pursue.`);
    if (!withdrawals.some((w) => w.condition !== 'formed' && opponentsIn(state, [w.armyId], p).length > 0)) {
      return fail('battle.nothingToPursue', 'Aggressive pursuit needs an enemy withdrawing in retreat or in rout.');
    }
    if (maneuvering.has(p)) continue;
    const cost = ownHexCost(state, map, army);
    if (!cost.ok) {
      const v = cost.violation;
      return fail(v.code, `${army.name} cannot pursue: the maneuver of a pursuit moves it within its own hex, and there ${v.message.charAt(0).toLowerCase()}${v.message.slice(1)} Record the result without pursue:, or with another pursuer.`, { ...v.details, pursuer: p });
    }
    const have = contactPointsLeft(state, army);
    if (cost.value > have) return fail('battle.pursuitNoPoints', `${army.name} needs ${cost.value} move points for the maneuver of a pursuit; it has ${have}.`);
    costs[p] = cost.value;
  }
  return ok(costs);
}

/** Step 4: each withdrawal is a disengagement against every enemy who stays; a force not in good order may be pursued aggressively. */
function withdraw(state: CampaignState, map: MapModel, record: ContactRecord, result: BattleResult, dice: Dice): { state: CampaignState; facts: ContactFact[]; outcomes: DisengagementOutcome[] } {
  const withdrawals = result.withdrawals ?? [];
  const withdrawing = new Set(withdrawals.map((w) => w.armyId));
  const pursuers = new Set(result.pursuers ?? []);
  const stayers = record.armyIds.filter((id) => !withdrawing.has(id));
  let s = state;
  const facts: ContactFact[] = [];
  const outcomes: DisengagementOutcome[] = [];
  for (const w of withdrawals) {
    const against = opponentsIn(s, stayers, w.armyId).map((a) => a.id);
    if (against.length === 0 || s.armies[w.armyId]?.status.destroyed) continue;
    // Everyone on the field fought in melee today: their cavalry is not fresh.
    const ctx = { ...disengageContext(s, record), meleeToday: new Set([...meleeOnDay(s, s.clock.day), ...record.armyIds]) };
    const r = resolveDisengagement(s, map, { armyId: w.armyId, opponentIds: against, operation: 'withdraw', formation: w.condition, pursuers: w.condition === 'formed' ? new Set() : pursuers, ctx }, dice);
    s = r.state;
    outcomes.push(r.outcome);
    // The public news of the withdrawal (and where it was pushed back) is told once, in the line that ends the battle.
    facts.push(...r.facts.filter((f) => f.type !== 'forceDisengaged'));
  }
  return { state: s, facts, outcomes };
}

/** Step 5: own figures to each commander, everything to the referee, no numbers in public. */
function battleReports(state: CampaignState, map: MapModel, record: ContactRecord, result: BattleResult, outcomes: readonly DisengagementOutcome[]): ContactFact[] {
  const facts: ContactFact[] = [];
  const pushedBack: Record<string, string> = {};
  for (const o of outcomes) if (o.displacedTo) pushedBack[o.armyId] = map.format(o.displacedTo);
  for (const id of record.armyIds) {
    const a = state.armies[id];
    if (!a) continue;
    facts.push({ type: 'battleLossesApplied', audience: toArmy(id), data: { contactId: record.id, armyId: id, regiments: a.regiments.map((r) => ({ name: r.name, figures: regimentFigures(r), strength: regimentStrength(r) })) } });
  }
  facts.push(
    { type: 'battleRecorded', audience: REFEREE, data: { contactId: record.id, result, outcomes } },
    { type: 'battleFought', audience: PUBLIC, data: { contactId: record.id, armyIds: record.armyIds, withdrew: (result.withdrawals ?? []).map((w) => w.armyId), ...(Object.keys(pushedBack).length > 0 ? { pushedBack } : {}) } },
  );
  return facts;
}

/**
 * A commander declares a withdrawal from the tabletop battle (formed in good order, in retreat or
 * in rout, as the table decided); the referee's result uses it unless it says otherwise.
 * @see 001 Avoid, Evade, Delay, and Withdraw: Withdraw
 */
export function declareWithdrawal(state: CampaignState, contactId: string, armyId: string, condition: WithdrawalCondition): Result<{ state: CampaignState }> {
  const got = getContact(state, contactId, 'battle');
  if (!got.ok) return fail('contact.noBattle', 'A withdrawal is declared during a battle; this contact has no battle waiting for its result.', { contactId });
  if (!got.value.armyIds.includes(armyId)) return fail('contact.notInvolved', `That army is not part of contact ${contactId}.`, { contactId, armyId });
  const withdrawals = { ...(got.value.data.withdrawals ?? {}), [armyId]: condition };
  return ok({ state: putContact(state, withData(got.value, { withdrawals })) });
}
