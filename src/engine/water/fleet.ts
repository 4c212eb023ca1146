import type { GameTime } from '../clock/index.js';
import type { Army } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import type { CampaignState, FleetState, SailOrder, VesselCounts, VesselKind, WeatherEffects } from '../state/index.js';
import { kindsOf, VESSELS } from './vessels.js';

/** The fleet of an embarked army, or undefined when it is ashore. */
export function fleetOf(state: CampaignState, armyId: string): FleetState | undefined {
  const a = state.armies[armyId];
  if (!a?.status.embarked) return undefined;
  const order = state.orders[armyId];
  return order?.kind === 'sail' ? order.fleet : fleetAtAnchor(a, state.clock);
}

/**
 * The fleet of an embarked army that has no sail order (the referee replaced it): all its
 * vessels, every regiment aboard, at anchor.
 */
export function fleetAtAnchor(a: Army, clock: GameTime): FleetState {
  return {
    vessels: a.vessels,
    regiments: a.regiments.map((r) => r.id),
    ashore: [],
    embarkedFrom: '',
    embarkedAt: (clock.day - 1) * 4 + clock.half,
    escortLost: false,
    carry: 0,
    carryDay: clock.day,
    waitHalves: 0,
    sighted: [],
  };
}

/** The standing sail order holding a fleet. */
export function sailOrder(armyId: string, fleet: FleetState, path: readonly Hex[], givenBy: string, givenAt: GameTime): SailOrder {
  return { armyId, kind: 'sail', path, fleet, givenBy, givenAt };
}

/** Where the fleet is going: sea (sailed vessels under sail) or river (rowed). */
export type WaterMode = 'sea' | 'river';

/**
 * Points one vessel kind has in one half period.
 * - Under sail (sea and coast, vessels with a sailed rate) it moves day and night: a quarter of
 *   its daily points each half period (half of them by evening). Fog halves that (points / 8),
 *   high winds add 50 %, calm stops it (galleys and longships row instead), a gale stops every
 *   ship at sea.
 * - Rowed (river boats, longships on rivers, galleys and longships at the oars in calm) it moves
 *   by day only: half its rowed points in each of the morning and the afternoon.
 * @see 000 Waterborne Transport: Move Rates, Night Movement; 000 Strategic Movement Under Fog;
 *   000 Calm; 000 High Winds; 000 Gale
 */
export function halfPoints(kind: VesselKind, mode: WaterMode, weather: WeatherEffects, clock: GameTime): number {
  const v = VESSELS[kind];
  const day = clock.half < 2;
  const rowed = (): number => (v.rowed !== undefined && day ? v.rowed / 2 : 0);
  if (mode === 'river') return rowed();
  if (weather.shipsHalted) return 0;
  if (v.sailed === undefined) return rowed();
  if (weather.rowOnly) return rowed();
  return (v.sailed / 4) * weather.sailFactor;
}

/** A fleet moves at its slowest vessel. */
export function fleetHalfPoints(vessels: VesselCounts, mode: WaterMode, weather: WeatherEffects, clock: GameTime): number {
  const kinds = kindsOf(vessels);
  if (kinds.length === 0) return 0;
  return Math.min(...kinds.map((k) => halfPoints(k, mode, weather, clock)));
}

/** Whether the troops aboard crew their vessels (longships, river boats, sailing ships): a day aboard is then not rest. */
export function crewedFleet(vessels: VesselCounts): boolean {
  return kindsOf(vessels).some((k) => VESSELS[k].crewed && VESSELS[k].capacity > 0);
}

/** Seagoing vessels in the fleet (closed ports hold them). */
export function seagoing(vessels: VesselCounts): boolean {
  return kindsOf(vessels).some((k) => VESSELS[k].seagoing);
}
