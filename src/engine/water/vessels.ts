import { echo } from '../events/index.js';
import { fail, ok, type Result } from '../result.js';
import { VESSEL_KINDS, type VesselCounts, type VesselKind } from '../state/index.js';

/**
 * The vessels of the waterborne rules, as data.
 * - `rowed` / `sailed`: daily move points; a vessel with a sailed rate moves under sail through
 *   the day and the night period, a rowed vessel only by day.
 * - `capacity`: troop figures carried per vessel (individuals ride free); 0 = carries no troops.
 * - `cost`: army points per vessel (undefined = not bought: longships come with the Northmen,
 *   sailing ships with the pirates).
 * - `waters`: where it may go (sea = coastal waters and open sea as `openSea` allows).
 * @see 000 Waterborne Transport: Move Rates, Waterborne Vessels
 */

export interface VesselRules {
  readonly name: string;
  readonly rowed?: number;
  readonly sailed?: number;
  readonly capacity: number;
  readonly cost?: number;
  /** Goes to sea (coast and sea hexes). */
  readonly seagoing: boolean;
  /** May leave coastal waters for the open sea. */
  readonly openSea: boolean;
  /** Navigates rivers. */
  readonly rivers: boolean;
  /** May enter a coast hex only when it has a channel or a port (10-foot draft). */
  readonly deepDraft: boolean;
  /** How it puts troops ashore away from a port. */
  readonly landing: 'beach' | 'anchorOffshore' | 'portOnly';
  /** Escort for a fleet: one per regiment transported. */
  readonly escort: boolean;
  /** Troops aboard are crew (rowing, sailing): a day aboard is not rest. */
  readonly crewed: boolean;
  /** Optional light catapult at this extra cost. */
  readonly catapultCost?: number;
}

export const VESSELS: Readonly<Record<VesselKind, VesselRules>> = {
  galley: { name: 'galley', rowed: 18, sailed: 72, capacity: 0, cost: 4, seagoing: true, openSea: false, rivers: false, deepDraft: false, landing: 'beach', escort: true, crewed: false },
  longship: { name: 'longship', rowed: 18, sailed: 90, capacity: 2, seagoing: true, openSea: false, rivers: true, deepDraft: false, landing: 'beach', escort: false, crewed: true },
  riverBoat: { name: 'river boat', rowed: 36, capacity: 0.25, cost: 0.25, seagoing: false, openSea: false, rivers: true, deepDraft: false, landing: 'beach', escort: false, crewed: true },
  sailingShip: { name: 'sailing ship', sailed: 90, capacity: 0.5, cost: 0.75, seagoing: true, openSea: true, rivers: false, deepDraft: false, landing: 'anchorOffshore', escort: false, crewed: true, catapultCost: 0.25 },
  troopTransport: { name: 'troop transport', sailed: 72, capacity: 3, cost: 3, seagoing: true, openSea: true, rivers: false, deepDraft: true, landing: 'portOnly', escort: false, crewed: false },
};

/** Move points per sea, coast or river hex for every vessel. @see RULINGS 4 */
export const WATER_HEX_COST = 6;

/** Vessel kinds present (count > 0) in a fleet, in table order. */
export function kindsOf(v: VesselCounts): VesselKind[] {
  return VESSEL_KINDS.filter((k) => (v[k] ?? 0) > 0);
}

/** "9 troop transports, 1 galley" */
export function describeVessels(v: VesselCounts): string {
  const parts = kindsOf(v).map((k) => {
    const n = v[k] ?? 0;
    const name = VESSELS[k].name;
    return `${n} ${name}${n === 1 ? '' : 's'}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'no vessels';
}

/** Troop figures the fleet carries. */
export function fleetCapacity(v: VesselCounts): number {
  return kindsOf(v).reduce((n, k) => n + (v[k] ?? 0) * VESSELS[k].capacity, 0);
}

/** Army points the fleet costs (vessels with no cost are free), plus optional catapults. */
export function fleetCost(v: VesselCounts, catapults = 0): number {
  return kindsOf(v).reduce((n, k) => n + (v[k] ?? 0) * (VESSELS[k].cost ?? 0), 0) + catapults * (VESSELS.sailingShip.catapultCost ?? 0);
}

/**
 * Parses `"troopTransport=9,galley=1"` (kind names as in the table; `river boat`, `troop
 * transport` and plurals are accepted too).
 */
export function parseVessels(text: string): Result<VesselCounts> {
  const out: Partial<Record<VesselKind, number>> = {};
  const parts = text.split(/[,;]/).map((p) => p.trim()).filter((p) => p.length > 0);
  if (parts.length === 0) return fail('embark.noVessels', 'Say which vessels, e.g. `vessels:"troopTransport=9,galley=1"`.');
  for (const p of parts) {
    const named = /^([a-zA-Z _-]+?)\s*[=:]\s*(\d+)$/.exec(p);
    const counted = /^(\d+)\s+([a-zA-Z _-]+)$/.exec(p);
    const name = named?.[1] ?? counted?.[2];
    const count = Number(named?.[2] ?? counted?.[1] ?? NaN);
    const kind = name === undefined ? undefined : kindFromName(name);
    if (!kind || !Number.isInteger(count) || count < 0) {
      return fail('embark.badVessels', `${echo(p)} is not a vessel count. Use kind=count with kinds ${VESSEL_KINDS.join(', ')}, e.g. \`vessels:"troopTransport=9,galley=1"\`.`, { part: p });
    }
    out[kind] = (out[kind] ?? 0) + count;
  }
  return ok(out);
}

function kindFromName(name: string): VesselKind | undefined {
  const n = name.toLowerCase().replace(/[\s_-]+/g, '').replace(/s$/, '');
  return VESSEL_KINDS.find((k) => k.toLowerCase() === n);
}
