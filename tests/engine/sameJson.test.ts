import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/engine/replay/index.js';

/** What sameJson stands for: the stored JSON is the same (or the very same value). */
const byStrings = (x: unknown, y: unknown): boolean => x === y || JSON.stringify(x) === JSON.stringify(y);

/** The answer, or the error's class when stringify cannot write the value. */
function outcome(f: () => boolean): boolean | string {
  try {
    return f();
  } catch (e) {
    return (e as Error).constructor.name;
  }
}

/** Anything JSON.stringify meets in data: undefined fields and elements, NaN, -0, Infinity, dates, boxed values, Maps, typed arrays, null prototypes. */
const value = fc.anything({ maxDepth: 4, withBoxedValues: true, withMap: true, withSet: true, withDate: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withObjectString: true });

/** `v` changed a little somewhere (or not): a field added, removed, set undefined, or replaced; keys reordered. */
function nudged(v: unknown, pick: number, with_: unknown, how: number): unknown {
  if (typeof v !== 'object' || v === null || v instanceof Date) return how === 0 ? v : with_;
  if (Array.isArray(v)) {
    if (v.length === 0) return how % 2 === 0 ? [] : [with_];
    const i = pick % v.length;
    return v.map((e, k) => (k === i ? (how === 0 ? nudged(e, pick >> 1, with_, how) : how === 1 ? undefined : with_) : e));
  }
  const keys = Object.keys(v);
  const o = v as Record<string, unknown>;
  if (keys.length === 0) return how === 0 ? {} : { k: with_ };
  const k = keys[pick % keys.length] as string;
  switch (how) {
    case 0: return { ...o, [k]: nudged(o[k], pick >> 1, with_, how) };
    case 1: return { ...o, [k]: undefined };
    case 2: return Object.fromEntries(Object.entries(o).reverse());
    case 3: return Object.fromEntries(Object.entries(o).filter(([key]) => key !== k));
    default: return { ...o, [k]: with_ };
  }
}

describe('sameJson: the same stored JSON without building it', () => {
  it('GIVEN any two values WHEN compared THEN the answer (or the error) is that of comparing their JSON.stringify strings', () => {
    fc.assert(fc.property(value, value, (x, y) => {
      expect(outcome(() => sameJson(x, y))).toEqual(outcome(() => byStrings(x, y)));
    }), { numRuns: 400 });
  });

  it('GIVEN a value and a copy nudged somewhere (a field added, removed, undefined, replaced, or the keys reordered) WHEN compared THEN it agrees with JSON.stringify', () => {
    fc.assert(fc.property(value, fc.nat(), value, fc.integer({ min: 0, max: 4 }), (x, pick, with_, how) => {
      const y = nudged(structuredCloneOr(x), pick, with_, how);
      expect(outcome(() => sameJson(x, y))).toEqual(outcome(() => byStrings(x, y)));
      expect(outcome(() => sameJson(y, x))).toEqual(outcome(() => byStrings(y, x)));
    }), { numRuns: 600 });
  });

  it('GIVEN the values JSON writes alike (NaN, Infinity and null; 0 and -0; an undefined field and none) WHEN compared THEN they are the same', () => {
    expect(sameJson({ a: Number.NaN, b: [Number.POSITIVE_INFINITY] }, { a: null, b: [null] })).toBe(true);
    expect(sameJson({ a: -0 }, { a: 0 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' })).toBe(true);
  });
});

/** A deep copy where one can be made (structuredClone refuses some values: then the value itself). */
function structuredCloneOr(x: unknown): unknown {
  try {
    return structuredClone(x);
  } catch {
    return x;
  }
}
