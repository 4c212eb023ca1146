import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyOps, diffJson, type Json } from '../../src/engine/replay/index.js';

const scalar = fc.oneof(fc.constantFrom('moved', 'rested', 'battle', 'held'), fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constant(null));
const json: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('v'), { maxKeys: 4 })),
})).v;
/** A state-like value: two versions of an army record, its windows of scalars the same length. */
const army = (n: number): fc.Arbitrary<Json> => fc.record({ recentHalves: fc.array(scalar, { minLength: n, maxLength: n }), points: fc.integer({ min: 0, max: 9 }), other: json });

/** diffJson as first written (a new path array per field): the journal's bytes must not change with its speed. */
function firstDiff(a: unknown, b: unknown): { p: (string | number)[]; v?: unknown }[] {
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
  const out: { p: (string | number)[]; v?: unknown }[] = [];
  const walk = (x: unknown, y: unknown, path: (string | number)[], to: typeof out): void => {
    if (x === y) return;
    if (isObject(x) && isObject(y)) {
      for (const k of Object.keys(x)) if (x[k] !== undefined && (!Object.hasOwn(y, k) || y[k] === undefined)) to.push({ p: [...path, k] });
      for (const k of Object.keys(y)) {
        if (y[k] === undefined) continue;
        if (!Object.hasOwn(x, k) || x[k] === undefined) to.push({ p: [...path, k], v: plain(y[k]) });
        else walk(x[k], y[k], [...path, k], to);
      }
      return;
    }
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
      const ops: typeof out = [];
      x.forEach((e, i) => walk(e, y[i], [...path, i], ops));
      const apart = ops.reduce((n, op) => n + JSON.stringify(op).length + 1, 0);
      if (ops.length > 1 && y.every((e) => e === null || typeof e !== 'object') && JSON.stringify({ p: path, v: y }).length < apart) to.push({ p: path, v: plain(y) });
      else to.push(...ops);
      return;
    }
    if (typeof x === 'number' && typeof y === 'number' && Object.is(x, y)) return;
    to.push({ p: path, v: plain(y) });
  };
  walk(a, b, [], out);
  return out;
}

describe('diffJson: the journal\'s change between two states', () => {
  it('GIVEN any two JSON values, or two army-like records, THEN the operations are those of diffJson as first written, byte for byte', () => {
    // Values sharing parts by reference too, as a use-case's new state shares what it left untouched.
    const sharing = fc.tuple(json, json).map(([x, y]): [Json, Json] => [{ k: x, l: [x, y], m: { n: y } }, { k: x, l: [y, x], m: { n: y } }]);
    fc.assert(fc.property(fc.oneof(fc.tuple(json, json), sharing, fc.integer({ min: 1, max: 8 }).chain((n) => fc.tuple(army(n), army(n)))), ([a, b]) => {
      expect(JSON.stringify(diffJson(a, b))).toBe(JSON.stringify(firstDiff(a, b)));
    }), { numRuns: 500 });
  });

  it('GIVEN records holding -0, NaN, infinities, fractions and undefined fields THEN each operation holds what the journal reads back, value for value, as first written', () => {
    const odd = fc.oneof(scalar, fc.double(), fc.constantFrom(-0, 0, Number.NaN, Infinity, -Infinity, 'x'));
    // Undefined only as an object's field: a state holds none inside a list (the Json type).
    const field = fc.oneof(odd, fc.constant(undefined));
    const inner = fc.oneof(field, fc.array(odd, { maxLength: 3 }), fc.dictionary(fc.constantFrom('x', 'y'), field, { maxKeys: 2 }));
    const rec = fc.dictionary(fc.constantFrom('a', 'b', 'c'), inner, { maxKeys: 3 });
    fc.assert(fc.property(rec, rec, (a, b) => {
      const ops = diffJson(a, b);
      // toEqual tells -0 from 0: a -0 read back from the journal is 0.
      expect(ops).toEqual(firstDiff(a, b));
      for (const op of ops) if (op.v !== undefined) expect(op.v).toEqual(JSON.parse(JSON.stringify(op.v)));
    }), { numRuns: 300 });
  });

  it('GIVEN any two JSON values WHEN the operations are applied to the first THEN they give the second', () => {
    fc.assert(fc.property(json, json, (a, b) => {
      expect(applyOps(a, diffJson(a, b))).toEqual(b);
    }));
  });

  it('GIVEN two versions of a record whose list of scalars changed WHEN diffed THEN the list is set whole exactly when that is shorter than its elements\' operations, and the result applies', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 16 }).chain((n) => fc.tuple(army(n), army(n))), ([a, b]) => {
      const ops = diffJson(a, b);
      expect(applyOps(a, ops)).toEqual(b);
      const before = (a as { recentHalves: Json[] }).recentHalves;
      const after = (b as { recentHalves: Json[] }).recentHalves;
      const apart = after.flatMap((v, i) => (Object.is(v, before[i]) ? [] : [{ p: ['recentHalves', i], v }]));
      const whole = { p: ['recentHalves'], v: after };
      const shorter = apart.length > 1 && JSON.stringify(whole).length < apart.reduce((n, op) => n + JSON.stringify(op).length + 1, 0);
      const ofList = ops.filter((op) => op.p[0] === 'recentHalves');
      expect(ofList).toEqual(shorter ? [whole] : apart);
    }));
  });

  it('GIVEN a window of 14 halves shifted by one WHEN diffed THEN it is one operation setting it whole', () => {
    const window = ['moved', 'rested', 'battle', 'moved', 'rested', 'rested', 'moved', 'battle', 'moved', 'rested', 'moved', 'rested', 'battle', 'moved'];
    const shifted = [...window.slice(1), 'rested'];
    expect(diffJson({ w: window }, { w: shifted })).toEqual([{ p: ['w'], v: shifted }]);
  });
});
