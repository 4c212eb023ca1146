/**
 * Route tables kept on disk beside the database (src/app/movement/routeTableFile.ts, the store of
 * src/engine/movement/routeProfile.ts): a restarted process (here: a fresh map model, which has
 * no tables in memory) loads the tables instead of building them and finds the same routes; a
 * file that is stale, truncated, damaged, from another version or of another map or profile is
 * never trusted: it is ignored and rebuilt.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routeTablePath, routeTableStore } from '../../src/app/movement/routeTableFile.js';
import type { Army } from '../../src/engine/forces/army.js';
import type { MapModel } from '../../src/engine/map/mapModel.js';
import { searchRoute, type RouteInput } from '../../src/engine/movement/findRoute.js';
import { keepRouteTables, profileFor, type RouteTables, type RouteTableStore } from '../../src/engine/movement/routeProfile.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { testTempDir } from '../support/tempDirs.js';
import { army, hx, mapOf, valormr } from './movementFixtures.js';

const W = 60;
const H = 50;
const id = (c: number, r: number): string => `${String(c).padStart(2, '0')}${String(r).padStart(2, '0')}`;

/** The rows of a random map (every land terrain, some water), from a seed. */
function rowsOf(seed: number): string[] {
  let s = seed >>> 0 || 1;
  const next = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 0x100000000;
  };
  const letters = 'cccccffhhsmwo';
  return Array.from({ length: H }, () => Array.from({ length: W }, () => letters[Math.floor(next() * letters.length)]).join(''));
}

/** A fresh map model (no tables in memory: what a restarted process has) keeping its tables in `store`. */
function freshMap(rows: readonly string[], store?: RouteTableStore): MapModel {
  const map = mapOf(rows, { roads: [[id(1, 1), id(2, 1), id(3, 2), id(4, 2)]] });
  if (store) keepRouteTables(map, store);
  return map;
}

/** A search from the west edge to the east edge (far apart: the landmarks are built and used). */
function input(map: MapModel, mover: Army, fromRow: number, toRow: number, unformed: boolean): RouteInput {
  return {
    map, army: { ...mover, hex: hx(id(1, fromRow)) }, from: hx(id(1, fromRow)), fromBank: undefined, to: hx(id(W, toRow)),
    opts: { period: 'day', night: false, unformed }, weather: NO_WEATHER_EFFECTS, profile: valormr(), blocked: new Set(),
  };
}

/** What a search answered, comparable across runs. */
function answer(i: RouteInput): unknown {
  const r = searchRoute(i);
  return r.kind === 'found' ? { cost: r.route.cost, path: r.route.path.map((h) => i.map.format(h)) } : r.kind;
}

/** A store that counts what it loaded and saved. */
function counting(store: RouteTableStore): RouteTableStore & { loaded: number; saved: number } {
  const c = {
    loaded: 0,
    saved: 0,
    load: (key: string): RouteTables | undefined => {
      const t = store.load(key);
      if (t) c.loaded++;
      return t;
    },
    save: (key: string, t: RouteTables): void => {
      c.saved++;
      store.save(key, t);
    },
  };
  return c;
}

const infantry = army('mover', id(1, 1), { movementClass: 'infantry' });

