import { baseDailyPoints, type Army } from '../forces/index.js';
import { hexDistance, type Hex, hexKey, neighbours } from '../hex/index.js';
import { arrivalBank, crossingNeeded, type Bank, type MapModel } from '../map/index.js';
import type { WeatherEffects } from '../weather/index.js';
import { crossingCost, HALVES_PER_DAY } from './crossing.js';
import { enterCost, fliesOver } from './terrainCost.js';
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
}

export interface Route {
  /** Hexes to enter, not including the start. */
  readonly path: readonly Hex[];
  /** Route cost in points, multi-day crossings weighed at the army's daily rate per day. */
  readonly cost: number;
}

interface Node {
  readonly key: string;
  readonly hex: Hex;
  readonly bank: Bank | undefined;
  readonly g: number;
  readonly f: number;
}

/**
 * The cheapest legal route (A*) for the army's class, period and options, over the rules'
 * costs: terrain, roads and tracks, formed limits, night limits and river crossings (bank by
 * bank, a multi-day crossing weighed as that many days of points). Hexes holding another
 * commander are avoided (one commander per hex, no passing through). Undefined when there is
 * no route.
 * @see RULINGS 3, 4; 000 Terrain Effects
 */
export function findRoute(input: RouteInput): Route | undefined {
  const { map, army, opts, weather } = input;
  const flying = fliesOver(army, input.flyingIgnoresTerrain);
  const nightDouble = opts.night && army.sight === 'light';
  const minStep = (flying ? 6 : 4) * (nightDouble ? 2 : 1);
  const perHalf = baseDailyPoints(army) / HALVES_PER_DAY;
  const nodeKey = (h: Hex, b: Bank | undefined): string => `${hexKey(h)}/${b ?? '-'}`;
  const goalKey = hexKey(input.to);
  const h0 = (h: Hex): number => hexDistance(h, input.to) * minStep;

  const best = new Map<string, number>();
  const parent = new Map<string, { key: string; hex: Hex }>();
  const heap = new MinHeap<Node>((a, b) => a.f - b.f || b.g - a.g);
  const startKey = nodeKey(input.from, input.fromBank);
  best.set(startKey, 0);
  heap.push({ key: startKey, hex: input.from, bank: input.fromBank, g: 0, f: h0(input.from) });
  while (heap.size > 0) {
    const node = heap.pop() as Node;
    if ((best.get(node.key) ?? Infinity) < node.g) continue;
    if (hexKey(node.hex) === goalKey) return { path: unwind(parent, node.key), cost: node.g };
    for (const n of neighbours(node.hex)) {
      if (!map.inBounds(n) || input.blocked.has(hexKey(n))) continue;
      let g = node.g;
      let bank = node.bank;
      if (!flying && crossingNeeded(map, node.hex, bank, n)) {
        const to2 = otherBank(bank);
        const c = crossingCost(map, army, node.hex, bank, to2, { weather, nightDouble });
        if (!c.ok) continue;
        g += c.value.points + c.value.halves * perHalf;
        bank = to2;
      }
      const e = enterCost(map, army, node.hex, n, opts, input.flyingIgnoresTerrain);
      if (!e.ok) continue;
      g += e.value.cost;
      const arrive = arrivalBank(map, node.hex, bank, n);
      const k = nodeKey(n, arrive);
      if (g >= (best.get(k) ?? Infinity)) continue;
      best.set(k, g);
      parent.set(k, { key: node.key, hex: n });
      heap.push({ key: k, hex: n, bank: arrive, g, f: g + h0(n) });
    }
  }
  return undefined;
}

function unwind(parent: ReadonlyMap<string, { key: string; hex: Hex }>, key: string): Hex[] {
  const out: Hex[] = [];
  let k: string | undefined = key;
  while (k !== undefined) {
    const p = parent.get(k);
    if (!p) break;
    out.push(p.hex);
    k = p.key;
  }
  return out.reverse();
}

/** A small binary heap. */
class MinHeap<T> {
  private readonly items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => number) {}
  get size(): number {
    return this.items.length;
  }
  push(x: T): void {
    const a = this.items;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(a[i] as T, a[p] as T) >= 0) break;
      [a[i], a[p]] = [a[p] as T, a[i] as T];
      i = p;
    }
  }
  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l] as T, a[m] as T) < 0) m = l;
        if (r < a.length && this.less(a[r] as T, a[m] as T) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as T, a[i] as T];
        i = m;
      }
    }
    return top;
  }
}
