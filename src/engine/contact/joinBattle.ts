import type { Dice } from '../dice/index.js';
import { PUBLIC, REFEREE, toArmy } from '../events/index.js';
import { assaultRegiment, type Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import { marchFormation } from '../movement/index.js';
import { companiesInBattle, movementProfile, tacticalProfile, type MovementProfile } from '../profiles/index.js';
import type { CampaignState, ContactRecord } from '../state/index.js';
import { baselines } from './baselines.js';
import { battleConditions, publicConditions } from './battleConditions.js';
import type { ContactFact } from './contactEvents.js';
import { withData } from './contactRecord.js';
import { deploy, type DeploymentInput } from './deployment.js';
import { liveArmies, maneuveringAt, opponentsIn } from './queries.js';
import { nowIndex, putContact, setStatus, type ContactChange } from './records.js';

/**
 * Both sides engage: deployment dice, baselines and schedules, the conditions of the battle (fog's
 * visibility rolled now); the battle takes the half period of everyone in it, and the contact
 * waits for the referee's result.
 * @see 001 Deployment; Cost of Battle in Time and Move Points
 */
export function joinBattle(state: CampaignState, map: MapModel, record: ContactRecord, dice: Dice): ContactChange {
  const layout = baselines(state.settings.tableWidth, state.settings.shortBowRange, tacticalProfile(state.settings).unit);
  const briefing = deploy(deploymentInputs(state, map, record), layout, dice);
  const conditions = battleConditions(state, map, record, dice);
  const halfSpent = { ...(record.data.halfSpent ?? {}) };
  for (const id of record.armyIds) halfSpent[id] = nowIndex(state);
  const next = withData(record, { deployment: briefing, conditions, halfSpent, combatants: [...record.armyIds], stepAt: nowIndex(state) }, 'battle');
  const s = setStatus(putContact(state, next), record.armyIds, { inBattle: true, inContact: true });
  // The modifiers' reasons (highest contact die, contact die of 1 or less) are contact-dice secrets: referee only.
  const publicBriefing = { ...briefing, entries: briefing.entries.map(({ modifiers: _secret, ...e }) => e) };
  // Each force's own state goes to its commander; the referee gets them all; the channel none.
  const own: ContactFact[] = Object.values(conditions.forces).map((f) => ({ type: 'forceCondition', audience: toArmy(f.armyId), data: { contactId: record.id, condition: f } }));
  return {
    state: s,
    facts: [
      { type: 'battleJoined', audience: PUBLIC, data: { contactId: record.id, armyIds: record.armyIds, hexes: record.hexes.map((h) => map.format(h)), deployment: publicBriefing, conditions: publicConditions(conditions) } },
      { type: 'deploymentRolled', audience: REFEREE, data: { contactId: record.id, deployment: briefing } },
      ...own,
      { type: 'forceConditions', audience: REFEREE, data: { contactId: record.id, conditions: Object.values(conditions.forces) } },
    ],
  };
}

/** Companies the engaging regiment fields (disassembled war machines are not in the battle); 1 without an engaging regiment. */
function fieldedCompanies(a: Army, profile: MovementProfile): number {
  const reg = assaultRegiment(a);
  return reg ? companiesInBattle(a, reg.companies, profile).length : 1;
}

/**
 * The deployment inputs of the armies still in a contact. A force on a forced march ordered
 * before the day's march began takes the movement profile's bonus (ACKS's +2 initiative, on the
 * deployment dice).
 */
function deploymentInputs(state: CampaignState, map: MapModel, record: ContactRecord): DeploymentInput[] {
  const d = record.data;
  const maneuvering = maneuveringAt(state);
  const bonus = movementProfile(state.settings).forcedMarch.declaredEarlyDeployment;
  return liveArmies(state, record.armyIds).map((a) => ({
    armyId: a.id,
    contactRaw: d.contactDice?.[a.id]?.raw ?? 0,
    contactModified: d.contactDice?.[a.id]?.modified ?? 0,
    maneuver: maneuvering.has(a.id),
    opponentTerrains: opponentsIn(state, record.armyIds, a.id).map((o) => map.terrainAt(o.hex)),
    formation: marchFormation(map, a),
    companies: fieldedCompanies(a, movementProfile(state.settings)),
    ...(bonus !== 0 && a.march.forcedMarchDay === state.clock.day && a.march.forcedMarchEarly ? { forcedMarchBonus: bonus } : {}),
  }));
}
