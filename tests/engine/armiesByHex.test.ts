import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/army.js';
import { hexKey } from '../../src/engine/hex/hexId.js';
import { armiesAt, closeArmies, openArmies, writeArmy } from '../../src/engine/state/armiesByHex.js';
import { army } from './movementFixtures.js';

/**
 * The hex index (src/engine/state/armiesByHex.ts) is kept by the armies record's identity. The
 * contact step changes its draft record in place (src/engine/contact/records.ts `inDraft`), so the
 * index must follow every such change: after any sequence of writes (moves, destructions, returns,
 * status flags), queried before, between and after them, `armiesAt` answers what a plain scan of
 * the record answers now, and gives the army objects the record holds. A record that is not open
 * for writes is frozen once indexed, so it cannot change under its index.
 */

const HEXES = ['0101', '0102', '0201', '0202', '0301'];
const IDS = ['a1', 'a2', 'b1', 'b10', 'b2', 'c'];

/** The plain reading: the armies in the field in the hex, in army-id order. */
function scan(armies: Readonly<Record<string, Army>>, at: string): Army[] {
  const key = hexKey(army('x', at).hex);
  return Object.values(armies).filter((a) => !a.status.destroyed && hexKey(a.hex) === key).sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

const armyAt = (id: string, at: string, destroyed: boolean, inContact: boolean): Army => {
  const a = army(id, at);
  return { ...a, status: { ...a.status, destroyed, inContact } };
};
const arbArmy = fc.record({ id: fc.constantFrom(...IDS), at: fc.constantFrom(...HEXES), destroyed: fc.boolean(), inContact: fc.boolean() });
/** A write, or (`query`) a look at one hex between the writes. */
const arbStep = fc.oneof(arbArmy.map((a) => ({ kind: 'write' as const, ...a })), fc.constantFrom(...HEXES).map((at) => ({ kind: 'query' as const, at })));

describe('the armies-by-hex index', () => {
  it('GIVEN an open armies record and writes in place WHEN hexes are queried at any point THEN the index answers as a scan of the record as it is now', () => {
    fc.assert(fc.property(fc.uniqueArray(arbArmy, { selector: (a) => a.id, maxLength: IDS.length }), fc.array(arbStep, { maxLength: 30 }), (start, steps) => {
      const armies: Record<string, Army> = Object.fromEntries(start.map((a) => [a.id, armyAt(a.id, a.at, a.destroyed, a.inContact)]));
      openArmies(armies);
      const state = { armies };
      const check = (at: string): void => {
        const found = armiesAt(state, army('x', at).hex);
        const want = scan(armies, at);
        expect(found.map((a) => a.id)).toEqual(want.map((a) => a.id));
        found.forEach((a, i) => expect(a).toBe(want[i]));
      };
      for (const s of steps) {
        if (s.kind === 'query') check(s.at);
        else writeArmy(armies, armyAt(s.id, s.at, s.destroyed, s.inContact));
      }
      for (const at of HEXES) check(at);
      closeArmies(armies);
      expect(Object.isFrozen(armies)).toBe(true);
    }), { numRuns: 300 });
  });

  it('GIVEN a list armiesAt gave WHEN the record is written afterwards THEN that list stays as it was', () => {
    const armies: Record<string, Army> = { a1: army('a1', '0101'), a2: army('a2', '0101') };
    openArmies(armies);
    const before = armiesAt({ armies }, army('x', '0101').hex);
    writeArmy(armies, army('a1', '0202'));
    expect(before.map((a) => a.id)).toEqual(['a1', 'a2']);
    expect(armiesAt({ armies }, army('x', '0101').hex).map((a) => a.id)).toEqual(['a2']);
  });

  it('GIVEN a record not open for writes WHEN it is indexed THEN a write in place throws instead of leaving the index stale', () => {
    const armies: Record<string, Army> = { a1: army('a1', '0101') };
    expect(armiesAt({ armies }, army('x', '0101').hex).map((a) => a.id)).toEqual(['a1']);
    expect(() => { armies.a1 = army('a1', '0202'); }).toThrow(TypeError);
    expect(armiesAt({ armies }, army('x', '0202').hex)).toEqual([]);
  });
});
