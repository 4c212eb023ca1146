import { baseDailyPoints, type Army } from '../forces/army.js';
import type { Hex } from '../hex/hex.js';
import { arrivalBank, crossingNeeded, hexGrid, hexIndex, TERRAINS, type Bank, type HexGrid, type MapModel } from '../map/mapModel.js';
import type { WeatherEffects } from '../weather/types.js';
import { crossingCost, HALVES_PER_DAY } from './crossing.js';
import { enterCost, fliesOver, isHomeTerrain } from './terrainCost.js';
import type { MoveOptions } from './types.js';
import { otherBank } from './walkPath.js';

export interface RouteInput {
  readonly map: MapModel;
  readonly army: Army;
  readonly from: Hex;
  readonly fromBank: Bank | undefined;
  readonly to: Hex;
  readonly opts: MoveOptions;
  readonly weather: WeatherEffects;
  readonly flyingIgnoresTerrain: boolean;
  /** Hexes the route may not enter or pass (other commanders). */
  readonly blocked: ReadonlySet<string>;
  /**
   * Routes dearer than this (in `Route.cost` points) are of no use to the caller: the search
   * stops expanding past it and answers 'tooDear' when the hex can only be reached dearer.
   */
  readonly maxCost?: number;
}

export interface Route {
  /** Hexes to enter, not including the start. */
  readonly path: readonly Hex[];
  /** Route cost in points, multi-day crossings weighed at the army's daily rate per day. */
  readonly cost: number;
}

/** What a route search found: the cheapest route, no route at all, or only routes dearer than `maxCost`. */
export type RouteSearch =
  | { readonly kind: 'found'; readonly route: Route }
  | { readonly kind: 'unreachable' }
  | { readonly kind: 'tooDear' };

/**
 * The cheapest legal route (A*) for the army's class, period and options, over the rules'
 * costs: terrain, roads and tracks, formed limits, night limits and river crossings (bank by
 * bank, a multi-day crossing weighed as that many days of points). Hexes holding another
 * commander are avoided (one commander per hex, no passing through). Undefined when there is
 * no route.
 * @see RULINGS 3, 4; 000 Terrain Effects
 */
export function findRoute(input: RouteInput): Route | undefined {
  const found = searchRoute(input);
  return found.kind === 'found' ? found.route : undefined;
}

/** Bank codes of a search node (node = hex index * 3 + bank code). */
const BANKS: readonly (Bank | undefined)[] = [undefined, 'left', 'right'];
const bankCode = (b: Bank | undefined): number => (b === 'left' ? 1 : b === 'right' ? 2 : 0);

/**
 * Edge classes: an entry cost depends only on the terrain left and entered, the link along the
 * edge and whether the army counts the entered hex as home terrain (`enterCost` reads nothing
 * else of the map), so each class is priced once by `enterCost` itself and shared by every edge
 * of that class. tests/engine/findRoute.test.ts checks routes against a Dijkstra that calls the
 * rules on every edge, so a rule that starts reading more of the map shows up there.
 */
const T = TERRAINS.length;
const CLASSES = T * T * 3 * 2;
const edgeClass = (g: HexGrid, i: number, d: number, j: number, home: number): number =>
  (((g.terrain[i] as number) * T + (g.terrain[j] as number)) * 3 + (g.link[i * 6 + d] as number)) * 2 + home;

/**
 * What a movement profile costs on one map, computed once and cached with the map: entry cost
 * per edge class (-1: may not enter), the cheapest legal step (for the heuristic) and the
 * strongly connected components of the legal-entry graph (for answering unreachable targets
 * without a search). Blocked hexes and river crossings are left out (crossings only add cost,
 * and blocking only removes routes), so "not connected here" means no route at all.
 */
