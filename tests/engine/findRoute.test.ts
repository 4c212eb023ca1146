import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import { DIRECTIONS, type Hex } from '../../src/engine/hex/hex.js';
import { hexKey } from '../../src/engine/hex/hexId.js';
import { neighbours } from '../../src/engine/hex/neighbours.js';
import { defaultBank, hexGrid, hexIndex, LINK_ROAD, LINK_TRACK, TERRAINS, type Bank, type MapModel, type RiverData } from '../../src/engine/map/mapModel.js';
import { searchRoute, type RouteInput } from '../../src/engine/movement/findRoute.js';
import { profileFor } from '../../src/engine/movement/routeProfile.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, hx, mapOf, valormr } from './movementFixtures.js';
import { pathCost, referenceRoute } from './routeReference.js';

/** A deterministic random source for building one case from a seed. */
function lcg(seed: number): { next: () => number; int: (n: number) => number; pick: <T>(xs: readonly T[]) => T; chance: (p: number) => boolean } {
  let s = seed >>> 0 || 1;
  const next = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 0x100000000;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: (xs) => xs[int(xs.length)] as (typeof xs)[number], chance: (p) => next() < p };
}

const id = (c: number, r: number): string => `${String(c).padStart(2, '0')}${String(r).padStart(2, '0')}`;

/**
 * A random map (every terrain, roads and tracks as random walks, a river down a column and one
 * along a row with random sizes and crossing sites, a home region), a random army, options,
 * weather and blocked hexes, and a random start and target.
 */
function randomCase(seed: number, w: number, h: number): RouteInput {
  const rnd = lcg(seed);
  const rows = Array.from({ length: h }, () => Array.from({ length: w }, () => rnd.pick('cccccffhhsmwo'.split(''))).join(''));
  const walk = (): string[] => {
    let c = 1 + rnd.int(w);
    let r = 1 + rnd.int(h);
    const out = [id(c, r)];
    for (let k = 0; k < 3 + rnd.int(Math.max(w, h)); k++) {
      const dc = rnd.int(3) - 1;
      const dr = dc === 0 ? rnd.pick([-1, 1]) : rnd.int(2) - (c % 2 === 1 ? 1 : 0);
      if (c + dc < 1 || c + dc > w || r + dr < 1 || r + dr > h) break;
      c += dc;
      r += dr;
      out.push(id(c, r));
    }
    return out;
  };
  const step = () => ({ size: rnd.pick(['major', 'minor'] as const), ...(rnd.chance(0.4) ? { crossing: rnd.pick(['ford', 'ferry', 'bridge'] as const) } : {}) });
  const col = 1 + rnd.int(w);
  const row = 1 + rnd.int(h);
  const rivers: RiverData[] = [
    { id: 'down', name: 'Down', hexes: Array.from({ length: h }, (_, i) => ({ hex: id(col, i + 1), ...step() })) },
    { id: 'across', name: 'Across', hexes: Array.from({ length: w }, (_, i) => ({ hex: id(i + 1, row), ...step() })).filter((s) => s.hex !== id(col, row)).slice(0, Math.max(1, col - 2)) },
  ];
  const all: string[] = [];
  for (let r = 1; r <= h; r++) for (let c = 1; c <= w; c++) all.push(id(c, r));
  const map = mapOf(rows, {
    roads: Array.from({ length: rnd.int(4) }, walk),
    tracks: Array.from({ length: rnd.int(4) }, walk),
    rivers,
    regions: [{ id: 'home', name: 'Home', hexes: all.filter(() => rnd.chance(0.5)) }],
  });
  const movementClass = rnd.pick(['infantry', 'infantry', 'cavalry', 'courier', 'creature'] as const);
  const from = rnd.pick(all);
  const base: Army = army('mover', from, {
    movementClass,
    sight: rnd.pick(['light', 'dark'] as const),
    flying: rnd.chance(0.15),
    ...(movementClass === 'creature' ? { baseMovePoints: 6 + rnd.int(30) } : {}),
    ...(rnd.chance(0.3) ? { homeTerrain: { terrain: rnd.pick(['forest', 'swamp', 'hill'] as const), ...(rnd.chance(0.5) ? { region: 'home' } : {}) } } : {}),
  });
  const riverHexes = rivers.flatMap((r) => r.hexes.map((s) => hx(s.hex)));
  const mover: Army = { ...base, march: { ...base.march, noRaftHexes: riverHexes.filter(() => rnd.chance(0.3)) } };
  const fromHex = hx(from);
  const split = defaultBank(map, fromHex);
  const fromBank: Bank | undefined = split ? rnd.pick(['left', 'right'] as const) : undefined;
  const blocked = new Set(all.filter((x) => x !== from && rnd.chance(0.1)).map((x) => hexKey(hx(x))));
  const night = rnd.chance(0.3);
  return {
    map, army: mover, from: fromHex, fromBank, to: hx(rnd.pick(all)),
    opts: { period: night ? 'night' : 'day', night, unformed: rnd.chance(0.5) },
    weather: { ...NO_WEATHER_EFFECTS, fordsClosed: rnd.chance(0.3), ferriesClosed: rnd.chance(0.3), majorAsMinor: rnd.chance(0.2), minorFordable: rnd.chance(0.2), majorFordable: rnd.chance(0.1) },
    profile: valormr(rnd.chance(0.7)),
    blocked,
  };
}

