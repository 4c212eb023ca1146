import type { Army } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import { hexGrid, TERRAINS, type Bank, type HexGrid, type MapModel } from '../map/index.js';
import type { MovementProfile } from '../profiles/index.js';
import { condensation, stronglyConnected, type RouteComponents } from './routeComponents.js';
import { NodeHeap } from './routeHeap.js';
import { enterCost, fliesOver, isHomeTerrain } from './terrainCost.js';
import type { MoveOptions } from './types.js';

/**
 * The price list of a route search (src/engine/movement/findRoute.ts): per map and movement
 * profile, the entry cost of every edge class, the cheapest step, the strongly connected
 * components and, on big maps, landmark distances (built by the first long search). Built once
 * and cached with the map.
 */

/** Bank codes of a search node (node = hex index * 3 + bank code). */
export const BANKS: readonly (Bank | undefined)[] = [undefined, 'left', 'right'];
export const bankCode = (b: Bank | undefined): number => (b === 'left' ? 1 : b === 'right' ? 2 : 0);

/**
 * Edge classes: an entry cost depends only on the terrain left and entered, the link along the
 * edge and whether the army counts the entered hex as home terrain (`enterCost` reads nothing
 * else of the map), so each class is priced once by `enterCost` itself and shared by every edge
 * of that class. tests/engine/findRoute.test.ts checks routes against a Dijkstra that calls the
 * rules on every edge, so a rule that starts reading more of the map shows up there.
 */
const T = TERRAINS.length;
const CLASSES = T * T * 3 * 2;
export const edgeClass = (g: HexGrid, i: number, d: number, j: number, home: number): number =>
  (((g.terrain[i] as number) * T + (g.terrain[j] as number)) * 3 + (g.link[i * 6 + d] as number)) * 2 + home;

/**
 * What a movement profile costs on one map, computed once and cached with the map: entry cost
 * per edge class (-1: may not enter), the cheapest legal step (for the heuristic) and the
 * strongly connected components of the legal-entry graph (for answering unreachable targets
 * without a search). Blocked hexes and river crossings are left out (crossings only add cost,
 * and blocking only removes routes), so "not connected here" means no route at all.
 */
export interface Profile extends RouteComponents {
  readonly classCost: Float64Array;
  /** 1 where the army counts the hex as its home terrain; undefined without home terrain. */
  readonly home: Uint8Array | undefined;
  readonly minStep: number;
  /**
   * On big maps, built by the first long search that needs them (`landmarksFor`): distances from
   * and to a few landmark hexes, for a sharper heuristic.
   */
  landmarks: Landmarks | undefined;
  /** What building the landmarks needs: the entry cost of each edge (-1: may not enter). */
  readonly edgeCost: (i: number, d: number) => number;
}

/**
 * Landmarks (the ALT heuristic): cheapest costs from each landmark to every hex (`from`) and from
 * every hex to each landmark (`to`), k * size entries each, over entry costs alone. By the triangle
 * inequality, cost(v, t) >= from[L][t] - from[L][v] and >= to[L][v] - to[L][t]; crossings only add
 * cost and blocked hexes only remove routes, so these bounds never overestimate a real route.
 */
export interface Landmarks {
  readonly count: number;
  readonly from: Float32Array;
  readonly to: Float32Array;
}

/** Maps from this many hexes up keep landmarks (below it a search is cheap anyway). */
const LANDMARK_MIN_HEXES = 2500;
/**
 * Searches between hexes at least this many hex steps apart use the landmarks (built by the first
 * such search: about 16 Dijkstra runs over the map, most of a first `/move`'s time on a 200 x 200
 * map); nearer ones search with the plain bound, which is cheap at that range. Decided by the
 * search's own ends, never by what was built before, so the route found (among equally cheap ones)
 * does not depend on the process's history.
 */
const LANDMARK_MIN_DISTANCE = 50;

/** Whether a search from hex index `s` to `t` uses the landmarks (big map, far apart). */
export function usesLandmarks(g: HexGrid, s: number, t: number): boolean {
  return g.size >= LANDMARK_MIN_HEXES && gridDistance(g, s, t) >= LANDMARK_MIN_DISTANCE;
}

/** The profile's landmarks, built on first use. */
export function landmarksFor(map: MapModel, profile: Profile): Landmarks {
  if (!profile.landmarks) {
    profile.landmarks = buildLandmarks(map, hexGrid(map), profile.comp, profile.edgeCost);
    const key = profileKeys.get(profile);
    if (key !== undefined) stores.get(map)?.save(key, tablesOf(profile));
  }
  return profile.landmarks;
}

const profiles = new WeakMap<MapModel, Map<string, Profile>>();

/**
 * A profile's tables as plain arrays, what a {@link RouteTableStore} keeps: everything of a
 * {@link Profile} but its edge-cost function (rebuilt from them).
 */