interface Profile {
  readonly classCost: Float64Array;
  /** 1 where the army counts the hex as its home terrain; undefined without home terrain. */
  readonly home: Uint8Array | undefined;
  readonly minStep: number;
  /** Component of each hex; components are numbered in reverse topological order (Tarjan). */
  readonly comp: Int32Array;
  /** Condensation: component c's successors are compAdj[compStart[c] .. compStart[c + 1]). */
  readonly compStart: Int32Array;
  readonly compAdj: Int32Array;
  /** On big maps: distances from and to a few landmark hexes, for a sharper heuristic. */
  readonly landmarks: Landmarks | undefined;
}

/**
 * Landmarks (the ALT heuristic): cheapest costs from each landmark to every hex (`from`) and from
 * every hex to each landmark (`to`), k * size entries each, over entry costs alone. By the triangle
 * inequality, cost(v, t) >= from[L][t] - from[L][v] and >= to[L][v] - to[L][t]; crossings only add
 * cost and blocked hexes only remove routes, so these bounds never overestimate a real route.
 */
interface Landmarks {
  readonly count: number;
  readonly from: Float32Array;
  readonly to: Float32Array;
}

/** Maps from this many hexes up keep landmarks (below it a search is cheap anyway). */
const LANDMARK_MIN_HEXES = 2500;

const profiles = new WeakMap<MapModel, Map<string, Profile>>();

/**
 * Everything `enterCost` reads of the army and options. Armies with the same key pay the same
 * entry cost on every edge.
 */
function profileKey(army: Army, opts: MoveOptions, flyingIgnoresTerrain: boolean): string {
  const home = army.homeTerrain;
  return [army.movementClass, fliesOver(army, flyingIgnoresTerrain) ? 'fly' : '', opts.night && army.sight === 'light' ? 'night' : '', opts.unformed ? 'unformed' : '', home?.terrain ?? '', home?.region ?? ''].join('|');
}

function profileFor(map: MapModel, army: Army, opts: MoveOptions, flyingIgnoresTerrain: boolean): Profile {
  let byKey = profiles.get(map);
  if (!byKey) {
    byKey = new Map();
    profiles.set(map, byKey);
  }
  const key = profileKey(army, opts, flyingIgnoresTerrain);
  const hit = byKey.get(key);
  if (hit) return hit;
  const profile = buildProfile(map, hexGrid(map), army, opts, flyingIgnoresTerrain);
  byKey.set(key, profile);
  return profile;
}

function buildProfile(map: MapModel, g: HexGrid, army: Army, opts: MoveOptions, flyingIgnoresTerrain: boolean): Profile {
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
        const e = enterCost(map, army, g.hexes[i] as Hex, g.hexes[j] as Hex, opts, flyingIgnoresTerrain);
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
  const landmarks = n >= LANDMARK_MIN_HEXES ? buildLandmarks(map, g, comp, costOf) : undefined;
  return { classCost, home, minStep: Number.isFinite(minStep) ? minStep : 0, comp, compStart, compAdj, landmarks };
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
  const from = new Float32Array(chosen.length * n);
  const to = new Float32Array(chosen.length * n);
  chosen.forEach((l, k) => {
    from.set(dijkstra(g, l, costOf, false), k * n);
    to.set(dijkstra(g, l, costOf, true), k * n);
  });
  return { count: chosen.length, from, to };
}

