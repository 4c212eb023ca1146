import { fromIndex, timeIndex } from '../clock/index.js';
import { namesOf, PUBLIC, tell, toArmy } from '../events/index.js';
import { regimentFigures, type Army } from '../forces/index.js';
import { hexEquals, type Hex, directionTo, isAdjacent } from '../hex/index.js';
import { bankOfEdge, isWater, type Bank, type MapModel } from '../map/index.js';
import { fail, ok, type Result } from '../result.js';
import { basePoints, movementProfile } from '../profiles/index.js';
import type { Assembly, AwaitedBatch, CampaignState, FleetState, Order, WeatherEffects } from '../state/index.js';
import { spendAtOnce } from '../movement/index.js';
import { describeWater } from './describeWater.js';
import { fleetOf } from './fleet.js';
import { riverNavigable } from './navigation.js';
import { fleetCapacity, kindsOf, VESSELS } from './vessels.js';
import type { FleetFact, LandingNote, WaterEvent } from './waterEvents.js';

/** The regiments an army still awaits at its port of debarkation (it may not march until they are all there). */
export function awaitedRegiments(state: CampaignState, armyId: string): Assembly | undefined {
  const o = state.orders[armyId];
  if (o?.kind !== 'debark') return undefined;
  return o.assembly.batches.length > 0 ? o.assembly : undefined;
}

export interface DebarkInput {
  readonly armyId: string;
  readonly hex: Hex;
  readonly bank?: Bank;
  readonly givenBy: string;
  readonly advanced: boolean;
}

export interface DebarkOutcome {
  readonly state: CampaignState;
  readonly events: readonly WaterEvent[];
  readonly assembly?: Assembly;
  readonly cost: number;
}

/**
 * Puts an embarked army ashore at `hex`.
 * 1. Where it may land:
 *    - at a port (the fleet docked in the port hex): in the port, or the commander steps one hex
 *      off it to make way for others;
 *    - on a coast hex: longships and galleys beach, sailing ships anchor offshore and land the
 *      troops by rowboat, onto a neighbouring land hex. Troop transports need a port, except in
 *      a gale, when any ship on a coast hex may beach;
 *    - on a river: river boats and longships beach on either bank of the river hex.
 * 2. The bank it lands on: landing from a neighbouring hex puts it on the bank that faces it.
 * 3. Advanced rule: debarking at a port takes three hours (the army loses a quarter of its daily
 *    points); elsewhere it costs half the army's daily points.
 * 4. Regiments left behind at embarkation follow by shuttle: the vessels go back and forth, each
 *    round trip taking twice the voyage's half periods; the army does not march until all have
 *    arrived (a 'debark' order with the assembly stands until then).
 * @see 000 Waterborne Transport: Debarkation; 000 Coastal Waters; 000 Gale; 000 Advanced: Embarkation and Debarkation
 */
export function debark(state: CampaignState, map: MapModel, input: DebarkInput, weather: WeatherEffects): Result<DebarkOutcome> {
  const army = state.armies[input.armyId];
  const fleet = fleetOf(state, input.armyId);
  if (!army || !fleet) return fail('debark.notEmbarked', `${army?.name ?? input.armyId} is not embarked.`);
  const target = input.hex;
  if (!map.inBounds(target)) return fail('debark.offMap', 'That hex is off the map.');
  const id = map.format(target);
  if (isWater(map.terrainAt(target))) return fail('debark.water', `${id} is water: land on a land hex next to the fleet.`);
  const holder = Object.values(state.armies).find((a) => a.id !== army.id && !a.status.destroyed && hexEquals(a.hex, target));
  if (holder) return fail('debark.occupied', `${id} is held by ${holder.commander || holder.name}: one commander per hex.`);
  const place = landingPlace(map, army, fleet, target, weather);
  if (!place.ok) return place;
  const bank = landingBank(map, army, target, input.bank);
  if (!bank.ok) return bank;
  return ok(land(state, map, army, fleet, input, { atPort: place.value.atPort, bank: bank.value }));
}

/** Step 1: whether the fleet can put the army ashore at the target from where it lies; at a port or not. */
function landingPlace(map: MapModel, army: Army, fleet: FleetState, target: Hex, weather: WeatherEffects): Result<{ atPort: boolean }> {
  const at = army.hex;
  const id = map.format(target);
  const here = map.format(at);
  const kinds = kindsOf(fleet.vessels);
  const tHere = map.terrainAt(at);
  if (!isWater(tHere)) {
    // Docked at a port, in a river hex, or still where the army embarked: in the port, on either
    // bank of the river, or back where it embarked.
    const atPort = map.portAt(at) !== undefined;
    if (hexEquals(target, at) || (atPort && isAdjacent(at, target))) return ok({ atPort });
    const onRiver = map.riverAt(at) !== undefined && kinds.every((k) => VESSELS[k].rivers) && riverNavigable(map, at).ok;
    return fail('debark.tooFar', atPort
      ? `From the port at ${here} the army lands in the port or the commander steps one hex off it; ${id} is farther.`
      : `The fleet lies at ${here}${onRiver ? ' on the river: land on either bank of that hex' : ''}; land at ${here}.`);
  }
  if (!isAdjacent(at, target)) return fail('debark.tooFar', `${id} is not next to the fleet at ${here}.`);
  if (tHere !== 'coast') return fail('debark.atSea', `The fleet is at sea (${here}); it can land troops only from a coast hex.`);
  const portOnly = kinds.filter((k) => VESSELS[k].landing === 'portOnly');
  if (portOnly.length > 0 && !weather.shipsHalted) return fail('debark.needsPort', `Troop transports need a port to dock; sail into one${map.data.ports.length > 0 ? ` (${map.data.ports.map((p) => `${p.name} ${p.hex}`).join(', ')})` : ''}. In a gale any ship on a coast hex may beach.`);
  return ok({ atPort: false });
}

