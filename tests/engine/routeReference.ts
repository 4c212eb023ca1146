import { hexKey } from '../../src/engine/hex/hexId.js';
import type { Hex } from '../../src/engine/hex/hex.js';
import { neighbours } from '../../src/engine/hex/neighbours.js';
import { basePoints } from '../../src/engine/profiles/index.js';
import { arrivalBank, crossingNeeded, type Bank } from '../../src/engine/map/mapModel.js';
import { crossingCost, HALVES_PER_DAY } from '../../src/engine/movement/crossing.js';
import type { Route, RouteInput } from '../../src/engine/movement/findRoute.js';
import { enterCost, fliesOver } from '../../src/engine/movement/terrainCost.js';
import { otherBank } from '../../src/engine/movement/walkPath.js';

/**
 * The route search as it was before integer indices (string keys, the rules called on every
 * edge), with no heuristic at all: plain Dijkstra over (hex, bank) nodes. The reference the
 * fast search is checked against.
 */
export function referenceRoute(input: RouteInput): Route | undefined {
  const { map, army, opts, weather } = input;
  const flying = fliesOver(army, input.profile.flyingIgnoresTerrain);
  const nightDouble = opts.night && army.sight === 'light';
  const perHalf = basePoints(army, input.profile) / HALVES_PER_DAY;
  const nodeKey = (h: Hex, b: Bank | undefined): string => `${hexKey(h)}/${b ?? '-'}`;
  const goalKey = hexKey(input.to);
  const best = new Map<string, number>();
  const parent = new Map<string, { key: string; hex: Hex }>();
  const open = new Heap<{ key: string; hex: Hex; bank: Bank | undefined; g: number }>((a, b) => a.g - b.g);
  const startKey = nodeKey(input.from, input.fromBank);
  best.set(startKey, 0);
  open.push({ key: startKey, hex: input.from, bank: input.fromBank, g: 0 });
  while (open.size > 0) {
    const node = open.pop();
    if ((best.get(node.key) ?? Infinity) < node.g) continue;
    if (hexKey(node.hex) === goalKey) {
      const path: Hex[] = [];
      for (let k: string | undefined = node.key; k !== undefined;) {
        const p = parent.get(k);
        if (!p) break;
        path.push(p.hex);
        k = p.key;
      }
      return { path: path.reverse(), cost: node.g };
    }
    for (const n of neighbours(node.hex)) {
      if (!map.inBounds(n) || input.blocked.has(hexKey(n))) continue;
      const s = stepCost(input, node.hex, node.bank, n, { flying, nightDouble, perHalf, weather });
      if (!s) continue;
      const g = node.g + s.cost;
      const k = nodeKey(n, s.bank);
      if (g >= (best.get(k) ?? Infinity)) continue;
      best.set(k, g);
      parent.set(k, { key: node.key, hex: n });
      open.push({ key: k, hex: n, bank: s.bank, g });
    }
  }
  return undefined;
}

/** The cost of one step by the rules (crossing, then entry), and the bank the army arrives on. */
function stepCost(input: RouteInput, at: Hex, bank: Bank | undefined, n: Hex, ctx: { flying: boolean; nightDouble: boolean; perHalf: number; weather: RouteInput['weather'] }): { cost: number; bank: Bank | undefined } | undefined {
  const { map, army, opts } = input;
  let cost = 0;
  let b = bank;
  if (!ctx.flying && crossingNeeded(map, at, b, n)) {
    const to2 = otherBank(b);
    const c = crossingCost(map, army, at, b, to2, { weather: ctx.weather, nightDouble: ctx.nightDouble, profile: input.profile });
    if (!c.ok) return undefined;
    cost += c.value.points + c.value.halves * ctx.perHalf;
    b = to2;
  }
  const e = enterCost(map, army, at, n, opts, input.profile);
  if (!e.ok) return undefined;
  return { cost: cost + e.value.cost, bank: arrivalBank(map, at, b, n) };
}

/** What walking `path` costs by the rules from the input's start, or undefined if a step is illegal or blocked. */
export function pathCost(input: RouteInput, path: readonly Hex[]): number | undefined {
  const ctx = { flying: fliesOver(input.army, input.profile.flyingIgnoresTerrain), nightDouble: input.opts.night && input.army.sight === 'light', perHalf: basePoints(input.army, input.profile) / HALVES_PER_DAY, weather: input.weather };
  let at = input.from;
  let bank = input.fromBank;
  let total = 0;
  for (const n of path) {
    if (!neighbours(at).some((x) => x.q === n.q && x.r === n.r)) return undefined;
    if (!input.map.inBounds(n) || input.blocked.has(hexKey(n))) return undefined;
    const s = stepCost(input, at, bank, n, ctx);
    if (!s) return undefined;
    total += s.cost;
    at = n;
    bank = s.bank;
  }
  return total;
}

/** A plain binary heap. */
class Heap<T> {
  private readonly items: T[] = [];
  constructor(private readonly cmp: (a: T, b: T) => number) {}
  get size(): number {
    return this.items.length;
  }
  push(x: T): void {
    const a = this.items;
    a.push(x);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (this.cmp(a[i] as T, a[p] as T) >= 0) break;
      [a[i], a[p]] = [a[p] as T, a[i] as T];
      i = p;
    }
  }
  pop(): T {
    const a = this.items;
    const top = a[0] as T;
    const last = a.pop() as T;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.cmp(a[l] as T, a[m] as T) < 0) m = l;
        if (r < a.length && this.cmp(a[r] as T, a[m] as T) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as T, a[i] as T];
        i = m;
      }
    }
    return top;
  }
}