/** The fast search agrees with plain Dijkstra: same reachability, same cost, a legal path of that cost. */
function expectAgreement(input: RouteInput): void {
  const ref = referenceRoute(input);
  const got = searchRoute(input);
  if (!ref) {
    expect(got.kind).toBe('unreachable');
    expect(searchRoute({ ...input, maxCost: 50 }).kind).toBe('unreachable');
    return;
  }
  if (got.kind !== 'found') throw new Error(`expected a route of cost ${ref.cost}, got ${got.kind}`);
  expect(got.route.cost).toBeCloseTo(ref.cost, 9);
  expect(pathCost(input, got.route.path)).toBeCloseTo(ref.cost, 9);
  const end = got.route.path.at(-1) ?? input.from;
  expect(hexKey(end)).toBe(hexKey(input.to));
  // The bound: a route at the bound is found; below it the answer is "dearer", not "none".
  const at = searchRoute({ ...input, maxCost: ref.cost });
  expect(at.kind === 'found' ? at.route.cost : at.kind).toBeCloseTo(ref.cost, 9);
  if (ref.cost > 0) expect(searchRoute({ ...input, maxCost: ref.cost - 0.5 }).kind).toBe('tooDear');
}

describe('findRoute: integer search against plain Dijkstra', () => {
  it('PROPERTY: on random small maps (rivers, roads, tracks, home terrain, night, weather, blocked hexes) the route is as cheap as Dijkstra\'s, legal, and "none" exactly when Dijkstra finds none', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 10 }), (seed, w, h) => {
      expectAgreement(randomCase(seed, w, h));
    }), { numRuns: 400 });
  });

  it('PROPERTY: on random big maps the route is as cheap as Dijkstra\'s', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
      expectAgreement(randomCase(seed, 60, 45));
    }), { numRuns: 12 });
  });

  it('PROPERTY: on random big maps, between hexes far apart (landmarks in the heuristic), the route is as cheap as Dijkstra\'s', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 45 }), fc.integer({ min: 1, max: 45 }), (seed, fromRow, toRow) => {
      const c = randomCase(seed, 60, 45);
      const from = hx(id(1, fromRow));
      const to = hx(id(60, toRow));
      const blocked = new Set([...c.blocked].filter((k) => k !== hexKey(from)));
      const input: RouteInput = { ...c, army: { ...c.army, hex: from }, from, fromBank: defaultBank(c.map, from) ? 'left' : undefined, to, blocked };
      expectAgreement(input);
      // A search that found a route used the landmarks: it built them for this profile.
      if (referenceRoute(input)) expect(profileFor(c.map, c.army, c.opts, c.profile).landmarks).toBeDefined();
    }), { numRuns: 12 });
  });

  it('PROPERTY: several searches on one map share its cached tables and still agree with Dijkstra', () => {
    const first = randomCase(99, 62, 44);
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
      const other = randomCase(seed, 62, 44);
      expectAgreement({ ...other, map: first.map, from: other.from, fromBank: defaultBank(first.map, other.from) });
    }), { numRuns: 10 });
  });
});

