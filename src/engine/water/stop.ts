import { formatGameTime } from '../clock/gameTime.js';
import { event, toArmy, type EngineEvent } from '../events/events.js';
import type { Army } from '../forces/army.js';
import { isWater, type MapModel } from '../map/mapModel.js';
import { fail, ok, type Result } from '../result.js';
import type { CampaignState, Order } from '../state/campaign.js';
import { boardingViolation } from './embark.js';
import { fleetOf, sailOrder, type FleetState } from './fleet.js';
import { isOpenSea, riverNavigable } from './navigation.js';
import { kindsOf, VESSELS, type VesselKind } from './vessels.js';

/**
 * How a fleet lies when it is not under way:
 * - `docked`: in a port (a land port hex, or a coast hex with a port);
 * - `river`: drawn up on the bank of a navigable river (river boats, longships);
 * - `beach`: off the beach of the land hex where the army embarked (longships and galleys
 *   beached, sailing ships offshore);
 * - `beached`: on a coast hex, longships and galleys drawn up on the shore;
 * - `offshore`: on a coast hex, sailing ships at anchor offshore;
 * - `channel`: on a coast hex with a channel, troop transports at anchor in it;
 * - `atSea`: hove to in coastal waters, out of reach of the shore;
 * - `openSea`: hove to in the open sea, out of sight of land.
 */
export type BerthKind = 'docked' | 'river' | 'beach' | 'beached' | 'offshore' | 'channel' | 'atSea' | 'openSea';

export interface FleetBerth {
  readonly kind: BerthKind;
  readonly hex: string;
  /** Where the fleet lies, in words: "hove to at sea at 1802, in coastal waters". */
  readonly where: string;
  /** How the army may go ashore from there. */
  readonly landing: string;
}

const plural = (ks: readonly VesselKind[]): string => ks.map((k) => `${VESSELS[k].name}s`).join(' and ');

/**
 * Where and how a fleet can lie still in the hex it is in. A fleet may stop wherever its vessels
 * may sail: the texts let a fleet held by the weather (gale, calm, fog) or by a hex another
 * commander holds stay put at sea for as long as it must, so lying still is no further limit.
 * Troop transports, which land only at a port, ride at anchor in a channel or heave to at sea.
 * Refused (`sail.cannotStop`) only where the vessels could not be at all (the referee placed the
 * fleet there by hand): open sea for longships or galleys, the mud flat off its channels, a coast
 * hex with neither channel nor port for troop transports, the sea for river boats, a land hex
 * that is neither a port, a navigable river nor a beach for them.
 * @see 000 Waterborne Transport; 000 Coastal Waters; 000 Open Sea; 000 Gale; docs/rulings.md, Sailing
 */
export function fleetBerth(map: MapModel, army: Army, fleet: FleetState): Result<FleetBerth> {
  const at = army.hex;
  const id = map.format(at);
  const t = map.terrainAt(at);
  const kinds = kindsOf(fleet.vessels);
  const port = map.portAt(at);
  const cannot = (why: string): Result<FleetBerth> =>
    fail('sail.cannotStop', `${army.name}'s fleet cannot lie at ${id}: ${why}. Sail it on to where its vessels may lie (\`/sail to:\`), or ask the referee to correct its position (/army edit).`, { hex: id });

  if (!isWater(t)) {
    const why = boardingViolation(map, kinds, at);
    if (why !== undefined) return cannot(why);
    const seaLanding = 'land in the port or one hex off it with `/debark`';
    if (port !== undefined && kinds.every((k) => VESSELS[k].seagoing)) {
      return ok({ kind: 'docked', hex: id, where: `docked in the port of ${port} (${id})`, landing: seaLanding });
    }
    const river = map.riverAt(at);
    if (river !== undefined && kinds.every((k) => VESSELS[k].rivers) && riverNavigable(map, at).ok) {
      return ok({ kind: 'river', hex: id, where: `drawn up on the bank of the ${river.riverName} at ${id}`, landing: `land on either bank with \`/debark hex:${id} bank:\`` });
    }
    return ok({ kind: 'beach', hex: id, where: `off the beach at ${id}${fleet.embarkedFrom === id ? ', where the army embarked' : ''}`, landing: `land at ${id} with \`/debark hex:${id}\`` });
  }

  const openSea = isOpenSea(map, at);
  // Escort galleys never bind a fleet with troop carriers in open sea (they fall away instead).
  const carriers = kinds.filter((k) => k !== 'galley');
  const rule = openSea && carriers.length > 0 ? carriers : kinds;
  const riverOnly = rule.filter((k) => !VESSELS[k].seagoing);
  if (riverOnly.length > 0) return cannot(`${plural(riverOnly)} travel only on rivers and ${id} is ${t === 'sea' ? 'the sea' : 'coastal water'}`);
  if (openSea) {
    const coastal = rule.filter((k) => !VESSELS[k].openSea);
    if (coastal.length > 0) return cannot(`it is open sea beyond coastal waters, where ${plural(coastal)} may not go`);
  }
  if (t === 'coast') {
    if (map.isMudflat(at) && !map.hasChannel(at)) return cannot('it is mud flat off the marked channels');
    const deep = rule.filter((k) => VESSELS[k].deepDraft);
    if (deep.length > 0 && !map.hasChannel(at) && port === undefined) return cannot('troop transports draw ten feet and may be in a coast hex only where it has a channel or a port');
    if (port !== undefined) return ok({ kind: 'docked', hex: id, where: `in the port of ${port} (${id})`, landing: 'land on a neighbouring land hex with `/debark`' });
    if (deep.length > 0) {
      return ok({ kind: 'channel', hex: id, where: `at anchor in the channel at ${id}`, landing: 'troop transports land only at a port (in a gale any ship on a coast hex may beach with `/debark`)' });
    }
    if (kinds.every((k) => VESSELS[k].landing === 'beach')) {
      return ok({ kind: 'beached', hex: id, where: `drawn up on the shore at ${id}`, landing: 'beach and land on a neighbouring land hex with `/debark`' });
    }
    return ok({ kind: 'offshore', hex: id, where: `at anchor offshore at ${id}`, landing: 'land by rowboat on a neighbouring land hex with `/debark`' });
  }
  const reach = 'sail to a coast hex or a port first (`/sail to:`), then `/debark`';
  if (openSea) return ok({ kind: 'openSea', hex: id, where: `hove to in the open sea at ${id}, out of sight of land`, landing: reach });
  return ok({ kind: 'atSea', hex: id, where: `hove to at sea at ${id}, in coastal waters`, landing: reach });
}

export interface FleetStopOutcome {
  readonly state: CampaignState;
  readonly events: readonly EngineEvent[];
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
  const by = input.byReferee ? ' (by the referee)' : '';
  const text = cancelled.length > 0
    ? `Voyage to ${cancelled[cancelled.length - 1] as string} cancelled ${formatGameTime(state.clock)}${by}: the fleet lies ${berth.value.where}.`
    : `Fleet stopped ${formatGameTime(state.clock)}${by}: it lies ${berth.value.where}.`;
  const events = [event('fleetStopped', toArmy(army.id), text, { armyId: army.id, hex: berth.value.hex, berth: berth.value.kind, cancelled })];
  return ok({ state: { ...state, orders: { ...state.orders, [army.id]: order } }, events, berth: berth.value, cancelled, fleet: still });
}
