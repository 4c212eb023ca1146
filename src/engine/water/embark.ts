import { timeIndex } from '../clock/index.js';
import { echo, namesOf, PUBLIC, tell, toArmy } from '../events/index.js';
import { regimentFigures, type Army, type Regiment } from '../forces/index.js';
import { type Hex, neighbours } from '../hex/index.js';
import { isWater, type MapModel } from '../map/index.js';
import { spendAtOnce } from '../movement/index.js';
import { basePoints, movementProfile } from '../profiles/index.js';
import { fail, ok, type Result, type Violation } from '../result.js';
import type { CampaignState, FleetState, VesselCounts, VesselKind } from '../state/index.js';
import { awaitedRegiments } from './debark.js';
import { sailOrder } from './fleet.js';
import { riverNavigable } from './navigation.js';
import { describeWater } from './describeWater.js';
import { describeVessels, fleetCapacity, kindsOf, VESSELS } from './vessels.js';
import type { FleetFact, LandingNote, WaterEvent } from './waterEvents.js';

/** What a set of vessels can take aboard. */
export interface LoadPlan {
  readonly capacity: number;
  /** Regiments taken, whole, in the army's order. */
  readonly aboard: readonly { readonly id: string; readonly name: string; readonly figures: number }[];
  /** Regiments that do not fit and stay ashore (they follow by shuttle). */
  readonly ashore: readonly { readonly id: string; readonly name: string; readonly figures: number }[];
  readonly figuresAboard: number;
  /** Galleys aboard and galleys an effective escort needs (one per regiment transported). */
  readonly galleys: number;
  readonly escortNeeded: number;
  /** The capacity arithmetic, in words. */
  readonly arithmetic: string;
}

function arithmeticOf(v: VesselCounts): string {
  const parts = kindsOf(v).map((k) => `${v[k]} ${VESSELS[k].name}${v[k] === 1 ? '' : 's'} x ${VESSELS[k].capacity}`);
  return `${parts.join(' + ')} = ${fleetCapacity(v)} figure(s)`;
}

/**
 * Which regiments these vessels carry. An army embarks whole regiments, never smaller units, so
 * the vessels must hold at least one regiment; regiments are taken in the army's order, each one
 * that still fits. Individuals (leaders, heroes, wizards, couriers) ride free. Galleys carry no
 * troops; one galley per regiment transported makes an effective escort.
 * @see 000 Waterborne Transport: Transporting Figures; 000 Waterborne Vessels: Galley
 */
export function planLoad(army: Army, vessels: VesselCounts): Result<LoadPlan> {
  const capacity = fleetCapacity(vessels);
  const regs = army.regiments.map((r: Regiment) => ({ id: r.id, name: r.name, figures: regimentFigures(r) })).filter((r) => r.figures > 0);
  const aboard: LoadPlan['aboard'][number][] = [];
  const ashore: LoadPlan['ashore'][number][] = [];
  let left = capacity;
  for (const r of regs) {
    if (r.figures <= left) {
      aboard.push(r);
      left -= r.figures;
    } else ashore.push(r);
  }
  const arithmetic = arithmeticOf(vessels);
  if (regs.length > 0 && aboard.length === 0) {
    const smallest = regs.reduce((a, b) => (b.figures < a.figures ? b : a));
    const needs = (['troopTransport', 'longship', 'sailingShip', 'riverBoat'] as const)
      .filter((k) => (army.vessels[k] ?? 0) > 0)
      .map((k) => `${Math.ceil(smallest.figures / VESSELS[k].capacity)} ${VESSELS[k].name}s`);
    return fail('embark.notEnoughCapacity', `Not enough room: ${arithmetic}, but an army embarks whole regiments and the smallest, ${smallest.name}, has ${smallest.figures} figures.${needs.length > 0 ? ` It needs ${needs.join(' or ')}.` : ''}`, { capacity, smallest: smallest.figures });
  }
  // Regiments left ashore follow by shuttle, each trip carrying whole regiments: one larger than
  // the whole fleet could never follow.
  const stranded = ashore.filter((r) => r.figures > capacity);
  if (stranded.length > 0) {
    const names = stranded.map((r) => `${r.name} (${r.figures} figures)`).join(', ');
    return fail('embark.regimentTooLarge', `Not enough room: ${arithmetic}, and ${names} could never follow by shuttle: each trip carries whole regiments only. Name enough vessels for the largest regiment.`, { capacity, largest: Math.max(...stranded.map((r) => r.figures)) });
  }
  const galleys = vessels.galley ?? 0;
  const figuresAboard = aboard.reduce((n, r) => n + r.figures, 0);
  return ok({ capacity, aboard, ashore, figuresAboard, galleys, escortNeeded: aboard.length, arithmetic });
}

