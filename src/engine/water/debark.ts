import { formatGameTime, fromIndex, timeIndex } from '../clock/gameTime.js';
import { event, PUBLIC, toArmy, type EngineEvent } from '../events/events.js';
import { baseDailyPoints, regimentFigures, type Army } from '../forces/army.js';
import { hexEquals, type Hex } from '../hex/hex.js';
import { directionTo, isAdjacent } from '../hex/neighbours.js';
import { bankOfEdge, isWater, type Bank, type MapModel } from '../map/mapModel.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState, Order, OrderGiven } from '../state/campaign.js';
import type { WeatherEffects } from '../weather/types.js';
import { fleetOf, type FleetState } from './fleet.js';
import { riverNavigable } from './navigation.js';
import { fleetCapacity, kindsOf, VESSELS } from './vessels.js';

/** Regiments still on their way to the port of debarkation, by batch. */
export interface AwaitedBatch {
  readonly regiments: readonly string[];
  /** timeIndex of the half period they land. */
  readonly arrivesAt: number;
}

/** What a 'debark' order keeps while the army waits for the rest of its regiments. */
export interface Assembly {
  readonly port: string;
  readonly batches: readonly AwaitedBatch[];
}

/** The standing order of an army that landed and waits at its port for regiments still to come by shuttle. */
export interface DebarkOrder extends OrderGiven {
  readonly kind: 'debark';
  readonly assembly: Assembly;
}

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
  readonly events: readonly EngineEvent[];
  readonly assembly?: Assembly;
  readonly cost: number;
}

/**
 * Puts an embarked army ashore at `hex`.
 * - At a port (the fleet docked in the port hex): in the port, or the commander steps one hex off
 *   it to make way for others.
 * - On a coast hex: longships and galleys beach, sailing ships anchor offshore and land the troops
 *   by rowboat, onto a neighbouring land hex. Troop transports need a port, except in a gale,
 *   when any ship on a coast hex may beach.
 * - On a river: river boats and longships beach on either bank of the river hex.
 * Regiments left behind at embarkation follow by shuttle: the vessels go back and forth, each
 * round trip taking twice the voyage's half periods; the army does not march until all have
 * arrived (a 'debark' order with the assembly stands until then).
 * Advanced rule: debarking at a port takes three hours (the army loses a quarter of its daily
 * points); elsewhere it costs half the army's daily points.
 * @see 000 Waterborne Transport: Debarkation; 000 Coastal Waters; 000 Gale; 000 Advanced: Embarkation and Debarkation
 */
