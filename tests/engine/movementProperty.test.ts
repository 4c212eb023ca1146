import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import type { Hex } from '../../src/engine/hex/hex.js';
import { hexKey } from '../../src/engine/hex/hexId.js';
import { neighbours } from '../../src/engine/hex/neighbours.js';
import type { CampaignState, Order } from '../../src/engine/state/index.js';
import { NO_WEATHER_EFFECTS } from '../../src/engine/weather/types.js';
import { army, campaign, dice, mapOf, rawOrder, tick } from './movementFixtures.js';

const SIZE = 6;
const LETTERS = ['c', 'c', 'c', 'f', 'h', 's', 'm'];

// Terrain, armies, a river down column 03 with random sites, rain closing fords or ferries.
const arbScenario = fc.record({
  terrain: fc.array(fc.constantFrom(...LETTERS), { minLength: SIZE * SIZE, maxLength: SIZE * SIZE }),
  armies: fc.uniqueArray(
    fc.record({
      cell: fc.integer({ min: 0, max: SIZE * SIZE - 1 }),
      side: fc.constantFrom('law', 'chaos', 'elves'),
      cls: fc.constantFrom('infantry', 'cavalry', 'courier') as fc.Arbitrary<'infantry' | 'cavalry' | 'courier'>,
      figures: fc.integer({ min: 1, max: 30 }),
      walk: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 6 }),
      forced: fc.boolean(),
      unformed: fc.boolean(),
      period: fc.constantFrom('day', 'night', 'split') as fc.Arbitrary<'day' | 'night' | 'split'>,
      dark: fc.boolean(),
    }),
    { minLength: 2, maxLength: 8, selector: (a) => a.cell },
  ),
  river: fc.array(fc.record({ size: fc.constantFrom('major', 'minor') as fc.Arbitrary<'major' | 'minor'>, site: fc.constantFrom('ford', 'ferry', 'bridge', 'none') }), { minLength: SIZE, maxLength: SIZE }),
  rain: fc.constantFrom(0, 1, 2),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  halves: fc.integer({ min: 1, max: 16 }),
});

/** Freezes a state so any mutation by the engine throws. */
function deepFreeze<T>(x: T): T {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x as Record<string, unknown>)) deepFreeze(v);
  }
  return x;
}

describe('property: simultaneous resolution', () => {
  it('never puts two commanders in one hex, never spends more points than available, never mutates its input', () => {
    fc.assert(
      fc.property(arbScenario, (sc) => {
        const rows = Array.from({ length: SIZE }, (_, r) => sc.terrain.slice(r * SIZE, (r + 1) * SIZE).join(''));
        const map = mapOf(rows, {
          rivers: [{ id: 'r', name: 'R', hexes: sc.river.map((x, i) => ({ hex: `03${String(i + 1).padStart(2, '0')}`, size: x.size, ...(x.site !== 'none' ? { crossing: x.site as 'ford' | 'ferry' | 'bridge' } : {}) })) }],
        });
        const weather = { ...NO_WEATHER_EFFECTS, fordsClosed: sc.rain >= 1, ferriesClosed: sc.rain >= 2 };
        const all = map.allHexes();
        const armies: Army[] = sc.armies.map((x, i) => {
          const h = all[x.cell] as Hex;
          const id = `a${i}`;
          return { ...army(id, map.format(h), { side: x.side, movementClass: x.cls, figures: [x.figures], sight: x.dark ? 'dark' : 'light' }) };
        });
        const orders: Record<string, Order> = {};
        sc.armies.forEach((x, i) => {
          const path: Hex[] = [];
          let cur = (armies[i] as Army).hex;
          for (const d of x.walk) {
            const n = neighbours(cur)[d] as Hex;
            if (!map.inBounds(n)) break;
            path.push(n);
            cur = n;
          }
          const accept = path.map((h) => ({ hex: h, method: 'rafts' as const }));
          if (path.length > 0) orders[`a${i}`] = rawOrder(`a${i}`, path, { forced: x.forced, unformed: x.unformed, period: x.dark ? x.period : x.period === 'split' ? 'day' : x.period, crossings: [...accept, { hex: (armies[i] as Army).hex, method: 'rafts' as const }] });
        });
        let s: CampaignState = { ...campaign(armies), orders };
        const d = dice([], sc.seed);
        for (let k = 0; k < sc.halves; k++) {
          s = tick(deepFreeze(s), map, d, weather).state;
          const seen = new Set<string>();
          for (const a of Object.values(s.armies)) {
            const key = hexKey(a.hex);
            expect(seen.has(key)).toBe(false);
            seen.add(key);
            expect(a.march.spentToday).toBeGreaterThanOrEqual(0);
            if (a.march.spentToday > 0) expect(a.march.spentToday).toBeLessThanOrEqual(a.march.allowanceToday);
            expect(a.march.spentPeriod).toBeLessThanOrEqual(a.march.spentToday);
            expect(map.inBounds(a.hex)).toBe(true);
            if (a.march.operation) expect(a.march.operation.remainingHalves).toBeGreaterThan(0);
            for (const r of a.regiments) for (const c of r.companies) expect(c.figures).toBeGreaterThanOrEqual(0);
          }
        }
      }),
      { numRuns: 250 },
    );
  });
});

describe('determinism', () => {
  it('GIVEN the same state and seed THEN the same result', () => {
    const map = mapOf(['cccc', 'cfcc', 'cchc']);
    const s = { ...campaign([army('a', '0101'), army('b', '0301', { side: 'chaos' }), army('c', '0103')]), orders: { a: rawOrder('a', [map.parse('0102') as Hex, map.parse('0202') as Hex]), c: rawOrder('c', [map.parse('0203') as Hex]) } };
    const one = tick(s, map, dice([], 5));
    const two = tick(s, map, dice([], 5));
    expect(two).toEqual(one);
  });
});