/** Where an army standing at `at` may board each kind of vessel. */
export function boardingViolation(map: MapModel, kinds: readonly VesselKind[], at: Hex): string | undefined {
  const id = map.format(at);
  const port = map.portAt(at) !== undefined;
  const river = map.riverAt(at);
  const beach = neighbours(at).some((n) => map.terrainAt(n) === 'coast' && (!map.isMudflat(n) || map.hasChannel(n)));
  for (const k of kinds) {
    const v = VESSELS[k];
    // Navigable means the canal's span too: boats use it only between its cataracts (RULINGS 1).
    const onRiver = v.rivers && river !== undefined && riverNavigable(map, at).ok;
    if (onRiver) continue;
    if (!v.seagoing) return `${v.name}s board only on a navigable river; ${id} has none`;
    if (port) continue;
    if (v.landing === 'portOnly') return `troop transports dock only at a port; ${id} is not one${map.data.ports.length > 0 ? ` (ports: ${map.data.ports.map((p) => `${p.name} ${p.hex}`).join(', ')})` : ''}`;
    if (!beach) return `${v.name}s need a port or a beach: ${id} touches no coast hex a vessel can reach`;
  }
  return undefined;
}

export interface EmbarkInput {
  readonly armyId: string;
  readonly vessels: VesselCounts;
  readonly givenBy: string;
  /** Advanced embarkation and debarkation (campaign setting). */
  readonly advanced: boolean;
}

export interface EmbarkOutcome {
  readonly state: CampaignState;
  readonly events: readonly WaterEvent[];
  readonly load: LoadPlan;
  readonly fleet: FleetState;
  /** Share of the day's points left for the voyage (1, 0.75, 0.5, 0.25). */
  readonly dayShare: number;
}

/**
 * Boards an army:
 * 1. it may embark now (not destroyed, ashore, out of contact, not committed to a crossing, not
 *    waiting for its own shuttle);
 * 2. the vessels it names, it owns;
 * 3. where it stands suits them (a port for every seagoing vessel; a beach for longships and
 *    galleys, sailing ships lying offshore; a navigable river for river boats and longships);
 * 4. they carry whole regiments (planLoad);
 * 5. the army is embarked at once: it leaves the map's land movement and its standing order
 *    becomes a sail order at anchor.
 * Embarking partway through a day leaves the rest of the day for the voyage: the fleet sails the
 * half periods that remain, so its points for the day fall by 25 % (afternoon), 50 % (evening).
 * Advanced rule: at a port the fleet waits six hours for the tide (one half period); elsewhere the
 * army pays half its daily points.
 * @see 000 Waterborne Transport; 000 Advanced: Embarkation and Debarkation
 */
export function embark(state: CampaignState, map: MapModel, input: EmbarkInput): Result<EmbarkOutcome> {
  const army = state.armies[input.armyId];
  if (!army) return fail('embark.unknownArmy', `There is no army ${echo(input.armyId)}.`);
  const busy = cannotEmbark(state, map, army);
  if (busy) return { ok: false, violation: busy };
  const kinds = kindsOf(input.vessels);
  if (kinds.length === 0) return fail('embark.noVessels', 'Name at least one vessel, e.g. `vessels:"troopTransport=9,galley=1"`.');
  const short = kinds.filter((k) => (input.vessels[k] ?? 0) > (army.vessels[k] ?? 0));
  if (short.length > 0) {
    return fail('embark.notOwned', `${army.name} owns ${describeVessels(army.vessels)}; it cannot embark on ${short.map((k) => `${input.vessels[k]} ${VESSELS[k].name}s`).join(', ')}.`, { owned: army.vessels });
  }
  if (isWater(map.terrainAt(army.hex))) return fail('embark.onWater', `${army.name} stands on water at ${map.format(army.hex)}.`);
  const where = boardingViolation(map, kinds, army.hex);
  if (where) return fail('embark.wrongPlace', `Cannot embark at ${map.format(army.hex)}: ${where}.`, { hex: map.format(army.hex) });
  const loadR = planLoad(army, input.vessels);
  if (!loadR.ok) return loadR;
  return ok(board(state, map, army, input, loadR.value));
}

