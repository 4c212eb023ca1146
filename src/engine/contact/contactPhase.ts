import { halfPeriodName } from '../clock/index.js';
import type { Dice } from '../dice/index.js';
import { PUBLIC, REFEREE, toArmy } from '../events/index.js';
import type { Army } from '../forces/index.js';
import type { MapModel } from '../map/index.js';
import type { CampaignState, ContactDie, ContactRecord, DealtCard, Decision, Estimate, ForceTruth, ScoutOutcome } from '../state/index.js';
import type { ContactFact } from './contactEvents.js';
import { contactHour, contactModifiers } from './contactDice.js';
import { withData } from './contactRecord.js';
import { estimateOpponent, forceTruth } from './estimate.js';
import { opponentsIn, liveArmies } from './queries.js';
import { nowIndex, putContact, type ContactChange } from './records.js';
import { withDefaultPlacement } from './sketch.js';
import { SCOUT_LIMIT, SCOUT_TABLE } from './tables.js';
import { dealTerrain, terrainDrawOrder } from './terrainDeck.js';

/**
 * Step 2, the contact phase:
 * 1. scouts: one roll per deployed scout (the deployment stands for later contacts);
 * 2. contact dice (with their modifiers) and the contact hour;
 * 3. each commander's estimates of the opponents (army audience only), the truth for the referee;
 * 4. terrain reconnaissance: the cards dealt in the order of the contact dice;
 * 5. unaware commanders (modified die 1 or less) are entered as engaging;
 * 6. numbers go to their commander and the referee, never to the channel.
 * @see RULINGS 5 Step 2; 001 Contact Dice; 001 Terrain Reconnaissance; 000 Scouts Out
 */
export function runContactPhase(state: CampaignState, map: MapModel, record: ContactRecord, dice: Dice): ContactChange {
  const armies = liveArmies(state, record.armyIds);
  const scouting = sendScouts(state, record, armies, dice);
  const contactDice = rollContactDice(state, map, record, armies, scouting.scouts, dice);
  const raws = Object.values(contactDice).map((d) => d.raw);
  const hour = contactHour(halfPeriodName(record.openedAt), raws);
  const estimates: Record<string, Record<string, Estimate>> = {};
  const truth: Record<string, ForceTruth> = {};
  for (const a of armies) {
    truth[a.id] = forceTruth(a);
    const mine: Record<string, Estimate> = {};
    for (const o of opponentsIn(state, record.armyIds, a.id)) mine[o.id] = estimateOpponent(a.id, contactDice[a.id]?.modified ?? 1, o, dice);
    estimates[a.id] = mine;
  }
  const terrain = reconnoitreTerrain(armies.map((a) => a.id), contactDice, dice);
  const decisions: Record<string, Decision> = {};
  for (const a of armies) if ((contactDice[a.id]?.modified ?? 1) <= 1) decisions[a.id] = 'engage';
  const next = withData(record, { scouts: scouting.scouts, contactDice, contactHour: hour, estimates, truth, terrain, decisions, stepAt: nowIndex(state) }, 'decision');
  const s = putContact(state, next);
  const facts: ContactFact[] = [...scouting.facts];
  for (const a of armies) {
    const die = contactDice[a.id];
    if (die) facts.push({ type: 'contactEstimated', audience: toArmy(a.id), data: { contactId: record.id, die, hour, estimates: estimates[a.id] ?? {} } });
    facts.push({ type: 'terrainDealt', audience: toArmy(a.id), data: { contactId: record.id, cards: terrain.filter((c) => c.armyId === a.id).map((c) => c.card), order: terrain.map((c) => c.armyId) } });
  }
  const ids = armies.map((a) => a.id);
  facts.push(
    { type: 'contactTruth', audience: REFEREE, data: { contactId: record.id, armyIds: ids, contactDice, truth, estimates, scouts: scouting.scouts, terrain, hour } },
    { type: 'contactPhaseRun', audience: PUBLIC, data: { contactId: record.id, armyIds: ids } },
  );
  return { state: s, facts };
}

