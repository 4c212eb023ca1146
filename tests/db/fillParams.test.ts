import fc from 'fast-check';
import { fillPlaceholders, Param, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fillParams } from '../../src/db/fillParams.js';

/** One parameter of a prepared statement, as Drizzle keeps it: a bare placeholder, a placeholder behind an encoder (`bound`), or a constant. */
const names = ['a', 'b', 'c', 'd'] as const;
const encoder = { mapToDriverValue: (v: unknown): unknown => (v === null || v === undefined ? null : JSON.stringify(v)) };
const param = fc.oneof(
  fc.constantFrom(...names).map((n) => sql.placeholder(n)),
  fc.constantFrom(...names).map((n) => new Param(sql.placeholder(n), encoder)),
  fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
);
const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.dictionary(fc.string(), fc.integer()));
const outcome = (f: () => unknown[]): { values: unknown[] } | { error: string } => {
  try {
    return { values: f() };
  } catch (e) {
    return { error: String(e) };
  }
};

describe('fillParams: the values a prepared statement runs with', () => {
  it('GIVEN any parameters and any values (some missing) WHEN filled once or many times THEN the values or the error are Drizzle fillPlaceholders\' own', () => {
    fc.assert(fc.property(fc.array(param, { maxLength: 8 }), fc.array(fc.record({ a: value, b: value, c: value }, { requiredKeys: [] }), { minLength: 1, maxLength: 3 }), (params, runs) => {
      for (const values of runs) expect(outcome(() => fillParams(params, values))).toEqual(outcome(() => fillPlaceholders(params, values)));
    }), { numRuns: 200 });
  });
});
