import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinParts, packText, splitParts, unpackText, type PackKind } from '../../src/db/packedText.js';

const KINDS: readonly PackKind[] = ['journal', 'event', 'frame'];

describe('packed text (src/db/packedText.ts)', () => {
  it('GIVEN any text WHEN packed and unpacked with its kind THEN it comes back the same, version byte first', () => {
    fc.assert(fc.property(fc.constantFrom(...KINDS), fc.string({ unit: 'binary', maxLength: 1000 }), (kind, text) => {
      const packed = packText(kind, text);
      expect(packed[0]).toBe(1);
      expect(unpackText(kind, packed)).toBe(text);
    }), { numRuns: 60 });
  });

  it('GIVEN texts or nulls and a last text WHEN joined and split THEN they come back the same, whatever characters they hold', () => {
    fc.assert(fc.property(fc.array(fc.option(fc.string({ unit: 'binary' }), { nil: null }), { maxLength: 4 }), fc.string({ unit: 'binary' }), (first, rest) => {
      expect(splitParts(joinParts(first, rest), first.length)).toEqual({ first, rest });
    }));
  });

  it('GIVEN a journal row as JSON WHEN packed THEN it is several times smaller (the dictionary)', () => {
    const change = JSON.stringify([{ p: ['armies', 'hadewych', 'seat', 'acted'], v: true }, { p: ['orders', 'hadewych'], v: { armyId: 'hadewych', kind: 'rest', givenBy: 'p1', givenAt: { day: 6, half: 0 } } }]);
    const input = JSON.stringify({ kind: 'command', command: 'rest', subcommand: null, actor: { userId: 'p1', userName: 'p1', guildId: 'g', channelId: 'c', roleIds: [] }, options: { army: 'hadewych' } });
    const text = joinParts([input, '[]'], change);
    expect(packText('journal', text).length * 3).toBeLessThan(text.length);
  });

  it('GIVEN a packed value of another version or broken bytes WHEN unpacked THEN it throws broken data, never returns a wrong text', () => {
    const packed = packText('event', 'hello');
    expect(() => unpackText('event', Buffer.concat([Buffer.from([2]), packed.subarray(1)]))).toThrow(/broken data: a packed event row of version 2/);
    expect(() => unpackText('event', Buffer.alloc(0))).toThrow(/broken data/);
    expect(() => splitParts('1,x\nabc', 2)).toThrow(/broken data/);
    expect(() => splitParts('5\nab', 1)).toThrow(/broken data/);
  });
});
