import type { FleetFact, FleetNote, WaterEvent } from './waterEvents.js';
import { fromIndex, halfPeriodName, timeIndex } from '../clock/index.js';
import { namesOf, PUBLIC, REFEREE, tell, toArmy } from '../events/index.js';
import { isHostile, type Army } from '../forces/index.js';
import { hexKey, neighbours } from '../hex/index.js';
import type { MapModel } from '../map/index.js';
import { type CampaignState, type DebarkOrder, getArmy, type Order, type SailOrder, type TickStep, type WeatherEffects } from '../state/index.js';
import { describeWater } from './describeWater.js';
import { crewedFleet, fleetOf, sailOrder } from './fleet.js';
import { isOpenSea } from './navigation.js';
import { advanceFleet, occupancy, type FleetStop } from './sail.js';

/** Why a fleet waits, for its commander; nothing when it simply ran out of points or arrived. */
function stopNote(stop: FleetStop, map: MapModel): FleetNote | undefined {
  switch (stop.kind) {
    case 'done':
    case 'points':
      return undefined;
    case 'tide':
    case 'night':
    case 'calm':
    case 'gale':
      return { kind: stop.kind };
    case 'portClosed':
      return { kind: 'portClosed', hex: map.format(stop.hex) };
    case 'occupied':
      return { kind: 'occupied', hex: map.format(stop.hex), by: stop.by };
    case 'illegal':
      return { kind: 'cancelled', violation: stop.violation };
  }
}

/**
 * The ships' step of a tick (closeHalf, after the movement step):
 * 1. regiments shuttled to a port of debarkation land when their time comes; the army may march
 *    once all have arrived;
 * 2. every embarked army with a sail order moves along it for this half period (advanceFleet),
 *    in army-id order; fleets hold hexes like any commander (one commander per hex);
 * 3. troops who crew their vessels (longships, river boats, sailing ships) worked this half
 *    period: it is logged as movement, not rest. Troops aboard troop transports rest, so a full
 *    day in transport is a day of rest (the movement step logs them as resting);
 * 4. fleets in sight of hostile forces are reported publicly (who and where), once per meeting;
 *    nothing is fought at sea: the referee decides. Ships in open sea are out of sight of land.
 * Must run after the movement step, whose rest log it corrects for crews.
 * @see 000 Waterborne Transport; 000 Open Sea; RULINGS 3 (one commander per hex), 4 (rest)
 */
export const fleetStep: TickStep<WaterEvent> = ({ state, map, weather }) => {
  // No ships: no regiment shuttled ashore, no fleet under way or in sight. The state as it was,
  // without copying every army and order (a tick of 800 armies on land).
  if (!Object.values(state.orders).some((o) => o.kind === 'debark') && !Object.values(state.armies).some((a) => a.status.embarked && !a.status.destroyed)) {
    return { state, events: [] };
  }
  const facts: FleetFact[] = [];
  const armies: Record<string, Army> = { ...state.armies };
  const orders: Record<string, Order> = { ...state.orders };
  // 1. Shuttled regiments.
  for (const [id, o] of Object.entries(state.orders).sort(([x], [y]) => (x < y ? -1 : 1))) {
    if (o.kind !== 'debark') continue;
    const landed = landShuttled(state, o);
    if (!landed) continue;
    if (landed.order) orders[id] = landed.order;
    else delete orders[id];
    facts.push(...landed.facts);
  }
  // 2, 3. Fleets under way.
  const occ = occupancy(state);
  for (const [id, a] of Object.entries(state.armies).sort(([x], [y]) => (x < y ? -1 : 1))) {
    const order = orders[id];
    if (!a.status.embarked || a.status.destroyed || order?.kind !== 'sail') continue;
    const sailed = sailHalf(state, map, weather, a, order, occ);
    orders[id] = sailed.order;
    armies[id] = sailed.army;
    facts.push(...sailed.facts);
  }
  // 4. Sightings at sea.
  const sightings = sightFleets({ ...state, armies, orders }, map);
  return { state: sightings.state, events: tell([...facts, ...sightings.facts], describeWater, namesOf(state.armies)) };
};

/** Step 1: the shuttled regiments whose time has come land; undefined when none lands now. */
function landShuttled(state: CampaignState, o: DebarkOrder): { order: DebarkOrder | undefined; facts: FleetFact[] } | undefined {
  const now = timeIndex(state.clock);
  const asm = o.assembly;
  const landed = asm.batches.filter((b) => b.arrivesAt <= now);
  if (landed.length === 0) return undefined;
  const rest = asm.batches.filter((b) => b.arrivesAt > now);
  const a = getArmy(state, o.armyId);
  const regiments = landed.flatMap((b) => b.regiments).map((rid) => a.regiments.find((r) => r.id === rid)?.name ?? rid);
  const last = rest[rest.length - 1];
  if (!last) {
    return {
      order: undefined,
      facts: [
        { type: 'armyAssembled', audience: PUBLIC, data: { armyId: a.id, port: asm.port } },
        { type: 'regimentsLanded', audience: toArmy(a.id), data: { armyId: a.id, port: asm.port, regiments, assembled: true } },
      ],
    };
  }
  return {
    order: { ...o, assembly: { ...asm, batches: rest } },
    facts: [{ type: 'regimentsLanded', audience: toArmy(a.id), data: { armyId: a.id, port: asm.port, regiments, assembled: false, tripsLeft: rest.length, lastArrives: fromIndex(last.arrivesAt) } }],
  };
}