/** Cheapest entry costs from `source` to every hex (or, reversed, from every hex to `source`). */
function dijkstra(g: HexGrid, source: number, costOf: (i: number, d: number) => number, reversed: boolean): Float32Array {
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
      const c = reversed ? costOf(u, (d + 3) % 6) : costOf(v, d);
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

/** Tarjan's strongly connected components, iteratively; components come out in reverse topological order. */
function stronglyConnected(g: HexGrid, legal: Int8Array): Int32Array {
  const n = g.size;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const comp = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callDir = new Int8Array(n);
  let sp = 0;
  let next = 0;
  let comps = 0;
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    let cs = 0;
    callNode[0] = s;
    callDir[0] = 0;
    index[s] = low[s] = next++;
    stack[sp++] = s;
    onStack[s] = 1;
    while (cs >= 0) {
      const v = callNode[cs] as number;
      const d = callDir[cs] as number;
      if (d < 6) {
        callDir[cs] = d + 1;
        if (!legal[v * 6 + d]) continue;
        const w = g.neighbour[v * 6 + d] as number;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          cs++;
          callNode[cs] = w;
          callDir[cs] = 0;
        } else if (onStack[w]) {
          low[v] = Math.min(low[v] as number, index[w] as number);
        }
        continue;
      }
      if (low[v] === index[v]) {
        let x: number;
        do {
          x = stack[--sp] as number;
          onStack[x] = 0;
          comp[x] = comps;
        } while (x !== v);
        comps++;
      }
      cs--;
      if (cs >= 0) {
        const u = callNode[cs] as number;
        low[u] = Math.min(low[u] as number, low[v] as number);
      }
    }
  }
  return comp;
}

/** The graph of components (edges between different components, without repeats). */
function condensation(g: HexGrid, legal: Int8Array, comp: Int32Array): { compStart: Int32Array; compAdj: Int32Array } {
  let count = 0;
  for (let c = 0; c < comp.length; c++) count = Math.max(count, (comp[c] as number) + 1);
  const pairs: number[] = [];
  for (let i = 0; i < g.size; i++) {
    const ci = comp[i] as number;
    for (let d = 0; d < 6; d++) {
      if (!legal[i * 6 + d]) continue;
      const cj = comp[g.neighbour[i * 6 + d] as number] as number;
      if (cj !== ci) pairs.push(ci * count + cj);
    }
  }
  const sorted = Float64Array.from(pairs).sort();
  const compStart = new Int32Array(count + 1);
  const adj: number[] = [];
  let last = -1;
  for (const p of sorted) {
    if (p === last) continue;
    last = p;
    const from = Math.floor(p / count);
    adj.push(p - from * count);
    compStart[from + 1] = (compStart[from + 1] as number) + 1;
  }
  for (let c = 0; c < count; c++) compStart[c + 1] = (compStart[c + 1] as number) + (compStart[c] as number);
  return { compStart, compAdj: Int32Array.from(adj) };
}

/** Whether any legal sequence of entries leads from hex `s` to hex `t` (blocked hexes and crossings aside). */
function connected(p: Profile, s: number, t: number): boolean {
  const cs = p.comp[s] as number;
  const ct = p.comp[t] as number;
  if (cs === ct) return true;
  // Reverse topological numbering: a component only reaches components numbered lower.
  if (ct > cs) return false;
  const seen = new Uint8Array(cs + 1);
  const queue = [cs];
  seen[cs] = 1;
  while (queue.length > 0) {
    const c = queue.pop() as number;
    for (let k = p.compStart[c] as number; k < (p.compStart[c + 1] as number); k++) {
      const x = p.compAdj[k] as number;
      if (x === ct) return true;
      if (x < ct || seen[x]) continue;
      seen[x] = 1;
      queue.push(x);
    }
  }
  return false;
}

/**
 * The route search behind `findRoute`, on integer hex indices: nodes are (hex, bank) pairs,
 * entry costs come from the profile's table, river crossings are priced by the rules once per
 * river hex and search, and the heuristic is the hex distance times the profile's cheapest real
 * step on this map (it never overestimates, so the route found is a cheapest one). Targets the
 * army cannot reach at all are answered from the profile's components without searching.
 * @see RULINGS 3, 4; 000 Terrain Effects
 */