/** Step 1: why the army cannot embark now, or undefined. */
function cannotEmbark(state: CampaignState, map: MapModel, army: Army): Violation | undefined {
  if (army.status.destroyed) return { code: 'embark.destroyed', message: `${army.name} is destroyed.` };
  if (army.status.embarked) return { code: 'embark.alreadyEmbarked', message: `${army.name} is already embarked. Use /sail to move the fleet or /debark to land.` };
  if (army.status.inBattle || army.status.inContact) return { code: 'embark.inContact', message: `${army.name} is in contact with the enemy; it cannot embark until the contact is resolved.` };
  // A multi-day crossing binds the army until it is across (docs/rulings.md, Rivers).
  const op = army.march.operation;
  if (op) return { code: 'embark.committed', message: `${army.name} is committed to a ${op.kind === 'ferry' ? 'ferry' : 'raft'} crossing at ${map.format(op.hex)}; it can embark once across.` };
  // Its standing 'debark' order holds the regiments still coming by shuttle.
  if (awaitedRegiments(state, army.id)) return { code: 'embark.awaitingRegiments', message: `${army.name} waits at its landing place for regiments still at sea; it can embark once they are all ashore.` };
  return undefined;
}

/** Step 5: the army aboard, its fleet at anchor in a sail order, and what is told. */
function board(state: CampaignState, map: MapModel, army: Army, input: EmbarkInput, load: LoadPlan): EmbarkOutcome {
  const kinds = kindsOf(input.vessels);
  const port = map.portAt(army.hex);
  const atPort = port !== undefined;
  const hex = map.format(army.hex);
  const fleet: FleetState = {
    vessels: input.vessels,
    regiments: load.aboard.map((r) => r.id),
    ashore: load.ashore.map((r) => r.id),
    embarkedFrom: hex,
    embarkedAt: timeIndex(state.clock),
    escortLost: false,
    carry: 0,
    carryDay: state.clock.day,
    waitHalves: input.advanced && atPort && kinds.some((k) => VESSELS[k].seagoing) ? 1 : 0,
    sighted: [],
  };
  let a: Army = { ...army, status: { ...army.status, embarked: true } };
  const notes: LandingNote[] = [];
  if (input.advanced && !atPort) {
    const cost = Math.ceil(basePoints(army, movementProfile(state.settings)) / 2);
    // Points spent count the half period as movement in the rest books, whatever spent them (RULINGS 4).
    a = spendAtOnce(a, cost, state.clock);
    notes.push({ kind: 'embarkCost', points: cost });
  }
  if (fleet.waitHalves > 0) notes.push({ kind: 'tide' });
  const order = sailOrder(a.id, fleet, [], input.givenBy, state.clock);
  const next: CampaignState = { ...state, armies: { ...state.armies, [a.id]: a }, orders: { ...state.orders, [a.id]: order } };
  const facts: FleetFact[] = [
    { type: 'armyEmbarked', audience: PUBLIC, data: { armyId: a.id, hex, ...(port ? { port } : {}) } },
    { type: 'armyEmbarked', audience: toArmy(a.id), data: { armyId: a.id, hex, vessels: input.vessels, aboard: load.aboard, ashore: load.ashore, notes } },
  ];
  return { state: next, events: tell(facts, describeWater, namesOf(state.armies)), load, fleet, dayShare: (4 - state.clock.half) / 4 };
}