describe('route tables on disk', () => {
  it('PROPERTY: a restarted process loads the tables the first one built (nothing built again) and finds the same routes as a process with no file at all', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: H }), fc.integer({ min: 1, max: H }), fc.boolean(), (seed, fromRow, toRow, unformed) => {
      const rows = rowsOf(seed);
      const dir = testTempDir('valormr-routes-');
      const plain = answer(input(freshMap(rows), infantry, fromRow, toRow, unformed));
      const first = counting(routeTableStore(dir, `map-${seed}`));
      expect(answer(input(freshMap(rows, first), infantry, fromRow, toRow, unformed))).toEqual(plain);
      expect(first.loaded).toBe(0);
      const second = counting(routeTableStore(dir, `map-${seed}`));
      const again = freshMap(rows, second);
      expect(answer(input(again, infantry, fromRow, toRow, unformed))).toEqual(plain);
      expect(second.loaded).toBe(1);
      expect(second.saved).toBe(0);
      // No temporary file left behind.
      expect(readdirSync(dir).every((f) => f.endsWith('.routes'))).toBe(true);
    }), { numRuns: 8 });
  });

  it('GIVEN tables on disk WHEN the file is truncated, damaged, from another code version or of another map THEN it is ignored, the tables are rebuilt (and rewritten) and the route is the same', () => {
    const rows = rowsOf(7);
    const dir = testTempDir('valormr-routes-');
    const plain = answer(input(freshMap(rows), infantry, 3, 40, false));
    answer(input(freshMap(rows, routeTableStore(dir, 'm')), infantry, 3, 40, false));
    const [file] = readdirSync(dir);
    const path = `${dir}/${file}`;
    const good = readFileSync(path);
    const headerEnd = 12 + good.readUInt32BE(8);
    const header = JSON.parse(good.subarray(12, headerEnd).toString('utf8')) as Record<string, unknown>;
    const withHeader = (h: Record<string, unknown>): Buffer => {
      const json = Buffer.from(JSON.stringify(h));
      const len = Buffer.alloc(4);
      len.writeUInt32BE(json.length);
      return Buffer.concat([good.subarray(0, 8), len, json, good.subarray(headerEnd)]);
    };
    const flipped = Buffer.from(good);
    flipped[flipped.length - 100] = (flipped[flipped.length - 100] as number) ^ 0x40;
    const faults: Record<string, Buffer> = {
      truncated: good.subarray(0, good.length - 1000),
      'header cut': good.subarray(0, 20),
      empty: Buffer.alloc(0),
      'a flipped bit': flipped,
      'another code version': withHeader({ ...header, version: '0000000000000000' }),
      'another map or profile': withHeader({ ...header, key: 'other|key' }),
      'another format': withHeader({ ...header, format: 99 }),
      'lengths that lie': withHeader({ ...header, comp: (header.comp as number) - 1, compStart: (header.compStart as number) + 1 }),
      'not JSON': Buffer.concat([good.subarray(0, 12), Buffer.from('{'.repeat(good.readUInt32BE(8))), good.subarray(headerEnd)]),
    };
    for (const [fault, bytes] of Object.entries(faults)) {
      writeFileSync(path, bytes);
      const store = counting(routeTableStore(dir, 'm'));
      expect(answer(input(freshMap(rows, store), infantry, 3, 40, false)), fault).toEqual(plain);
      expect(store.saved, `${fault}: rebuilt`).toBeGreaterThan(0);
      expect(readFileSync(path).equals(good), `${fault}: rewritten`).toBe(true);
    }
  });

  it('GIVEN tables whose file passes its checks but do not fit the map (another map under the same key) THEN the engine refuses them and builds its own', () => {
    const dir = testTempDir('valormr-routes-');
    const small = mapOf(rowsOf(3).slice(0, 10).map((r) => r.slice(0, 10)));
    keepRouteTables(small, routeTableStore(dir, 'same'));
    profileFor(small, infantry, { period: 'day', night: false, unformed: false }, valormr());
    const rows = rowsOf(3);
    const plain = answer(input(freshMap(rows), infantry, 5, 30, false));
    const store = counting(routeTableStore(dir, 'same'));
    expect(answer(input(freshMap(rows, store), infantry, 5, 30, false))).toEqual(plain);
    expect(store.loaded).toBe(1);
    expect(store.saved).toBeGreaterThan(0);
  });

  it('GIVEN a folder that cannot be written THEN routes are found all the same (only a cache)', () => {
    const dir = testTempDir('valormr-routes-');
    writeFileSync(`${dir}/file`, 'x');
    const rows = rowsOf(11);
    const plain = answer(input(freshMap(rows), infantry, 2, 44, true));
    const store = routeTableStore(`${dir}/file/below`, 'm');
    expect(answer(input(freshMap(rows, store), infantry, 2, 44, true))).toEqual(plain);
    expect(readdirSync(dir)).toEqual(['file']);
    expect(routeTablePath(`${dir}/file/below`, 'm|x')).toMatch(/[0-9a-f]{40}\.routes$/);
  });
});