export function debark(state: CampaignState, map: MapModel, input: DebarkInput, weather: WeatherEffects): Result<DebarkOutcome> {
  const army = state.armies[input.armyId];
  const fleet = fleetOf(state, input.armyId);
  if (!army || !fleet) return fail('debark.notEmbarked', `${army?.name ?? input.armyId} is not embarked.`);
  const at = army.hex;
  const id = map.inBounds(input.hex) ? map.format(input.hex) : '?';
  const here = map.format(at);
  const kinds = kindsOf(fleet.vessels);
  const tHere = map.terrainAt(at);
  const target = input.hex;
  if (!map.inBounds(target)) return fail('debark.offMap', 'That hex is off the map.');
  if (isWater(map.terrainAt(target))) return fail('debark.water', `${id} is water: land on a land hex next to the fleet.`);
  const holder = Object.values(state.armies).find((a) => a.id !== army.id && !a.status.destroyed && hexEquals(a.hex, target));
  if (holder) return fail('debark.occupied', `${id} is held by ${holder.commander || holder.name}: one commander per hex.`);
  let atPort = false;
  if (!isWater(tHere)) {
    // Docked at a port, in a river hex, or still where the army embarked.
    atPort = map.portAt(at) !== undefined;
    const onRiver = map.riverAt(at) !== undefined && kinds.every((k) => VESSELS[k].rivers) && riverNavigable(map, at).ok;
    if (hexEquals(target, at)) {
      // in the port, on either bank of the river, or back where it embarked
    } else if (!(atPort && isAdjacent(at, target))) {
      return fail('debark.tooFar', atPort
        ? `From the port at ${here} the army lands in the port or the commander steps one hex off it; ${id} is farther.`
        : `The fleet lies at ${here}${onRiver ? ' on the river: land on either bank of that hex' : ''}; land at ${here}.`);
    }
  } else {
    if (!isAdjacent(at, target)) return fail('debark.tooFar', `${id} is not next to the fleet at ${here}.`);
    if (tHere !== 'coast') return fail('debark.atSea', `The fleet is at sea (${here}); it can land troops only from a coast hex.`);
    const gale = weather.shipsHalted;
    const portOnly = kinds.filter((k) => VESSELS[k].landing === 'portOnly');
    if (portOnly.length > 0 && !gale) return fail('debark.needsPort', `Troop transports need a port to dock; sail into one${map.data.ports.length > 0 ? ` (${map.data.ports.map((p) => `${p.name} ${p.hex}`).join(', ')})` : ''}. In a gale any ship on a coast hex may beach.`);
  }
  let a: Army = { ...army, hex: target, status: { ...army.status, embarked: false } };
  const river = map.riverAt(target);
  // Landing from a neighbouring hex (a coast hex, or stepping off the port) puts the army on the
  // bank that faces it; only boats in the river hex itself land on either bank.
  const edge = hexEquals(target, at) ? undefined : directionTo(target, at);
  const facing = river && edge ? bankOfEdge(river, edge) : undefined;
  if ((facing === 'left' || facing === 'right') && input.bank !== undefined && input.bank !== facing) {
    return fail('debark.wrongBank', `Landing at ${id} from ${here} puts the army on the ${facing} bank; the ${input.bank} bank is across the river.`);
  }
  if (river) a = { ...a, bank: facing === 'left' || facing === 'right' ? facing : input.bank ?? 'left' };
  else if ('bank' in a) {
    const { bank: _b, ...rest } = a;
    a = rest;
  }
  let cost = 0;
  if (input.advanced) {
    cost = Math.ceil(baseDailyPoints(army) / (atPort ? 4 : 2));
    a = { ...a, march: { ...a.march, spentToday: a.march.spentToday + cost, pointsLeft: Math.max(0, a.march.pointsLeft - cost) } };
  }
  const orders: Record<string, Order> = { ...state.orders };
  delete orders[a.id];
  const assembly = shuttle(state, army, fleet);
  if (assembly) orders[a.id] = { armyId: a.id, kind: 'debark', givenBy: input.givenBy, givenAt: state.clock, assembly: { ...assembly, port: map.format(target) } };
  const next: CampaignState = { ...state, armies: { ...state.armies, [a.id]: a }, orders };
  const name = army.commander || army.name;
  const where = map.portAt(target) ?? id;
  const events: EngineEvent[] = [event('armyDebarked', PUBLIC, `${name} lands at ${where}${where === id ? '' : ` (${id})`}.`, { armyId: a.id, hex: id })];
  const notes: string[] = [];
  if (cost > 0) notes.push(`debarking cost ${cost} points (advanced rule)`);
  if (fleet.escortLost) notes.push('the galley escort, lost to the open sea, rejoins here');
  if (assembly) {
    const last = assembly.batches[assembly.batches.length - 1] as AwaitedBatch;
    notes.push(`the army does not march until its other regiments arrive by shuttle (last ones ${formatGameTime(fromIndex(last.arrivesAt))})`);
  }
  events.push(event('armyDebarked', toArmy(a.id), `${army.name} landed at ${id}.${notes.length > 0 ? ` ${cap(notes.join('; '))}.` : ''}`, { armyId: a.id, hex: id }));
  return ok({ state: next, events, ...(assembly ? { assembly } : {}), cost });
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

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

