import type { Army } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import type { MapModel, Terrain } from '../map/index.js';
import { timesUp, VALORMR_PROFILE, type MovementProfile } from '../profiles/index.js';
import { fail, ok, type Result } from '../result.js';
import type { EnterCost, Link, MoveOptions } from './types.js';

/**
 * Valormr's move points to enter a hex, by terrain (the default profile's table, for reference).
 * Coast and open sea cannot be entered overland.
 * @see 000 Terrain Effects: Movement by Terrain Type
 */
export const TERRAIN_COST = { ...VALORMR_PROFILE.terrain.costs, coast: undefined, sea: undefined } as const satisfies Record<Terrain, number | undefined>;

/** The link between two neighbouring hexes: a road beats a track. */
function linkBetween(map: MapModel, from: Hex, to: Hex): Link {
  if (map.hasRoad(from, to)) return 'road';
  if (map.hasTrack(from, to)) return 'track';
  return 'none';
}

/** Whether the army crosses this hex at clear cost (Ellriendi elves in their forest, lizard men in swamp). */
export function isHomeTerrain(map: MapModel, army: Army, h: Hex, terrain: Terrain): boolean {
  const home = army.homeTerrain;
  if (!home || home.terrain !== terrain) return false;
  return home.region === undefined || map.inRegion(h, home.region);
}

/** Whether the army's rules ignore terrain (flying creatures under the house setting). */
export function fliesOver(army: Army, flyingIgnoresTerrain: boolean): boolean {
  return flyingIgnoresTerrain && army.flying === true;
}

/**
 * Only bodies that march in formation (infantry and cavalry) are bound by the formed-movement
 * limits; couriers are lone riders and creatures do not march in formation.
 * @see 000 Terrain Effects: Forest and Swamp; Mountains; Units, Formed and Unformed
 */
function marchesInFormation(army: Army): boolean {
  return army.movementClass === 'infantry' || army.movementClass === 'cavalry';
}

/**
 * The cost for `army` to enter `to` from its neighbour `from`, or why it may not, under the
 * campaign's movement profile:
 * - the profile's terrain cost, times its road factor along a road link (x2/3), its track factor
 *   along a track (x1), rounded up;
 * - home terrain at clear cost; flying creatures at clear cost everywhere (setting);
 * - formed limits: off road/track only infantry enters forest or swamp, nobody enters mountain,
 *   unless the order says unformed;
 * - light-sighted at night: only into clear terrain or along a road, at double cost.
 * @see 000 Terrain Effects; 000 Overland Travel: Nocturnal Movement; RULINGS 4
 */
export function enterCost(map: MapModel, army: Army, from: Hex, to: Hex, opts: MoveOptions, profile: MovementProfile): Result<EnterCost> {
  const terrain = map.terrainAt(to);
  const id = map.inBounds(to) ? map.format(to) : `${to.q},${to.r}`;
  if (terrain === undefined) return fail('move.offMap', `Hex ${id} is off the map.`, { hex: id });
  const link = linkBetween(map, from, to);
  const nightLimits = opts.night && army.sight === 'light';
  const costs = profile.terrain.costs;
  if (fliesOver(army, profile.flyingIgnoresTerrain)) {
    return ok({ terrain, link: 'none', cost: costs.clear * (nightLimits ? 2 : 1), needsUnformed: false });
  }
  if (terrain === 'coast' || terrain === 'sea') {
    return fail('move.water', `Hex ${id} is ${terrain === 'sea' ? 'open sea' : 'coastal water'}: armies cannot march into it (embark on vessels instead).`, { hex: id, terrain });
  }
  if (nightLimits && terrain !== 'clear' && link !== 'road') {
    return fail('move.nightTerrain', `At night a light-sighted force may only enter clear hexes or follow a road; ${id} is ${terrain} with no road.`, { hex: id, terrain });
  }
  const raw = isHomeTerrain(map, army, to, terrain) ? costs.clear : costs[terrain];
  const perLink = link === 'road' ? timesUp(raw, profile.terrain.road) : link === 'track' ? timesUp(raw, profile.terrain.track) : raw;
  const cost = perLink * (nightLimits ? 2 : 1);
  const needsUnformed = link === 'none' && marchesInFormation(army) && formedLimit(army, terrain, map, to);
  if (needsUnformed && !opts.unformed) {
    const code = terrain === 'mountain' ? 'move.mountainOffRoad' : 'move.formedForestSwamp';
    const why = terrain === 'mountain'
      ? `formed troops cross mountains only by road or track`
      : `only infantry moves formed through ${terrain} without a road or track`;
    return fail(code, `Cannot enter ${id} formed: ${why}. Follow a road or track, or order unformed:true (stragglers, one day to reform).`, { hex: id, terrain });
  }
  return ok({ terrain, link, cost, needsUnformed });
}

/** True when the terrain bars this formed army off road and track. */
function formedLimit(army: Army, terrain: Terrain, map: MapModel, h: Hex): boolean {
  if (terrain === 'mountain') return true;
  if (terrain === 'forest' || terrain === 'swamp') {
    if (isHomeTerrain(map, army, h, terrain)) return false;
    return army.movementClass !== 'infantry';
  }
  return false;
}
