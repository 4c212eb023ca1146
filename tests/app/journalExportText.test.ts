import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryText, exportedEntry } from '../../src/app/journal/replayFile.js';
import type { JournalRow } from '../../src/db/journalRepo.js';

/**
 * The export writes each journal entry from its stored JSON text (no parse, no stringify, a long
 * campaign's journal is tens of megabytes): the text must be, byte for byte, the entry as parsed,
 * seeds withheld until the campaign ends and written out again, since replay checks each line's
 * hash against that (src/app/journal/replayFile.ts).
 */

const seed = fc.stringMatching(/^[0-9a-f]{8}$/);
const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', '{', '}', '[', ']', ',', ':', 'é', '\n', 'p', 'v', 'rng'), maxLength: 12 });
const leaf = fc.oneof(seed, text, fc.integer(), fc.constant(null), fc.boolean());
const rng = fc.record({ period: fc.integer({ min: 0, max: 9 }), seed, next: seed, secret: fc.option(fc.record({ master: seed, draws: fc.integer() }), { nil: undefined }) }, { requiredKeys: ['period', 'seed', 'next'] });
const path = fc.oneof(
  fc.constantFrom(['rng', 'seed'], ['rng', 'next'], ['rng', 'secret', 'master'], ['rng', 'draws'], ['rng', 'secret', 'draws'], ['clock', 'half'], ['armies', 'a1', 'hex', 'q']),
  fc.constantFrom(['rng'], ['rng', 'secret'], []),
  fc.array(fc.oneof(fc.constantFrom('rng', 'seed', 'armies'), fc.nat(3)), { maxLength: 3 }),
);
const value = fc.oneof(leaf, rng, fc.record({ master: seed, draws: fc.integer() }), fc.dictionary(fc.constantFrom('seed', 'next', 'master', 'x'), leaf), fc.array(leaf, { maxLength: 3 }));
const op = fc.record({ p: path, v: value }, { requiredKeys: ['p'] });
const row: fc.Arbitrary<JournalRow> = fc.record({
  campaignId: fc.constant('c1'),
  seq: fc.nat(),
  kind: fc.constantFrom('entry' as const, 'checkpoint' as const),
  invocation: fc.nat(),
  at: text,
  timeIndex: fc.nat(),
  input: fc.oneof(fc.constant(null), fc.record({ kind: fc.constant('command'), command: text })),
  dice: fc.oneof(fc.constant(null), fc.array(fc.record({ sides: fc.nat(20), value: fc.nat(20) }), { maxLength: 2 })),
  change: fc.oneof(fc.array(op, { maxLength: 6 }), fc.record({ rng, clock: fc.record({ day: fc.nat(), half: fc.nat(3) }) })),
  stateVersion: fc.nat(40),
}).map((r) => (r.kind === 'entry' && !Array.isArray(r.change) ? { ...r, change: [] } : r));

const stored = (r: JournalRow) => ({
  seq: r.seq, kind: r.kind, invocation: r.invocation, at: r.at, timeIndex: r.timeIndex,
  input: r.input === null ? null : JSON.stringify(r.input), dice: r.dice === null ? null : JSON.stringify(r.dice), change: JSON.stringify(r.change), stateVersion: r.stateVersion,
});

describe('a journal entry exported from its stored text', () => {
  it('GIVEN any entry or checkpoint, seeds set alone or inside objects WHEN exported before and after the end THEN its text is the parsed entry written out, to the byte', () => {
    fc.assert(fc.property(row, fc.boolean(), (r, ended) => {
      expect(entryText(stored(r), ended)).toBe(JSON.stringify(exportedEntry(r, ended)));
    }), { numRuns: 2000 });
  });

  it('GIVEN a seed set alone before the end WHEN exported THEN its value is withheld', () => {
    const r: JournalRow = { campaignId: 'c1', seq: 3, kind: 'entry', invocation: 2, at: '2026-11-27T07:00:00.000Z', timeIndex: 9, input: null, dice: [], change: [{ p: ['rng', 'seed'], v: 'abcdef01' }, { p: ['rng', 'draws'], v: 4 }], stateVersion: 1 };
    expect(entryText(stored(r), false)).toBe('{"seq":3,"kind":"entry","invocation":2,"at":"2026-11-27T07:00:00.000Z","timeIndex":9,"input":null,"dice":[],"change":[{"p":["rng","seed"],"v":"(withheld until the campaign ends)"},{"p":["rng","draws"],"v":4}],"stateVersion":1}');
    expect(entryText(stored(r), true)).toContain('"v":"abcdef01"');
  });
});
