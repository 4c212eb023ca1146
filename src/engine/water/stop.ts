import { namesOf, tell, toArmy } from '../events/index.js';
import type { Army } from '../forces/index.js';
import { isWater, type MapModel } from '../map/index.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState, FleetState, Order, VesselKind } from '../state/index.js';
import { describeWater } from './describeWater.js';
import { boardingViolation } from './embark.js';
import { fleetOf, sailOrder } from './fleet.js';
import { isOpenSea, riverNavigable } from './navigation.js';
import { kindsOf, VESSELS } from './vessels.js';
import type { FleetBerth, FleetFact, WaterEvent } from './waterEvents.js';

const plural = (ks: readonly VesselKind[]): string => ks.map((k) => `${VESSELS[k].name}s`).join(' and ');

/**
 * Where and how a fleet can lie still in the hex it is in (describeWater says where and how the
 * army may land from there). A fleet may stop wherever its vessels may sail: the texts let a
 * fleet held by the weather (gale, calm, fog) or by a hex another commander holds stay put at sea
 * for as long as it must, so lying still is no further limit. Troop transports, which land only at
 * a port, ride at anchor in a channel or heave to at sea.
 * Refused (`sail.cannotStop`) only where the vessels could not be at all (the referee placed the
 * fleet there by hand): open sea for longships or galleys, the mud flat off its channels, a coast
 * hex with neither channel nor port for troop transports, the sea for river boats, a land hex
 * that is neither a port, a navigable river nor a beach for them.
 * @see 000 Waterborne Transport; 000 Coastal Waters; 000 Open Sea; 000 Gale; docs/rulings.md, Sailing
 */
export function fleetBerth(map: MapModel, army: Army, fleet: FleetState): Result<FleetBerth> {
  const id = map.format(army.hex);
  const cannot = (why: string): Result<FleetBerth> =>
    fail('sail.cannotStop', `${army.name}'s fleet cannot lie at ${id}: ${why}. Sail it on to where its vessels may lie (\`/sail to:\`), or ask the referee to correct its position (/army edit).`, { hex: id });
  const why = isWater(map.terrainAt(army.hex)) ? cannotLieAfloat(map, army, fleet) : boardingViolation(map, kindsOf(fleet.vessels), army.hex);
  if (why !== undefined) return cannot(why);
  return ok(isWater(map.terrainAt(army.hex)) ? berthAfloat(map, army, fleet) : berthAshore(map, army, fleet));
}

/** A fleet at a land hex: in a port, on a navigable river, or off the beach. */
function berthAshore(map: MapModel, army: Army, fleet: FleetState): FleetBerth {
  const hex = map.format(army.hex);
  const kinds = kindsOf(fleet.vessels);
  const port = map.portAt(army.hex);
  if (port !== undefined && kinds.every((k) => VESSELS[k].seagoing)) return { kind: 'docked', hex, port, landPort: true };
  const river = map.riverAt(army.hex);
  if (river !== undefined && kinds.every((k) => VESSELS[k].rivers) && riverNavigable(map, army.hex).ok) return { kind: 'river', hex, river: river.riverName };
  return { kind: 'beach', hex, whereEmbarked: fleet.embarkedFrom === hex };
}

/** Escort galleys never bind a fleet with troop carriers in open sea (they fall away instead). */
function bindingKinds(map: MapModel, army: Army, fleet: FleetState): VesselKind[] {
  const kinds = kindsOf(fleet.vessels);
  const carriers = kinds.filter((k) => k !== 'galley');
  return isOpenSea(map, army.hex) && carriers.length > 0 ? carriers : kinds;
}

/** Why the vessels could not be at this water hex at all, or undefined. */
function cannotLieAfloat(map: MapModel, army: Army, fleet: FleetState): string | undefined {
  const at = army.hex;
  const id = map.format(at);
  const t = map.terrainAt(at);
  const rule = bindingKinds(map, army, fleet);
  const riverOnly = rule.filter((k) => !VESSELS[k].seagoing);
  if (riverOnly.length > 0) return `${plural(riverOnly)} travel only on rivers and ${id} is ${t === 'sea' ? 'the sea' : 'coastal water'}`;
  const coastal = isOpenSea(map, at) ? rule.filter((k) => !VESSELS[k].openSea) : [];
  if (coastal.length > 0) return `it is open sea beyond coastal waters, where ${plural(coastal)} may not go`;
  if (t !== 'coast') return undefined;
  if (map.isMudflat(at) && !map.hasChannel(at)) return 'it is mud flat off the marked channels';
  if (rule.some((k) => VESSELS[k].deepDraft) && !map.hasChannel(at) && map.portAt(at) === undefined) return 'troop transports draw ten feet and may be in a coast hex only where it has a channel or a port';
  return undefined;
}

/** A fleet on the water: in a port, in a channel, beached, offshore, or hove to at sea. */
function berthAfloat(map: MapModel, army: Army, fleet: FleetState): FleetBerth {
  const hex = map.format(army.hex);
  if (map.terrainAt(army.hex) !== 'coast') return { kind: isOpenSea(map, army.hex) ? 'openSea' : 'atSea', hex };
  const port = map.portAt(army.hex);
  if (port !== undefined) return { kind: 'docked', hex, port };
  const kinds = kindsOf(fleet.vessels);
  if (bindingKinds(map, army, fleet).some((k) => VESSELS[k].deepDraft)) return { kind: 'channel', hex };
  if (kinds.every((k) => VESSELS[k].landing === 'beach')) return { kind: 'beached', hex };
  return { kind: 'offshore', hex };
}

export interface FleetStopOutcome {
  readonly state: CampaignState;
  readonly events: readonly WaterEvent[];
  readonly berth: FleetBerth;
  /** The hexes of the voyage given up (empty when the fleet had no voyage under way). */
  readonly cancelled: readonly string[];
  readonly fleet: FleetState;
}

/**
 * Stops an embarked army's fleet where it is: the army stays aboard, its standing sail order
 * keeps the fleet but loses its path (at anchor, as after embarking), so the ships' step no longer
 * moves it. Points carried over within the day are lost (as when the weather holds a fleet); the
 * wait for the tide (advanced embarkation), a lost escort and the contacts in sight stand.
 * Refused where the vessels cannot lie (fleetBerth).
 * @see 000 Waterborne Transport; docs/rulings.md, Sailing
 */
export function stopFleet(state: CampaignState, map: MapModel, input: { readonly armyId: string; readonly givenBy: string; readonly byReferee?: boolean }): Result<FleetStopOutcome> {
  const army = state.armies[input.armyId];
  const fleet = fleetOf(state, input.armyId);
  if (!army || !fleet) return fail('sail.notEmbarked', `${army?.name ?? input.armyId} is not embarked: there is no fleet to stop. An army ashore holds with /hold.`);
  const berth = fleetBerth(map, army, fleet);
  if (!berth.ok) return berth;
  const prev = state.orders[army.id];
  const cancelled = prev?.kind === 'sail' ? prev.path.map((h) => map.format(h)) : [];
  const still: FleetState = { ...fleet, carry: 0, carryDay: state.clock.day };
  const order: Order = sailOrder(army.id, still, [], input.givenBy, state.clock);
  const facts: FleetFact[] = [{ type: 'fleetStopped', audience: toArmy(army.id), data: { armyId: army.id, hex: berth.value.hex, berth: berth.value, cancelled, time: state.clock, byReferee: input.byReferee === true } }];
  return ok({ state: { ...state, orders: { ...state.orders, [army.id]: order } }, events: tell(facts, describeWater, namesOf(state.armies)), berth: berth.value, cancelled, fleet: still });
}
