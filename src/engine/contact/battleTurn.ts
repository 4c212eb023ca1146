import { namesOf, PUBLIC, REFEREE, tell, toArmy } from '../events/index.js';
import { assaultRegiment, regimentFigures, type Army, type Company } from '../forces/index.js';
import { companiesInBattle, movementProfile, type MovementProfile } from '../profiles/index.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState, ContactRecord, DeploymentEntry, DeployUnit, TurnCasualty } from '../state/index.js';
import { withData } from './contactRecord.js';
import { describeTabletop } from './describeTable.js';
import { getContact, putContact } from './records.js';
import type { Arrival, TabletopEvent, TabletopFact } from './tabletopEvents.js';

/**
 * The battle companion: the tabletop turn, the companies each side brings on from its
 * deployment schedule, and the casualties entered turn by turn. The battle is fought on the
 * table; the bot keeps the count.
 * @see 001 Deployment: Initial Deployment; Subsequent Deployment
 */

/** The companies of a regiment that make up deployment units `from` to `to` (exclusive), in order. */
function companiesOf(companies: readonly Company[], unit: DeployUnit, from: number, to: number): Company[] {
  if (unit === 'company') return companies.slice(from, to);
  if (unit === 'regiment') return from === 0 && to > 0 ? [...companies] : [];
  // A battalion is half a regiment: the first half of its companies, then the rest.
  const half = Math.ceil(companies.length / 2);
  const battalions = [companies.slice(0, half), companies.slice(half)];
  return battalions.slice(from, to).flat();
}

/** Units a side has on the table before turn `turn` (turn 1: its initial deployment). */
function unitsBy(entry: DeploymentEntry, turn: number): number {
  if (turn < 1) return 0;
  return entry.initial.count + entry.turn.count * Math.min(turn - 1, entry.subsequentRounds);
}

/** Units of the whole engaging regiment, by the schedule's unit. */
function wholeOf(entry: DeploymentEntry, companies: number): number {
  if (entry.initial.unit === 'company') return Math.max(1, companies);
  return entry.initial.unit === 'battalion' ? 2 : 1;
}

/** What one side brings on before `turn`: its companies, or nothing once its regiment is all on the table. */
function arrivals(army: Army, entry: DeploymentEntry, turn: number, profile: MovementProfile): { regiment: string; companies: Arrival[]; stillToCome: number } | undefined {
  const reg = assaultRegiment(army);
  if (!reg) return undefined;
  // Disassembled war machines (ACKS) are not in the battle: they never arrive.
  const present = companiesInBattle(army, reg.companies, profile);
  if (present.length === 0) return undefined;
  const whole = wholeOf(entry, present.length);
  const from = Math.min(unitsBy(entry, turn - 1), whole);
  const to = Math.min(unitsBy(entry, turn), whole);
  if (to <= from) return undefined;
  const companies = companiesOf(present, entry.initial.unit, from, to).map((c) => ({ troopType: c.troopType, figures: c.figures }));
  return { regiment: reg.name, companies, stillToCome: whole - to };
}

/**
 * Advances a battle's tabletop turn: the casualties entered are booked to the turn just fought
 * (none before the first), the turn moves on, and each side is told (privately: which of its
 * companies they are) what arrives at its baseline before the new turn: the initial deployment
 * before turn 1, then the turn deployment in each later round until the engaging regiment is all
 * on the table. The channel hears the turn and who brings forces on, in the order of the rounds.
 * @see 001 Deployment: Initial Deployment; Subsequent Deployment
 */
export function advanceTabletopTurn(state: CampaignState, contactId: string, casualties: readonly Omit<TurnCasualty, 'turn'>[]): Result<{ readonly state: CampaignState; readonly events: readonly TabletopEvent[]; readonly turn: number }> {
  const got = getContact(state, contactId, 'battle');
  if (!got.ok) return got;
  const record: ContactRecord = got.value;
  const briefing = record.data.deployment;
  if (!briefing) return fail('battle.noDeployment', `Battle ${contactId} has no deployment yet.`);
  const table = record.data.tabletop ?? { turn: 0, casualties: [] };
  if (table.turn === 0 && casualties.length > 0) return fail('battle.noTurnYet', 'No turn has been fought yet: casualties are entered with the turn that follows the one they fell in (`/battle turn` once to begin turn 1).');
  const checked = battleLosses(state, record, casualties);
  if (!checked.ok) return checked;
  const booked = casualties.map((c) => ({ ...c, turn: table.turn }));
  const turn = table.turn + 1;
  const facts: TabletopFact[] = [];
  const arriving: string[] = [];
  // A layout without a unit was worked in inches (before tactical profiles), whatever the table is now.
  const unit = briefing.layout.unit ?? 'inch';
  for (const entry of briefing.entries) {
    const army = state.armies[entry.armyId];
    const came = army ? arrivals(army, entry, turn, movementProfile(state.settings)) : undefined;
    if (!came) continue;
    arriving.push(entry.armyId);
    facts.push({ type: 'companiesArrive', audience: toArmy(entry.armyId), data: { contactId, turn, ...came, baseline: entry.baseline, distance: entry.distanceFromEdge, unit, initial: turn === 1 } });
  }
  const order = turn === 1 ? briefing.initialRounds[0] : briefing.subsequentOrder;
  facts.unshift({ type: 'tabletopTurn', audience: PUBLIC, data: { contactId, turn, arriving: order.filter((id) => arriving.includes(id)), order } });
  if (booked.length > 0) {
    facts.push({ type: 'turnCasualties', audience: REFEREE, data: { contactId, turn: table.turn, casualties: booked } });
    for (const armyId of new Set(booked.map((c) => c.armyId))) facts.push({ type: 'turnCasualties', audience: toArmy(armyId), data: { contactId, turn: table.turn, casualties: booked.filter((c) => c.armyId === armyId) } });
  }
  const next = withData(record, { tabletop: { turn, casualties: [...table.casualties, ...booked] } });
  const s = putContact(state, next);
  return ok({ state: s, turn, events: tell(facts, describeTabletop, namesOf(s.armies)) });
}

/**
 * The battle's losses so far: the casualties entered turn by turn with `more` added (the turn
 * just fought, or at the result the last turn's, or the whole battle's when no turn was entered),
 * summed per army and regiment. Refused when a regiment would lose more figures than it has.
 */
export function battleLosses(state: CampaignState, record: ContactRecord, more: readonly Omit<TurnCasualty, 'turn'>[]): Result<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  for (const c of [...(record.data.tabletop?.casualties ?? []), ...more]) {
    const byRegiment = out[c.armyId] ?? {};
    byRegiment[c.regimentId] = (byRegiment[c.regimentId] ?? 0) + c.figures;
    out[c.armyId] = byRegiment;
  }
  for (const [armyId, byRegiment] of Object.entries(out)) {
    for (const [regimentId, figures] of Object.entries(byRegiment)) {
      const regiment = state.armies[armyId]?.regiments.find((r) => r.id === regimentId);
      const has = regiment ? regimentFigures(regiment) : 0;
      if (figures > has) return fail('battle.badLosses', `${armyId}/${regimentId} has ${has} figures: it cannot lose ${figures} (turn by turn and now together).`);
    }
  }
  return ok(out);
}