/**
 * Step 1: every deployed scout rolls once on the scout table (at most SCOUT_LIMIT), and the
 * enemy's pickets tell of the captured. A scout costs no army points and the texts count no pool
 * of them: the army's deployment stands for its next contacts, whatever befell these scouts.
 * @see 000 Scouts Out; RULINGS 5
 */
function sendScouts(state: CampaignState, record: ContactRecord, armies: readonly Army[], dice: Dice): { scouts: Record<string, ScoutOutcome[]>; facts: ContactFact[] } {
  const scouts: Record<string, ScoutOutcome[]> = {};
  const facts: ContactFact[] = [];
  for (const a of armies) {
    const deployed = Math.min(a.scouts, SCOUT_LIMIT);
    if (deployed <= 0) continue;
    const rolled = Array.from({ length: deployed }, (_, i) => SCOUT_TABLE[dice.d6(`scout ${i + 1} of ${a.id}`) - 1] ?? 'unsuccessful');
    scouts[a.id] = rolled;
    facts.push({ type: 'scoutsReturned', audience: toArmy(a.id), data: { contactId: record.id, scouts: rolled } });
  }
  for (const a of armies) {
    const caught = opponentsIn(state, record.armyIds, a.id).filter((o) => (scouts[o.id] ?? []).includes('captured'));
    for (const o of caught) facts.push({ type: 'scoutCaptured', audience: toArmy(a.id), data: { contactId: record.id, from: o.id } });
  }
  return { scouts, facts };
}

/** Step 2: one contact die each, with the commander's modifiers. */
function rollContactDice(state: CampaignState, map: MapModel, record: ContactRecord, armies: readonly Army[], scouts: Readonly<Record<string, readonly ScoutOutcome[]>>, dice: Dice): Record<string, ContactDie> {
  const out: Record<string, ContactDie> = {};
  for (const a of armies) {
    const raw = dice.d6(`contact dice: ${a.id}`);
    const modifiers = contactModifiers(state, map, record, a, opponentsIn(state, record.armyIds, a.id), scouts);
    out[a.id] = { raw, modifiers, modified: raw + modifiers.reduce((n, m) => n + m.value, 0) };
  }
  return out;
}

/**
 * Step 4: terrain reconnaissance. Commanders rank by modified, then unmodified dice, then
 * roll-offs in rounds, compared round by round (those still tied roll again: "still a tie, dice
 * for it"); the winner draws first, as many cards as the spread of the unmodified dice.
 * @see 001 Terrain Reconnaissance
 */
function reconnoitreTerrain(ids: readonly string[], contactDice: Readonly<Record<string, ContactDie>>, dice: Dice): DealtCard[] {
  const tiebreak: Record<string, number[]> = {};
  const key = (id: string): number => (contactDice[id]?.modified ?? 0) * 10 + (contactDice[id]?.raw ?? 0);
  const rollOff = (x: string, y: string): number => {
    const a = tiebreak[x] ?? [];
    const b = tiebreak[y] ?? [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (b[i] ?? 0) - (a[i] ?? 0);
    return 0;
  };
  let tied = ids.filter((id) => ids.some((o) => o !== id && key(o) === key(id)));
  while (tied.length > 0) {
    for (const id of tied) tiebreak[id] = [...(tiebreak[id] ?? []), dice.d6(`terrain first draw roll-off: ${id}`)];
    const round = tied;
    tied = round.filter((id) => round.some((o) => o !== id && key(o) === key(id) && rollOff(o, id) === 0));
  }
  const ranked = [...ids].sort((x, y) => key(y) - key(x) || rollOff(x, y));
  const raws = Object.values(contactDice).map((d) => d.raw);
  const spread = raws.length > 0 ? Math.max(...raws) - Math.min(...raws) : 0;
  return withDefaultPlacement(dealTerrain(terrainDrawOrder(ranked, spread), dice));
}
