import { formatGameTime, fromIndex, halfPeriodName, timeIndex } from '../clock/gameTime.js';
import { event, PUBLIC, REFEREE, toArmy, type EngineEvent } from '../events/events.js';
import { isHostile, type Army } from '../forces/army.js';
import { hexKey } from '../hex/hexId.js';
import { neighbours } from '../hex/neighbours.js';
import type { MapModel } from '../map/mapModel.js';
import type { CampaignState, Order } from '../state/campaign.js';
import type { TickStep } from '../tick/step.js';
import { crewedFleet, fleetOf, sailOrder, type FleetState } from './fleet.js';
import { isOpenSea } from './navigation.js';
import { advanceFleet, occupancy, type FleetStop } from './sail.js';
import { VESSELS, kindsOf } from './vessels.js';

const who = (a: Army): string => a.commander || a.name;

function stopNote(stop: FleetStop, map: MapModel, state: CampaignState): string | undefined {
  switch (stop.kind) {
    case 'done':
    case 'points':
      return undefined;
    case 'tide':
      return 'waiting for the tide (advanced embarkation)';
    case 'night':
      return 'rowed vessels do not move at night';
    case 'calm':
      return 'becalmed: sailed vessels cannot move';
    case 'gale':
      return 'riding out a gale at anchor (a ship on a coast hex may beach with /debark)';
    case 'portClosed':
      return `the port at ${map.format(stop.hex)} is closed to seagoing ships (fog or high winds); waiting`;
    case 'occupied':
      return `${map.format(stop.hex)} is held by ${who(state.armies[stop.by] as Army)}; waiting (one commander per hex)`;
    case 'illegal':
      return `order cancelled: ${stop.message}`;
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
export const fleetStep: TickStep = ({ state, map, weather }) => {
  const events: EngineEvent[] = [];
  const armies: Record<string, Army> = { ...state.armies };
  const orders: Record<string, Order> = { ...state.orders };
  const now = timeIndex(state.clock);
  const half = halfPeriodName(state.clock);

  // 1. Shuttled regiments.
  for (const id of Object.keys(orders).sort()) {
    const o = orders[id];
    if (o?.kind !== 'debark') continue;
    const asm = o.assembly;
    const landed = asm.batches.filter((b) => b.arrivesAt <= now);
    if (landed.length === 0) continue;
    const rest = asm.batches.filter((b) => b.arrivesAt > now);
    const a = armies[id] as Army;
    const names = landed.flatMap((b) => b.regiments).map((rid) => a.regiments.find((r) => r.id === rid)?.name ?? rid);
    if (rest.length === 0) {
      delete orders[id];
      events.push(event('armyAssembled', PUBLIC, `${who(a)}'s army has assembled at ${asm.port}.`, { armyId: id }));
      events.push(event('regimentsLanded', toArmy(id), `${names.join(', ')} landed at ${asm.port}: the army is assembled and may march.`, { armyId: id }));
    } else {
      orders[id] = { ...o, assembly: { ...asm, batches: rest } };
      events.push(event('regimentsLanded', toArmy(id), `${names.join(', ')} landed at ${asm.port}; still awaited: ${rest.length} more shuttle trip(s), the last ${formatGameTime(fromIndex((rest[rest.length - 1] as { arrivesAt: number }).arrivesAt))}.`, { armyId: id }));
    }
  }

  // 2. Fleets under way.
  const occ = occupancy(state);
  for (const id of Object.keys(armies).sort()) {
    const a = armies[id] as Army;
    if (!a.status.embarked || a.status.destroyed) continue;
    const order = orders[id];
    if (!order || order.kind !== 'sail') continue;
    const fleet = fleetOf({ ...state, orders }, id) as FleetState;
    if (order.path.length === 0) {
      // At anchor without a voyage, the wait for the tide (advanced embarkation) runs out all the same.
      if (fleet.waitHalves > 0) orders[id] = sailOrder(id, { ...fleet, waitHalves: fleet.waitHalves - 1 }, order.path, order.givenBy, order.givenAt);
      continue;
    }
    const out = advanceFleet(map, a, fleet, order.path, state.clock, weather, occ);
    const from = a.hex;
    let moved: Army = { ...a, hex: out.hex };
    if (out.entered.length > 0) {
      occ.delete(hexKey(from));
      occ.set(hexKey(out.hex), id);
      if (crewedFleet(fleet.vessels)) moved = crewWorked(moved);
      const via = out.entered.map((e) => map.format(e.hex));
      events.push(event('fleetSailed', PUBLIC, `${who(a)}'s fleet sailed from ${map.format(from)} to ${map.format(out.hex)}${via.length > 1 ? ` (by ${via.slice(0, -1).join(', ')})` : ''}.`, { armyId: id, from: map.format(from), to: map.format(out.hex), path: via }));
    }
    const lostNow = out.fleet.escortLost && !fleet.escortLost;
    const keep = out.stop.kind !== 'illegal';
    const newPath = keep ? out.path : [];
    orders[id] = sailOrder(id, out.fleet, newPath, order.givenBy, order.givenAt);
    armies[id] = moved;
    const notes: string[] = [];
    const note = stopNote(out.stop, map, state);
    if (note) notes.push(note);
    if (lostNow) notes.push('the fleet is in open sea: the galley escort cannot follow and is lost for this voyage');
    if (out.entered.length > 0 || notes.length > 0) {
      const arrived = newPath.length === 0 && keep;
      const text = out.entered.length > 0
        ? `${cap(half)}: the fleet sailed to ${map.format(out.hex)}${arrived ? ' and has arrived: land with /debark' : ''}.`
        : `${cap(half)}: the fleet stays at ${map.format(out.hex)}.`;
      events.push(event('fleetOutcome', toArmy(id), `${text}${notes.length > 0 ? ` ${cap(notes.join('; '))}.` : ''}`, { armyId: id, hex: map.format(out.hex), stop: out.stop.kind }));
    }
  }

  // 4. Sightings at sea.
  const s1: CampaignState = { ...state, armies, orders };
  const sightings = sightFleets(s1, map);
  return { state: sightings.state, events: [...events, ...sightings.events] };
};

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
export function sightFleets(state: CampaignState, map: MapModel): { state: CampaignState; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  const orders: Record<string, Order> = { ...state.orders };
  const at = new Map<string, Army>();
  for (const a of Object.values(state.armies)) if (!a.status.destroyed) at.set(hexKey(a.hex), a);
  for (const id of Object.keys(state.armies).sort()) {
    const a = state.armies[id] as Army;
    if (!a.status.embarked || a.status.destroyed) continue;
    const fleet = fleetOf({ ...state, orders }, id);
    const order = orders[id];
    if (!fleet) continue;
    const far = isOpenSea(map, a.hex);
    const seen: string[] = [];
    for (const n of neighbours(a.hex)) {
      const b = at.get(hexKey(n));
      if (!b || !isHostile(state.sides, a.side, b.side)) continue;
      if (far && !b.status.embarked) continue;
      if (!b.status.embarked && isOpenSea(map, n)) continue;
      seen.push(b.id);
    }
    const fresh = seen.filter((b) => !fleet.sighted.includes(b));
    for (const b of fresh) {
      const other = state.armies[b] as Army;
      // Report each pair once: a fleet meeting a fleet is told by the lower id.
      if (other.status.embarked && other.id < id) continue;
      events.push(event('fleetSighted', PUBLIC, `${who(a)}'s fleet at ${map.format(a.hex)} and ${who(other)}${other.status.embarked ? "'s fleet" : ''} at ${map.format(other.hex)} are in sight of each other. There is no fighting at sea: the referee decides what happens.`, { armyIds: [id, b], hexes: [map.format(a.hex), map.format(other.hex)] }));
      events.push(event('fleetSighted', REFEREE, `Contact at sea: ${a.name} (${describeKinds(fleet)}) at ${map.format(a.hex)} and ${other.name} at ${map.format(other.hex)}. Decide its outcome (e.g. with /army edit).`, { armyIds: [id, b] }));
    }
    if (order?.kind === 'sail' && seen.join() !== fleet.sighted.join()) orders[id] = { ...order, fleet: { ...fleet, sighted: seen } };
  }
  return { state: { ...state, orders }, events };
}

function describeKinds(f: FleetState): string {
  return kindsOf(f.vessels).map((k) => `${f.vessels[k]} ${VESSELS[k].name}`).join(', ');
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

