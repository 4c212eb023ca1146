import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadShippedScenario } from '../../src/app/scenarios.js';
import { hexKey, neighbours, parseHex, type Hex } from '../../src/engine/hex/index.js';
import { buildMap, type MapData } from '../../src/engine/map/index.js';

/*
 * The map keeps what it holds by hex (rivers, ports, towns, forts, channels, mudflats, regions) and
 * by hex side (roads, tracks) under number keys (a hex's index on the map) for speed (issue 25). A
 * reference read straight from the scenario's data with text keys must give the same answers for
 * every hex, on the map or off it, and every pair of neighbours.
 */
const data: MapData = loadShippedScenario('valormr').map;
const map = buildMap(data);

const key = (id: string): string => hexKey(parseHex(id) as Hex);
const side = (a: string, b: string): string => [a, b].sort().join('|');
const sides = (paths: readonly (readonly string[])[]): Set<string> =>
  new Set(paths.flatMap((p) => p.slice(1).map((id, i) => side(key(p[i] as string), key(id)))));
const reference = {
  roads: sides(data.roads),
  tracks: sides(data.tracks),
  rivers: new Set(data.rivers.flatMap((r) => r.hexes.map((s) => key(s.hex)))),
  ports: new Map(data.ports.map((p) => [key(p.hex), p.name])),
  towns: new Map(data.towns.map((t) => [key(t.hex), t.name])),
  forts: new Map(data.fortifications.map((f) => [key(f.hex), f.name])),
  channels: new Set(data.channels.map(key)),
  mudflats: new Set(data.mudflats.map(key)),
  regions: data.regions.map((r) => ({ id: r.id, hexes: new Set(r.hexes.map(key)) })),
};

// Hexes around the map and a little past its edges (axial: a column's rows are shifted by half the column).
const aHex = fc.record({ q: fc.integer({ min: -3, max: data.width + 2 }), r: fc.integer({ min: -3 - Math.ceil(data.width / 2), max: data.height + 2 }) });

describe('the map model\'s keys', () => {
  it('GIVEN any hex, on the map or off it, and each of its neighbours THEN every lookup answers as the scenario data read with text keys', () => {
    const placed = [...reference.ports.keys(), ...[...reference.rivers].slice(0, 30), ...data.roads.flat().slice(0, 30).map(key), ...data.tracks.flat().slice(0, 30).map(key)].map((k) => {
      const [q, r] = k.split(',').map(Number);
      return { q: q as number, r: r as number };
    });
    fc.assert(fc.property(fc.oneof(aHex, fc.constantFrom(...placed)), (h) => {
      const k = hexKey(h);
      expect(map.riverAt(h) !== undefined).toBe(reference.rivers.has(k));
      expect(map.portAt(h)).toBe(reference.ports.get(k));
      expect(map.townAt(h)).toBe(reference.towns.get(k));
      expect(map.fortificationAt(h)?.name).toBe(reference.forts.get(k));
      expect(map.hasChannel(h)).toBe(reference.channels.has(k));
      expect(map.isMudflat(h)).toBe(reference.mudflats.has(k));
      for (const r of reference.regions) expect(map.inRegion(h, r.id)).toBe(r.hexes.has(k));
      for (const n of neighbours(h)) {
        expect(map.hasRoad(h, n)).toBe(reference.roads.has(side(k, hexKey(n))));
        expect(map.hasTrack(n, h)).toBe(reference.tracks.has(side(k, hexKey(n))));
      }
    }), { numRuns: 400 });
    // The reference is not empty: the property looked at roads and rivers that exist.
    expect([reference.roads.size, reference.rivers.size, reference.ports.size].every((n) => n > 0)).toBe(true);
  });
});