export function searchRoute(input: RouteInput): RouteSearch {
  const { map, army, opts, weather } = input;
  const g = hexGrid(map);
  const start = hexIndex(map, input.from);
  const target = hexIndex(map, input.to);
  if (start < 0 || target < 0) return { kind: 'unreachable' };
  const profile = profileFor(map, army, opts, input.flyingIgnoresTerrain);
  if (start !== target && !connected(profile, start, target)) return { kind: 'unreachable' };

  const flying = fliesOver(army, input.flyingIgnoresTerrain);
  const nightDouble = opts.night && army.sight === 'light';
  const perHalf = baseDailyPoints(army) / HALVES_PER_DAY;
  const { classCost, home, minStep } = profile;
  const nb = g.neighbour;
  const blocked = new Uint8Array(g.size);
  for (const key of input.blocked) {
    const comma = key.indexOf(',');
    const i = hexIndex(map, { q: Number(key.slice(0, comma)), r: Number(key.slice(comma + 1)) });
    if (i >= 0) blocked[i] = 1;
  }
  // Crossing cost per river hex for this search (points + halves at the daily rate; -1: refused).
  const crossings = new Map<number, number>();
  const crossing = (i: number, from: Bank | undefined, to: Bank | undefined): number => {
    let c = crossings.get(i);
    if (c === undefined) {
      const r = crossingCost(map, army, g.hexes[i] as Hex, from, to, { weather, nightDouble });
      c = r.ok ? r.value.points + r.value.halves * perHalf : -1;
      crossings.set(i, c);
    }
    return c;
  };

  // One step from `node` across direction d: the next node (or -1), its cost in `stepCost`.
  let stepCost = 0;
  const step = (node: number, d: number): number => {
    const i = (node / 3) | 0;
    const j = nb[i * 6 + d] as number;
    if (j < 0 || blocked[j]) return -1;
    let cost = 0;
    let bank = BANKS[node - i * 3];
    if (!flying && bank !== undefined && g.river[i] && crossingNeeded(map, g.hexes[i] as Hex, bank, g.hexes[j] as Hex)) {
      const to2 = otherBank(bank);
      const c = crossing(i, bank, to2);
      if (c < 0) return -1;
      cost += c;
      bank = to2;
    }
    // Every class on the map was priced when the profile was built.
    const e = classCost[edgeClass(g, i, d, j, home ? (home[j] as number) : 0)] as number;
    if (e < 0) return -1;
    stepCost = cost + e;
    return j * 3 + (g.river[j] ? bankCode(arrivalBank(map, g.hexes[i] as Hex, bank, g.hexes[j] as Hex)) : 0);
  };

  // Lower bound on the rest of the route: hex steps times the cheapest step, sharpened with the
  // landmarks' triangle bounds where the map keeps them.
  const tq = g.q[target] as number;
  const tr = g.r[target] as number;
  const lm = profile.landmarks;
  const lmCount = lm?.count ?? 0;
  const n = g.size;
  const fromT = new Float64Array(lmCount);
  const toT = new Float64Array(lmCount);
  for (let k = 0; k < lmCount; k++) {
    fromT[k] = lm?.from[k * n + target] as number;
    toT[k] = lm?.to[k * n + target] as number;
  }
  const h = (i: number): number => {
    const dq = (g.q[i] as number) - tq;
    const dr = (g.r[i] as number) - tr;
    let best = ((Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2) * minStep;
    if (lm) {
      for (let k = 0; k < lmCount; k++) {
        const a = (fromT[k] as number) - (lm.from[k * n + i] as number);
        if (a > best && a < Infinity) best = a;
        const b = (lm.to[k * n + i] as number) - (toT[k] as number);
        if (b > best && b < Infinity) best = b;
      }
    }
    return best;
  };

  const nodes = g.size * 3;
  const best = new Float64Array(nodes).fill(Infinity);
  const parent = new Int32Array(nodes).fill(-1);
  const heap = new NodeHeap();
  const startNode = start * 3 + bankCode(input.fromBank);
  let bound = input.maxCost ?? Infinity;
  let past = false;
  // Steps left beyond the bound (node, parent, cost, estimate): searched only if nothing within it arrives.
  const beyond: number[] = [];
  const relax = (next: number, from: number, cost: number, f: number): void => {
    best[next] = cost;
    parent[next] = from;
    heap.push(next, f, cost);
  };
  best[startNode] = 0;
  heap.push(startNode, h(start), 0);
  for (;;) {
    while (heap.size > 0) {
      const gNode = heap.topG();
      const node = heap.pop();
      if ((best[node] as number) < gNode) continue;
      const i = (node / 3) | 0;
      if (i === target) {
        // Every route within the bound is found before the search goes past it.
        return past ? { kind: 'tooDear' } : { kind: 'found', route: { path: unwind(g, parent, node), cost: gNode } };
      }
      for (let d = 0; d < 6; d++) {
        const next = step(node, d);
        if (next < 0) continue;
        const cost = gNode + stepCost;
        if (cost >= (best[next] as number)) continue;
        const f = cost + h((next / 3) | 0);
        if (f > bound) beyond.push(next, node, cost, f);
        else relax(next, node, cost, f);
      }
    }
    if (beyond.length === 0 || past) return { kind: 'unreachable' };
    // Nothing within the bound: go on past it only to tell a dearer route from none.
    past = true;
    bound = Infinity;
    for (let k = 0; k < beyond.length; k += 4) {
      const next = beyond[k] as number;
      const cost = beyond[k + 2] as number;
      if (cost < (best[next] as number)) relax(next, beyond[k + 1] as number, cost, beyond[k + 3] as number);
    }
  }
}

function unwind(g: HexGrid, parent: Int32Array, node: number): Hex[] {
  const out: Hex[] = [];
  for (let k = node; parent[k] !== -1; k = parent[k] as number) {
    const i = (k / 3) | 0;
    out.push({ q: g.q[i] as number, r: g.r[i] as number });
  }
  return out.reverse();
}

/** Heap order: the smaller estimate first; among equal estimates the larger cost so far. */
const before = (f: number, g: number, kf: number, kg: number): boolean => f < kf || (f === kf && g > kg);

/**
 * A binary min-heap of search nodes on typed arrays, ordered by estimate and, among equal
 * estimates, by the larger cost so far (deeper nodes first).
 */
class NodeHeap {
  private node = new Int32Array(1024);
  private f = new Float64Array(1024);
  private g = new Float64Array(1024);
  size = 0;

  push(node: number, f: number, g: number): void {
    if (this.size === this.node.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(f, g, this.f[p] as number, this.g[p] as number)) break;
      this.move(p, i);
      i = p;
    }
    this.put(i, node, f, g);
  }

  /** Cost so far of the top node. */
  topG(): number {
    return this.g[0] as number;
  }

  pop(): number {
    const top = this.node[0] as number;
    const last = --this.size;
    if (last > 0) {
      const node = this.node[last] as number;
      const f = this.f[last] as number;
      const g = this.g[last] as number;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        const r = l + 1;
        const m = r < last && before(this.f[r] as number, this.g[r] as number, this.f[l] as number, this.g[l] as number) ? r : l;
        if (!before(this.f[m] as number, this.g[m] as number, f, g)) break;
        this.move(m, i);
        i = m;
      }
      this.put(i, node, f, g);
    }
    return top;
  }

  private move(from: number, to: number): void {
    this.node[to] = this.node[from] as number;
    this.f[to] = this.f[from] as number;
    this.g[to] = this.g[from] as number;
  }

  private put(i: number, node: number, f: number, g: number): void {
    this.node[i] = node;
    this.f[i] = f;
    this.g[i] = g;
  }

  private grow(): void {
    const node = new Int32Array(this.node.length * 2);
    const f = new Float64Array(this.f.length * 2);
    const g = new Float64Array(this.g.length * 2);
    node.set(this.node);
    f.set(this.f);
    g.set(this.g);
    this.node = node;
    this.f = f;
    this.g = g;
  }
}
