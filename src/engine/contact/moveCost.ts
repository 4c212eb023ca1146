import type { Army } from '../forces/army.js';
import type { Hex } from '../hex/hex.js';
import { arrivalBank, isWater, type Bank, type MapModel, type Terrain } from '../map/mapModel.js';

/** Terrain cost to enter a hex. @see RULINGS 4 Costs and crossings */
export const ENTER_COST: Readonly<Record<Exclude<Terrain, 'sea' | 'coast'>, number>> = {
  clear: 6,
  forest: 9,
  hill: 9,
  swamp: 9,
  mountain: 12,
} as const;

/**
 * Move points a land force pays to step from `from` into the adjacent `to`, for the short moves
 * of the contact rules (avoid, displacement, maneuver, relief, exploit). Undefined when the hex
 * cannot be entered (off the map, water). River crossings are not charged here; the movement
 * rules may pass their own cost function instead.
 */
export type MoveCostFn = (map: MapModel, army: Army, from: Hex, to: Hex) => number | undefined;

export const contactMoveCost: MoveCostFn = (map, army, from, to) => {
  const t = map.terrainAt(to);
  if (t === undefined || isWater(t)) return undefined;
  const home = army.homeTerrain;
  const atHome = home !== undefined && home.terrain === t && (home.region === undefined || map.inRegion(to, home.region));
  const base = atHome ? ENTER_COST.clear : ENTER_COST[t as keyof typeof ENTER_COST];
  if (map.hasRoad(from, to)) return Math.round((base * 2) / 3);
  return base;
};

/** The bank a force stands on after stepping into `to`. */
export function bankAfter(map: MapModel, army: Army, to: Hex): Bank | undefined {
  return arrivalBank(map, army.hex, army.bank, to);
}

/** Charges move points to an army (points left down, points spent today and this period up). */
export function spendPoints(army: Army, points: number): Army {
  if (points === 0) return army;
  const m = army.march;
  return { ...army, march: { ...m, pointsLeft: m.pointsLeft - points, spentToday: (m.spentToday ?? 0) + points, spentPeriod: (m.spentPeriod ?? 0) + points } };
}
