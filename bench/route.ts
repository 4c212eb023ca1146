import { buildMap, type MapModel } from '../src/engine/map/index.js';
import { planMove } from '../src/engine/movement/index.js';
import { newCampaign, validateScenario } from '../src/engine/campaign/index.js';
import type { CampaignState } from '../src/engine/state/index.js';
import { NO_WEATHER_EFFECTS } from '../src/engine/weather/index.js';
import { line, median } from './stats.js';
import { syntheticScenario } from './synthetic.js';

/**
 * Route search on a 200 x 200 map, through the code `/move` uses (`planMove`: route search,
 * walk, schedule and preview), without the database. The map is the synthetic terrain with a road
 * across the middle, a minor river down column 100 (bridges and fords every 20 rows), a lake
 * ringing an island hex, and 40 other commanders standing in the way.
 */
const SIZE = 200;
const id = (c: number, r: number): string => `${String(c).padStart(3, '0')}${String(r).padStart(3, '0')}`;

function routeCampaign(): { state: CampaignState; map: MapModel } {
  const base = syntheticScenario({ width: SIZE, height: SIZE, armies: 40 }) as {
    map: { terrain: string[] } & Record<string, unknown>;
    armies: { id: string; hex: string; movementClass: string }[];
  } & Record<string, unknown>;
  // a lake of open sea around the island hex 150050
  const terrain = base.map.terrain.map((row) => row.split(''));
  const island = { c: 150, r: 50 };
  for (let dc = -2; dc <= 2; dc++) for (let dr = -2; dr <= 2; dr++) {
    const row = terrain[island.r - 1 + dr];
    if (row && !(dc === 0 && dr === 0)) row[island.c - 1 + dc] = 'o';
  }
  const river = {
    id: 'long', name: 'Long River',
    hexes: Array.from({ length: SIZE }, (_, i) => ({ hex: id(100, i + 1), size: 'minor', ...(i % 20 === 10 ? { crossing: i % 40 === 10 ? 'bridge' : 'ford' } : {}) })),
  };
  const movers = [
    { id: 'inf', movementClass: 'infantry', hex: id(2, 2) },
    { id: 'cav', movementClass: 'cavalry', hex: id(3, 2) },
    { id: 'post', movementClass: 'courier', hex: id(2, 3) },
  ].map((m) => ({ ...m, name: m.id, commander: m.id, side: 'red', sight: 'light', regiments: [{ id: 'r1', name: 'First', companies: [{ troopType: 'foot', basic: 'infantry', figures: 10 }] }] }));
  const scenario = {
    ...base,
    map: { ...base.map, terrain: terrain.map((r) => r.join('')), rivers: [river] },
    armies: [...movers, ...base.armies.filter((a) => a.hex !== id(2, 2))],
  };
  const check = validateScenario(scenario);
  if (!check.ok) throw new Error(`bench: bad route scenario: ${check.problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  const map = buildMap(check.scenario.map);
  const state = newCampaign({ id: 'route', name: 'Route', scenario: check.scenario, seed: 1 });
  return { state: { ...state, status: 'running' }, map };
}

interface RouteCase {
  readonly name: string;
  readonly army: string;
  readonly to: string;
  readonly unformed: boolean;
}

const CASES: readonly RouteCase[] = [
  { name: 'infantry, corner to corner, unformed', army: 'inf', to: id(199, 199), unformed: true },
  { name: 'infantry, corner to corner, formed', army: 'inf', to: id(199, 199), unformed: false },
  { name: 'cavalry, corner to corner, unformed', army: 'cav', to: id(199, 198), unformed: true },
  { name: 'courier, corner to corner', army: 'post', to: id(198, 199), unformed: false },
  { name: 'infantry, to the island (unreachable)', army: 'inf', to: id(150, 50), unformed: true },
];

export interface RouteBench {
  /** The slowest case's median (ms). */
  readonly worstMs: number;
  readonly cases: readonly { name: string; ms: number; outcome: string }[];
}

/** Times each case (median of `runs`, cases in turn); `worstMs` is the slowest case. */
export function benchRoute(runs = 7): RouteBench {
  const { state, map } = routeCampaign();
  const samples = CASES.map(() => [] as number[]);
  const outcomes = CASES.map(() => '');
  for (let i = 0; i < runs; i++) {
    CASES.forEach((c, k) => {
      const to = map.parse(c.to);
      const t0 = performance.now();
      const plan = planMove(state, map, NO_WEATHER_EFFECTS, c.army, { to, period: 'day', forced: false, unformed: c.unformed, save: false, crossAtEnd: false });
      samples[k]?.push(performance.now() - t0);
      outcomes[k] = plan.ok ? `${plan.value.steps.length} hexes, ${plan.value.days} days` : plan.violation.code;
    });
  }
  const cases = CASES.map((c, k) => ({ name: c.name, ms: median(samples[k] ?? []), outcome: outcomes[k] ?? '' }));
  for (const c of cases) line(`  ${c.name.padEnd(44)} median ${c.ms.toFixed(1).padStart(7)} ms   (${c.outcome})`);
  const worstMs = Math.max(...cases.map((c) => c.ms));
  // The first run of each case on this fresh map builds the map's tables for that army's profile.
  line(`  first /move of each case (tables built for its profile): worst ${Math.max(...samples.map((s) => s[0] ?? 0)).toFixed(1)} ms`);
  line(`${'route search, 200 x 200, worst case through planMove'.padEnd(64)} ${`${worstMs.toFixed(1)} ms`.padStart(12)}   goal: < 20 ms`);
  return { worstMs, cases };
}

