import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyOps, diffJson, type Json } from '../../src/engine/replay/index.js';

const scalar = fc.oneof(fc.constantFrom('moved', 'rested', 'battle', 'held'), fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constant(null));
const json: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('v'), { maxKeys: 4 })),
})).v;
/** A state-like value: two versions of an army record, its windows of scalars the same length. */
const army = (n: number): fc.Arbitrary<Json> => fc.record({ recentHalves: fc.array(scalar, { minLength: n, maxLength: n }), points: fc.integer({ min: 0, max: 9 }), other: json });

describe('diffJson: the journal\'s change between two states', () => {
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