/** Steps 2 and 3 for one fleet: it sails its half period; its crew worked if it moved. */
function sailHalf(state: CampaignState, map: MapModel, weather: WeatherEffects, a: Army, order: SailOrder, occ: Map<string, string>): { order: SailOrder; army: Army; facts: FleetFact[] } {
  const fleet = order.fleet;
  if (order.path.length === 0) {
    // At anchor without a voyage, the wait for the tide (advanced embarkation) runs out all the same.
    const waited = fleet.waitHalves > 0 ? sailOrder(a.id, { ...fleet, waitHalves: fleet.waitHalves - 1 }, order.path, order.givenBy, order.givenAt) : order;
    return { order: waited, army: a, facts: [] };
  }
  const out = advanceFleet(map, a, fleet, order.path, state.clock, weather, occ);
  const facts: FleetFact[] = [];
  let moved: Army = { ...a, hex: out.hex };
  if (out.entered.length > 0) {
    occ.delete(hexKey(a.hex));
    occ.set(hexKey(out.hex), a.id);
    if (crewedFleet(fleet.vessels)) moved = crewWorked(moved);
    facts.push({ type: 'fleetSailed', audience: PUBLIC, data: { armyId: a.id, from: map.format(a.hex), to: map.format(out.hex), path: out.entered.map((e) => map.format(e.hex)) } });
  }
  const keep = out.stop.kind !== 'illegal';
  const newPath = keep ? out.path : [];
  const notes: FleetNote[] = [];
  const note = stopNote(out.stop, map);
  if (note) notes.push(note);
  if (out.fleet.escortLost && !fleet.escortLost) notes.push({ kind: 'escortLost' });
  if (out.entered.length > 0 || notes.length > 0) {
    facts.push({ type: 'fleetOutcome', audience: toArmy(a.id), data: { armyId: a.id, half: halfPeriodName(state.clock), hex: map.format(out.hex), sailed: out.entered.length > 0, arrived: newPath.length === 0 && keep, notes } });
  }
  return { order: sailOrder(a.id, out.fleet, newPath, order.givenBy, order.givenAt), army: moved, facts };
}

/** The crew rowed or sailed this half period: the last entry of the rest log becomes movement. */
function crewWorked(a: Army): Army {
  const log = a.march.recentHalves;
  const fixed = log[log.length - 1] === 'rested' ? [...log.slice(0, -1), 'moved' as const] : log;
  return { ...a, march: { ...a.march, recentHalves: fixed, movedToday: true } };
}

/**
 * Fleets in sight of hostile commanders (adjacent hexes): reported publicly, once per meeting.
 * A fleet beyond coastal waters is seen only by other ships.
 * @see 000 Open Sea
 */
function sightFleets(state: CampaignState, map: MapModel): { state: CampaignState; facts: FleetFact[] } {
  const facts: FleetFact[] = [];
  const orders: Record<string, Order> = { ...state.orders };
  const at = new Map<string, Army>();
  for (const a of Object.values(state.armies)) if (!a.status.destroyed) at.set(hexKey(a.hex), a);
  for (const [id, a] of Object.entries(state.armies).sort(([x], [y]) => (x < y ? -1 : 1))) {
    if (!a.status.embarked || a.status.destroyed) continue;
    const fleet = fleetOf({ ...state, orders }, id);
    const order = orders[id];
    if (!fleet) continue;
    const seen = inSight(state, map, a, at);
    for (const other of seen.filter((b) => !fleet.sighted.includes(b.id))) {
      // Report each pair once: a fleet meeting a fleet is told by the lower id.
      if (other.status.embarked && other.id < id) continue;
      const armyIds = [id, other.id] as const;
      const hexes = [map.format(a.hex), map.format(other.hex)] as const;
      facts.push(
        { type: 'fleetSighted', audience: PUBLIC, data: { armyIds, hexes, otherAfloat: other.status.embarked } },
        { type: 'fleetSighted', audience: REFEREE, data: { armyIds, hexes, vessels: fleet.vessels } },
      );
    }
    const ids = seen.map((b) => b.id);
    if (order?.kind === 'sail' && ids.join() !== fleet.sighted.join()) orders[id] = { ...order, fleet: { ...fleet, sighted: ids } };
  }
  return { state: { ...state, orders }, facts };
}

/** The hostile commanders in sight of a fleet: next to it, and not out of sight beyond coastal waters. */
function inSight(state: CampaignState, map: MapModel, a: Army, at: ReadonlyMap<string, Army>): Army[] {
  const far = isOpenSea(map, a.hex);
  return neighbours(a.hex).flatMap((n) => {
    const b = at.get(hexKey(n));
    if (!b || !isHostile(state.sides, a.side, b.side)) return [];
    if (far && !b.status.embarked) return [];
    if (!b.status.embarked && isOpenSea(map, n)) return [];
    return [b];
  });
}
