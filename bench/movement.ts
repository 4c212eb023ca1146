import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRngState, NO_MANUAL_DICE, SeededDice } from '../src/engine/dice/index.js';
import { NO_KNOWLEDGE } from '../src/engine/knowledge/index.js';
import { FRESH_MARCH, FRESH_STATUS, type Army } from '../src/engine/forces/index.js';
import { type Hex, hexKey, neighbours } from '../src/engine/hex/index.js';
import { buildMap, isWater, type MapModel } from '../src/engine/map/index.js';
import { beginHalfStep, findRoute, movementStep } from '../src/engine/movement/index.js';
import { newCampaign, validateScenario } from '../src/engine/campaign/index.js';
import { type CampaignState, type Order, DEFAULT_SETTINGS } from '../src/engine/state/index.js';
import { resolveTick, TICK_PLAN, type TickPlan } from '../src/engine/tick/index.js';
import { movementProfile } from '../src/engine/profiles/index.js';
import { FIRST_MORNING, NO_WEATHER_EFFECTS } from '../src/engine/weather/index.js';

const PLAN: TickPlan = { closeHalf: [movementStep], openHalf: [beginHalfStep], effects: () => NO_WEATHER_EFFECTS };

export interface BenchFigures {
  readonly name: string;
  readonly armies: number;
  readonly runs: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  /** Armies with orders, and armies that entered a hex in the timed half period. */
  readonly ordered: number;
  readonly moved: number;
}

/** A 100 x 100 map of mixed terrain with roads every tenth row, and `count` armies (200 unless said) with orders. */
function synthetic(count = 200): { state: CampaignState; map: MapModel } {
  const W = 100;
  const H = 100;
  let seed = 12345;
  const rnd = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 0x100000000;
  };
  const letters = 'cccccffhhsm';
  const terrain = Array.from({ length: H }, () => Array.from({ length: W }, () => letters[Math.floor(rnd() * letters.length)]).join(''));
  const id = (c: number, r: number): string => `${String(c).padStart(3, '0')}${String(r).padStart(3, '0')}`;
  const roads = Array.from({ length: 10 }, (_, k) => Array.from({ length: W }, (_, c) => id(c + 1, k * 10 + 5)));
  const map = buildMap({ width: W, height: H, terrain, roads, tracks: [], rivers: [], ports: [], channels: [], mudflats: [], towns: [], fortifications: [], regions: [], labels: [] });
  const armies: Record<string, Army> = {};
  const used = new Set<string>();
  const all = map.allHexes().filter((h) => !isWater(map.terrainAt(h)));
  for (let i = 0; armies[`a${count - 1}`] === undefined; i++) {
    const h = all[Math.floor(rnd() * all.length)] as Hex;
    if (used.has(hexKey(h))) continue;
    used.add(hexKey(h));
    const n = Object.keys(armies).length;
    const cavalry = n % 5 === 0;
    armies[`a${n}`] = {
      id: `a${n}`, name: `Army ${n}`, commander: `C${n}`, side: n % 2 === 0 ? 'law' : 'chaos', hex: h,
      movementClass: cavalry ? 'cavalry' : 'infantry', sight: 'light', nocturnal: false,
      regiments: [{ id: `a${n}-1`, name: 'R1', role: 'assault', originalFigures: 20, companies: [{ troopType: 'foot', basic: 'infantry', figures: 20 }] }],
      individuals: [], scouts: 1, vessels: {}, formation: 'formed', status: FRESH_STATUS,
      march: { ...FRESH_MARCH, pointsLeft: cavalry ? 24 : 12 },
    };
  }
  const state: CampaignState = {
    id: 'bench', name: 'bench', scenarioId: 'bench', season: '', status: 'running', settings: DEFAULT_SETTINGS,
    clock: { day: 1, half: 0 },
    sides: { law: { id: 'law', name: 'Law', colour: '#0000ff', hostileTo: ['chaos'] }, chaos: { id: 'chaos', name: 'Chaos', colour: '#ff0000', hostileTo: ['law'] } },
    armies, orders: {}, weather: FIRST_MORNING, contacts: {}, couriers: {}, rng: createRngState(1), manualDice: NO_MANUAL_DICE, knowledge: NO_KNOWLEDGE, nextId: 1, nextCourierId: 1, plans: {},
  };
  return { state: withOrders(state, map, rnd), map };
}

/** Gives every army a random-walk order of four hexes (unformed where the terrain needs it). */
function withOrders(state: CampaignState, map: MapModel, rnd: () => number): CampaignState {
  const orders: Record<string, Order> = {};
  for (const a of Object.values(state.armies)) {
    const path: Hex[] = [];
    let cur = a.hex;
    for (let k = 0; k < 4; k++) {
      const options = neighbours(cur).filter((n) => map.inBounds(n) && !isWater(map.terrainAt(n)));
      const n = options[Math.floor(rnd() * options.length)];
      if (!n) break;
      path.push(n);
      cur = n;
    }
    orders[a.id] = { armyId: a.id, kind: 'move', period: 'day', path, forced: false, unformed: true, save: false, givenBy: 'bench', givenAt: state.clock };
  }
  return { ...state, orders };
}