describe('findRoute: unreachable targets and the bound', () => {
  // Clear land with the island 0404 ringed by its six neighbours of open sea.
  const ring = new Set(neighbours(hx('0404')).map(hexKey));
  const lake = mapOf(Array.from({ length: 7 }, (_, r) => Array.from({ length: 7 }, (_, c) => (ring.has(hexKey(hx(id(c + 1, r + 1)))) ? 'o' : 'c')).join('')));
  const input = (map: MapModel, from: string, to: string, o: Partial<RouteInput> = {}): RouteInput => ({
    map, army: army('a', from), from: hx(from), fromBank: undefined, to: hx(to),
    opts: { period: 'day', night: false, unformed: false }, weather: NO_WEATHER_EFFECTS, profile: valormr(), blocked: new Set(), ...o,
  });

  it('GIVEN an island hex ringed by open sea WHEN an army on the shore seeks it THEN there is no route', () => {
    expect(searchRoute(input(lake, '0101', '0404')).kind).toBe('unreachable');
    expect(searchRoute(input(lake, '0101', '0707')).kind).toBe('found');
  });

  it('GIVEN a formed army and a mountain with no road WHEN it seeks the mountain THEN there is no route; unformed it finds one', () => {
    const map = mapOf(['cccc', 'ccmc', 'cccc']);
    expect(searchRoute(input(map, '0101', '0302')).kind).toBe('unreachable');
    expect(searchRoute(input(map, '0101', '0302', { opts: { period: 'day', night: false, unformed: true } })).kind).toBe('found');
  });

  it('GIVEN a wall of other commanders WHEN the only way is through them THEN there is no route, with or without a bound', () => {
    const map = mapOf(['ccccc', 'ccccc', 'ccccc']);
    const wall = new Set(['0301', '0302', '0303'].map((x) => hexKey(hx(x))));
    expect(searchRoute(input(map, '0102', '0502', { blocked: wall })).kind).toBe('unreachable');
    expect(searchRoute(input(map, '0102', '0502', { blocked: wall, maxCost: 6 })).kind).toBe('unreachable');
  });

  it('GIVEN a bound below the cheapest route WHEN searching THEN the answer is "dearer than the bound"', () => {
    const map = mapOf(['cccccc']);
    expect(searchRoute(input(map, '0101', '0601', { maxCost: 29 })).kind).toBe('tooDear');
    const at = searchRoute(input(map, '0101', '0601', { maxCost: 30 }));
    expect(at.kind === 'found' ? at.route.cost : at.kind).toBe(30);
  });
});

describe('hexGrid: the integer view of a map', () => {
  it('PROPERTY: terrain, rivers, neighbours and links agree with the map model on every hex and edge', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 14 }), fc.integer({ min: 1, max: 12 }), (seed, w, h) => {
      const { map } = randomCase(seed, w, h);
      const g = hexGrid(map);
      expect(g.size).toBe(w * h);
      map.allHexes().forEach((hex: Hex, i) => {
        expect(hexIndex(map, hex)).toBe(i);
        expect(TERRAINS[g.terrain[i] as number]).toBe(map.terrainAt(hex));
        expect(g.river[i] === 1).toBe(map.riverAt(hex) !== undefined);
        neighbours(hex).forEach((n, d) => {
          const j = g.neighbour[i * 6 + d] as number;
          expect(j).toBe(map.inBounds(n) ? hexIndex(map, n) : -1);
          if (j < 0) return;
          const link = map.hasRoad(hex, n) ? LINK_ROAD : map.hasTrack(hex, n) ? LINK_TRACK : 0;
          expect([DIRECTIONS[d], g.link[i * 6 + d]]).toEqual([DIRECTIONS[d], link]);
        });
      });
    }), { numRuns: 60 });
  });
});
