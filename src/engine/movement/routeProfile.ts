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
  if (!profile.landmarks) profile.landmarks = buildLandmarks(map, hexGrid(map), profile.comp, profile.edgeCost);
  return profile.landmarks;
}

const profiles = new WeakMap<MapModel, Map<string, Profile>>();

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
  const profile = buildProfile(map, hexGrid(map), army, opts, movement);
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
  const costOf = (i: number, d: number): number => {
    const j = g.neighbour[i * 6 + d] as number;
    return legal[i * 6 + d] ? (classCost[edgeClass(g, i, d, j, home ? (home[j] as number) : 0)] as number) : -1;
  };
  return { classCost, home, minStep: Number.isFinite(minStep) ? minStep : 0, comp, compStart, compAdj, landmarks: undefined, edgeCost: costOf };
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
