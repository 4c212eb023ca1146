import type { Army } from '../forces/index.js';
import type { Hex } from '../hex/index.js';
import { arrivalBank, crossingNeeded, hexGrid, hexIndex, type Bank, type HexGrid, type MapModel } from '../map/index.js';
import { basePoints, type MovementProfile } from '../profiles/index.js';
import { crossingCost, HALVES_PER_DAY } from './crossing.js';
import { connected } from './routeComponents.js';
import { NodeHeap } from './routeHeap.js';
import { BANKS, bankCode, edgeClass, landmarksFor, profileFor, usesLandmarks, type Landmarks, type Profile } from './routeProfile.js';
import { fliesOver } from './terrainCost.js';
import type { MoveOptions } from './types.js';
import { otherBank } from './walkPath.js';
import type { WeatherEffects } from '../state/index.js';

export interface RouteInput {
  readonly map: MapModel;
  readonly army: Army;
  readonly from: Hex;
  readonly fromBank: Bank | undefined;
  readonly to: Hex;
  readonly opts: MoveOptions;
  readonly weather: WeatherEffects;
  /** The campaign's movement profile (terrain costs, flying, the army's rate). */
  readonly profile: MovementProfile;
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

/**
 * The route search behind `findRoute`, on integer hex indices: nodes are (hex, bank) pairs,
 * entry costs come from the profile's table, river crossings are priced by the rules once per
 * river hex and search, and the heuristic is the hex distance times the profile's cheapest real
 * step on this map (it never overestimates, so the route found is a cheapest one). Targets the
 * army cannot reach at all are answered from the profile's components without searching.
 * 1. the start, the target and the profile; unreachable targets answered from its components;
 * 2. the step across an edge (crossings priced once per river hex);
 * 3. the heuristic (sharpened by landmarks on long searches of big maps);
 * 4. A*, within the cost bound, then past it only to tell a dearer route from none.
 * @see RULINGS 3, 4; 000 Terrain Effects
 */
export function searchRoute(input: RouteInput): RouteSearch {
  const { map } = input;
  const g = hexGrid(map);
  const start = hexIndex(map, input.from);
  const target = hexIndex(map, input.to);
  if (start < 0 || target < 0) return { kind: 'unreachable' };
  const profile = profileFor(map, input.army, input.opts, input.profile);
  if (start !== target && !connected(profile, start, target)) return { kind: 'unreachable' };
  const landmarks = usesLandmarks(g, start, target) ? landmarksFor(map, profile) : undefined;
  return astar(g, start * 3 + bankCode(input.fromBank), target, stepper(input, g, profile), heuristic(g, profile.minStep, landmarks, target), input.maxCost ?? Infinity);
}

/** One step from a search node across a direction: the next node (or -1) and what it cost. */
interface Stepper {
  next(node: number, d: number): number;
  /** The cost of the last step `next` allowed. */
  cost(): number;
}

/** Step 2: steps over the profile's prices, crossings priced by the rules once per river hex. */
function stepper(input: RouteInput, g: HexGrid, profile: Profile): Stepper {
  const { map, army, opts, weather } = input;
  const flying = fliesOver(army, input.profile.flyingIgnoresTerrain);
  const nightDouble = opts.night && army.sight === 'light';
  const perHalf = basePoints(army, input.profile) / HALVES_PER_DAY;
  const { classCost, home } = profile;
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
      const r = crossingCost(map, army, g.hexes[i] as Hex, from, to, { weather, nightDouble, profile: input.profile });
      c = r.ok ? r.value.points + r.value.halves * perHalf : -1;
      crossings.set(i, c);
    }
    return c;
  };
  let stepCost = 0;
  return {
    cost: () => stepCost,
    next(node, d) {
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
    },
  };
}

/**
 * Step 3: a lower bound on the rest of the route: hex steps times the cheapest step, sharpened
 * with the landmarks' triangle bounds on long searches of big maps (`usesLandmarks`).
 */
function heuristic(g: HexGrid, minStep: number, lm: Landmarks | undefined, target: number): (i: number) => number {
  const tq = g.q[target] as number;
  const tr = g.r[target] as number;
  const lmCount = lm?.count ?? 0;
  const n = g.size;
  const fromT = new Float64Array(lmCount);
  const toT = new Float64Array(lmCount);
  for (let k = 0; k < lmCount; k++) {
    fromT[k] = lm?.from[k * n + target] as number;
    toT[k] = lm?.to[k * n + target] as number;
  }
  return (i) => {
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
}

/**
 * Step 4: A* from `startNode` to any node of hex `target`. Steps whose estimate passes `maxCost`
 * wait aside; only if nothing within the bound arrives is the search continued past it, to tell
 * a dearer route ('tooDear') from none.
 */
function astar(g: HexGrid, startNode: number, target: number, step: Stepper, h: (i: number) => number, maxCost: number): RouteSearch {
  const nodes = g.size * 3;
  const best = new Float64Array(nodes).fill(Infinity);
  const parent = new Int32Array(nodes).fill(-1);
  const heap = new NodeHeap();
  let bound = maxCost;
  let past = false;
  // Steps left beyond the bound (node, parent, cost, estimate): searched only if nothing within it arrives.
  const beyond: number[] = [];
  const relax = (next: number, from: number, cost: number, f: number): void => {
    best[next] = cost;
    parent[next] = from;
    heap.push(next, f, cost);
  };
  best[startNode] = 0;
  heap.push(startNode, h((startNode / 3) | 0), 0);
  for (;;) {
    while (heap.size > 0) {
      const gNode = heap.topG();
      const node = heap.pop();
      if ((best[node] as number) < gNode) continue;
      if (((node / 3) | 0) === target) {
        // Every route within the bound is found before the search goes past it.
        return past ? { kind: 'tooDear' } : { kind: 'found', route: { path: unwind(g, parent, node), cost: gNode } };
      }
      for (let d = 0; d < 6; d++) {
        const next = step.next(node, d);
        if (next < 0) continue;
        const cost = gNode + step.cost();
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