export interface RouteTables {
  readonly classCost: Float64Array;
  readonly home: Uint8Array | undefined;
  readonly minStep: number;
  readonly comp: Int32Array;
  readonly compStart: Int32Array;
  readonly compAdj: Int32Array;
  readonly landmarks: Landmarks | undefined;
}

/**
 * Where a map's route tables are kept between processes (the app's cache file beside the database,
 * src/app/movement/routeTableFile.ts). `key` names the tables of one movement profile
 * ({@link profileKey}); the store adds the map's content and the code's version to it. What it
 * loads is checked against the map here too (sizes, component numbering) before it is used; a
 * store's tables are the tables this code builds, so a route never depends on whether they were
 * built or loaded (tests/engine/routeTables.test.ts).
 */
export interface RouteTableStore {
  load(key: string): RouteTables | undefined;
  save(key: string, tables: RouteTables): void;
}

const stores = new WeakMap<MapModel, RouteTableStore>();
/** The key each cached profile was made under (for saving its landmarks once built). */
const profileKeys = new WeakMap<Profile, string>();

/** Keeps this map's route tables in `store` (loaded before building, saved once built). */
export function keepRouteTables(map: MapModel, store: RouteTableStore): void {
  stores.set(map, store);
}

/** The tables of a profile, as a store keeps them. */
function tablesOf(p: Profile): RouteTables {
  return { classCost: p.classCost, home: p.home, minStep: p.minStep, comp: p.comp, compStart: p.compStart, compAdj: p.compAdj, landmarks: p.landmarks };
}

/** Whether tables loaded from a store fit this map (a store checks its file; this checks the shapes). */
function fits(g: HexGrid, t: RouteTables): boolean {
  const n = g.size;
  if (t.classCost.length !== CLASSES || t.comp.length !== n || (t.home !== undefined && t.home.length !== n)) return false;
  if (!Number.isFinite(t.minStep) || t.minStep < 0) return false;
  const comps = t.compStart.length - 1;
  if (comps < 0 || t.compStart[0] !== 0 || t.compStart[comps] !== t.compAdj.length) return false;
  for (let c = 0; c < comps; c++) if ((t.compStart[c] as number) > (t.compStart[c + 1] as number)) return false;
  for (const c of t.comp) if (c < 0 || c >= comps) return false;
  for (const c of t.compAdj) if (c < 0 || c >= comps) return false;
  const lm = t.landmarks;
  return lm === undefined || (lm.count >= 0 && lm.from.length === lm.count * n && lm.to.length === lm.count * n);
}

/** A profile from stored tables, its edge-cost function rebuilt from its prices. */
function fromTables(g: HexGrid, t: RouteTables): Profile {
  const { classCost, home } = t;
  return { classCost, home, minStep: t.minStep, comp: t.comp, compStart: t.compStart, compAdj: t.compAdj, landmarks: t.landmarks, edgeCost: edgeCostOf(g, classCost, home) };
}

/**
 * Everything `enterCost` reads of the army, the options and the campaign's movement profile (its
 * terrain costs). Armies with the same key pay the same entry cost on every edge.
 */
function profileKey(army: Army, opts: MoveOptions, movement: MovementProfile): string {
  const home = army.homeTerrain;
  return [movement.key, army.movementClass, fliesOver(army, movement.flyingIgnoresTerrain) ? 'fly' : '', opts.night && army.sight === 'light' ? 'night' : '', opts.unformed ? 'unformed' : '', home?.terrain ?? '', home?.region ?? ''].join('|');
}

export function profileFor(map: MapModel, army: Army, opts: MoveOptions, movement: MovementProfile): Profile {
  let byKey = profiles.get(map);
  if (!byKey) {
    byKey = new Map();
    profiles.set(map, byKey);
  }
  const key = profileKey(army, opts, movement);
  const hit = byKey.get(key);
  if (hit) return hit;
  const g = hexGrid(map);
  const store = stores.get(map);
  const stored = store?.load(key);
  let profile: Profile;
  if (stored && fits(g, stored)) {
    profile = fromTables(g, stored);
  } else {
    profile = buildProfile(map, g, army, opts, movement);
    store?.save(key, tablesOf(profile));
  }
  profileKeys.set(profile, key);
  byKey.set(key, profile);
  return profile;
}