function time(name: string, state: CampaignState, map: MapModel, runs: number, plan: TickPlan = PLAN): BenchFigures {
  const samples: number[] = [];
  let moved = 0;
  for (let i = 0; i < runs; i++) {
    const dice = new SeededDice(createRngState(i + 1));
    const t0 = performance.now();
    const out = resolveTick(state, map, dice, plan);
    samples.push(performance.now() - t0);
    if (i === 0) moved = out.events.filter((e) => e.type === 'armyMoved').length;
  }
  samples.sort((a, b) => a - b);
  const pick = (q: number): number => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return { name, armies: Object.keys(state.armies).length, runs, medianMs: round(pick(0.5)), p99Ms: round(pick(0.99)), ordered: Object.keys(state.orders).length, moved };
}

const round = (x: number): number => Math.round(x * 100) / 100;

/** The Valormr scenario with every army ordered towards a hex six hexes away, if the file exists. */
function valormr(): { state: CampaignState; map: MapModel } | undefined {
  const file = fileURLToPath(new URL('../assets/scenarios/valormr.json', import.meta.url));
  if (!existsSync(file)) return undefined;
  const check = validateScenario(JSON.parse(readFileSync(file, 'utf8')));
  if (!check.ok) return undefined;
  const map = buildMap(check.scenario.map as Parameters<typeof buildMap>[0]);
  const state = newCampaign({ id: 'bench', name: 'bench', scenario: check.scenario, seed: 1 });
  const orders: Record<string, Order> = {};
  const blocked = new Set(Object.values(state.armies).map((a) => hexKey(a.hex)));
  for (const a of Object.values(state.armies)) {
    const targets = map.allHexes().filter((h) => !blocked.has(hexKey(h)) && !isWater(map.terrainAt(h)));
    const to = targets[(a.id.length * 7919) % Math.max(1, targets.length)];
    if (!to) continue;
    const route = findRoute({ map, army: a, from: a.hex, fromBank: a.bank, to, opts: { period: 'day', night: false, unformed: true }, weather: NO_WEATHER_EFFECTS, profile: movementProfile(DEFAULT_SETTINGS), blocked });
    if (route) orders[a.id] = { armyId: a.id, kind: 'move', period: 'day', path: route.path.slice(0, 6), forced: false, unformed: true, save: false, givenBy: 'bench', givenAt: state.clock };
  }
  return { state: { ...state, status: 'running', orders }, map };
}

/** Times a movement tick (resolution, daily books, contacts) on the synthetic map and on Valormr. */
export function benchMovement(runs = 50): BenchFigures[] {
  const out: BenchFigures[] = [];
  const syn = synthetic();
  out.push(time('movement tick, synthetic 200 armies on 100x100', syn.state, syn.map, runs));
  const v = valormr();
  if (v) out.push(time('movement tick, Valormr scenario', v.state, v.map, runs));
  for (const f of out) console.log(`${f.name}: ${f.armies} armies (${f.ordered} with orders, ${f.moved} moved), median ${f.medianMs} ms, p99 ${f.p99Ms} ms (${f.runs} runs)`);
  return out;
}

/**
 * The state after `ticks` whole ticks, each army given a fresh random-walk order before each, so
 * the timed tick also meets the contacts, halts and books earlier ticks left (as a campaign does).
 */
function afterTicks(state: CampaignState, map: MapModel, ticks: number): CampaignState {
  let s = state;
  let seed = 777;
  const rnd = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 0x100000000;
  };
  for (let i = 0; i < ticks; i++) s = withOrders(resolveTick(s, map, new SeededDice(createRngState(100 + i)), TICK_PLAN).state, map, rnd);
  return s;
}

/** The sizes the growth order is measured at. */
export const GROWTH_SIZES = [100, 200, 400, 800, 1600] as const;

/**
 * The growth order of a whole engine tick (every rule of TICK_PLAN: movement, contacts, the daily
 * books, what each army saw) in the number of armies: the synthetic 100 x 100 map with 100 to
 * 1,600 armies, each with an order, and the exponent k of a least-squares fit time ~ N^k over the
 * medians (1 is linear).
 */
export function benchGrowth(runs = 7, sizes: readonly number[] = GROWTH_SIZES): { medians: Record<number, number>; exponent: number } {
  const medians: Record<number, number> = {};
  for (const n of sizes) {
    const syn = synthetic(n);
    medians[n] = time(`engine tick, ${n} armies`, afterTicks(syn.state, syn.map, 3), syn.map, runs, TICK_PLAN).medianMs;
  }
  const xs = sizes.map((n) => Math.log(n));
  const ys = sizes.map((n) => Math.log(Math.max(0.01, medians[n] ?? 0)));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((a, x, i) => a + (x - mx) * ((ys[i] ?? 0) - my), 0);
  const den = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const exponent = round(num / den);
  console.log(`engine tick (TICK_PLAN) on 100x100 by armies: ${sizes.map((n) => `${n}: ${medians[n]} ms`).join(', ')}; growth ~ N^${exponent}`);
  return { medians, exponent };
}

if (import.meta.url === `file://${process.argv[1]}`) benchMovement();