/**
 * Step 2: the bank of a river hex the army lands on. Landing from a neighbouring hex (a coast hex,
 * or stepping off the port) puts it on the bank that faces it; only boats in the river hex itself
 * land on either bank (the left unless asked). Undefined away from rivers.
 */
function landingBank(map: MapModel, army: Army, target: Hex, asked: Bank | undefined): Result<Bank | undefined> {
  const river = map.riverAt(target);
  const edge = hexEquals(target, army.hex) ? undefined : directionTo(target, army.hex);
  const facing = river && edge ? bankOfEdge(river, edge) : undefined;
  const sided = facing === 'left' || facing === 'right' ? facing : undefined;
  if (sided && asked !== undefined && asked !== sided) {
    return fail('debark.wrongBank', `Landing at ${map.format(target)} from ${map.format(army.hex)} puts the army on the ${sided} bank; the ${asked} bank is across the river.`);
  }
  return ok(river ? sided ?? asked ?? 'left' : undefined);
}

/** Steps 3 and 4: the army ashore, what the advanced rule costs, the shuttle it waits for, and what is told. */
function land(state: CampaignState, map: MapModel, army: Army, fleet: FleetState, input: DebarkInput, where: { atPort: boolean; bank: Bank | undefined }): DebarkOutcome {
  const id = map.format(input.hex);
  const { bank: _bank, ...ashore } = army;
  let a: Army = { ...ashore, hex: input.hex, ...(where.bank ? { bank: where.bank } : {}), status: { ...army.status, embarked: false } };
  const cost = input.advanced ? Math.ceil(basePoints(army, movementProfile(state.settings)) / (where.atPort ? 4 : 2)) : 0;
  // Points spent count the half period as movement in the rest books, whatever spent them (RULINGS 4).
  if (cost > 0) a = spendAtOnce(a, cost, state.clock);
  const orders: Record<string, Order> = { ...state.orders };
  delete orders[a.id];
  const assembly = shuttle(state, army, fleet);
  if (assembly) orders[a.id] = { armyId: a.id, kind: 'debark', givenBy: input.givenBy, givenAt: state.clock, assembly: { ...assembly, port: id } };
  const notes: LandingNote[] = [];
  if (cost > 0) notes.push({ kind: 'debarkCost', points: cost });
  if (fleet.escortLost) notes.push({ kind: 'escortRejoins' });
  const last = assembly?.batches[assembly.batches.length - 1];
  if (last) notes.push({ kind: 'awaiting', lastArrives: fromIndex(last.arrivesAt) });
  const port = map.portAt(input.hex);
  const facts: FleetFact[] = [
    { type: 'armyDebarked', audience: PUBLIC, data: { armyId: a.id, hex: id, ...(port !== undefined && port !== id ? { port } : {}) } },
    { type: 'armyDebarked', audience: toArmy(a.id), data: { armyId: a.id, hex: id, notes } },
  ];
  const next: CampaignState = { ...state, armies: { ...state.armies, [a.id]: a }, orders };
  return { state: next, events: tell(facts, describeWater, namesOf(state.armies)), ...(assembly ? { assembly } : {}), cost };
}

/** Batches of the regiments left ashore: each round trip takes twice the voyage. */
function shuttle(state: CampaignState, army: Army, fleet: FleetState): Assembly | undefined {
  if (fleet.ashore.length === 0) return undefined;
  const now = timeIndex(state.clock);
  const voyage = Math.max(1, now - fleet.embarkedAt);
  const cap = fleetCapacity(fleet.vessels);
  const batches: AwaitedBatch[] = [];
  let current: string[] = [];
  let left = cap;
  for (const rid of fleet.ashore) {
    const reg = army.regiments.find((r) => r.id === rid);
    const n = reg ? regimentFigures(reg) : 0;
    if (n > left && current.length > 0) {
      batches.push({ regiments: current, arrivesAt: now + 2 * voyage * (batches.length + 1) });
      current = [];
      left = cap;
    }
    current.push(rid);
    left -= n;
  }
  if (current.length > 0) batches.push({ regiments: current, arrivesAt: now + 2 * voyage * (batches.length + 1) });
  return { port: '', batches };
}