function buildProfile(map: MapModel, g: HexGrid, army: Army, opts: MoveOptions, movement: MovementProfile): Profile {
  const n = g.size;
  let home: Uint8Array | undefined;
  if (army.homeTerrain) {
    home = new Uint8Array(n);
    const t = TERRAINS.indexOf(army.homeTerrain.terrain);
    for (let i = 0; i < n; i++) {
      if (g.terrain[i] === t && isHomeTerrain(map, army, g.hexes[i] as Hex, army.homeTerrain.terrain)) home[i] = 1;
    }
  }
  const classCost = new Float64Array(CLASSES).fill(Number.NaN);
  // Entry cost of edge i -> j across direction d (every class priced by the rules once).
  const legal = new Int8Array(n * 6);
  let minStep = Infinity;
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < 6; d++) {
      const j = g.neighbour[i * 6 + d] as number;
      if (j < 0) continue;
      const c = edgeClass(g, i, d, j, home ? (home[j] as number) : 0);
      let cost = classCost[c] as number;
      if (Number.isNaN(cost)) {
        const e = enterCost(map, army, g.hexes[i] as Hex, g.hexes[j] as Hex, opts, movement);
        cost = e.ok ? e.value.cost : -1;
        classCost[c] = cost;
      }
      if (cost < 0) continue;
      legal[i * 6 + d] = 1;
      if (cost < minStep) minStep = cost;
    }
  }
  const comp = stronglyConnected(g, legal);
  const { compStart, compAdj } = condensation(g, legal, comp);
  return { classCost, home, minStep: Number.isFinite(minStep) ? minStep : 0, comp, compStart, compAdj, landmarks: undefined, edgeCost: edgeCostOf(g, classCost, home) };
}

/** The entry cost of edge (i, d) from the profile's prices (-1: no neighbour there, or may not enter). */
function edgeCostOf(g: HexGrid, classCost: Float64Array, home: Uint8Array | undefined): (i: number, d: number) => number {
  return (i, d) => {
    const j = g.neighbour[i * 6 + d] as number;
    if (j < 0) return -1;
    const c = classCost[edgeClass(g, i, d, j, home ? (home[j] as number) : 0)] as number;
    // Classes no edge of this map has stay unpriced (NaN): none is ever asked for here.
    return c >= 0 ? c : -1;
  };
}

/**
 * Eight landmarks on the map's rim (corners and edge middles), each the hex of the largest
 * component nearest its spot, and Dijkstra's costs from and to each.
 */
function buildLandmarks(map: MapModel, g: HexGrid, comp: Int32Array, costOf: (i: number, d: number) => number): Landmarks {
  const sizes = new Map<number, number>();
  for (const c of comp) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  let main = 0;
  for (const [c, k] of sizes) if (k > (sizes.get(main) ?? 0)) main = c;
  const w = map.width;
  const hgt = map.height;
  const spots = [[1, 1], [w, 1], [1, hgt], [w, hgt], [Math.ceil(w / 2), 1], [Math.ceil(w / 2), hgt], [1, Math.ceil(hgt / 2)], [w, Math.ceil(hgt / 2)]];
  const chosen: number[] = [];
  for (const [col, row] of spots) {
    const spot = ((row as number) - 1) * w + ((col as number) - 1);
    let bestI = -1;
    let bestD = Infinity;
    for (let i = 0; i < g.size; i++) {
      if (comp[i] !== main || chosen.includes(i)) continue;
      const d = gridDistance(g, i, spot);
      if (d < bestD) {
        bestD = d;
        bestI = i;
      }
    }
    if (bestI >= 0) chosen.push(bestI);
  }
  const n = g.size;
  // Every edge's cost once (sixteen searches read each edge about twice).
  const edge = new Float64Array(n * 6);
  for (let i = 0; i < n; i++) for (let d = 0; d < 6; d++) edge[i * 6 + d] = (g.neighbour[i * 6 + d] as number) < 0 ? -1 : costOf(i, d);
  const from = new Float32Array(chosen.length * n);
  const to = new Float32Array(chosen.length * n);
  chosen.forEach((l, k) => {
    from.set(dijkstra(g, l, edge, false), k * n);
    to.set(dijkstra(g, l, edge, true), k * n);
  });
  return { count: chosen.length, from, to };
}

/** Cheapest entry costs from `source` to every hex (or, reversed, from every hex to `source`); `edge[i * 6 + d]` is the cost of leaving i across d (-1: none). */
function dijkstra(g: HexGrid, source: number, edge: Float64Array, reversed: boolean): Float32Array {
  const dist = new Float32Array(g.size).fill(Infinity);
  const heap = new NodeHeap();
  dist[source] = 0;
  heap.push(source, 0, 0);
  while (heap.size > 0) {
    const dv = heap.topG();
    const v = heap.pop();
    if (dv > (dist[v] as number)) continue;
    for (let d = 0; d < 6; d++) {
      const u = g.neighbour[v * 6 + d] as number;
      if (u < 0) continue;
      // Reversed: the edge u -> v, which leaves u across the opposite direction.
      const c = (reversed ? edge[u * 6 + ((d + 3) % 6)] : edge[v * 6 + d]) as number;
      if (c < 0) continue;
      const du = dv + c;
      if (du >= (dist[u] as number)) continue;
      dist[u] = du;
      heap.push(u, du, du);
    }
  }
  return dist;
}

/** Hex steps between two hexes of the grid. */
function gridDistance(g: HexGrid, a: number, b: number): number {
  const dq = (g.q[a] as number) - (g.q[b] as number);
  const dr = (g.r[a] as number) - (g.r[b] as number);
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}
