/**
 * Hostile input over every command and option (a generated property, fast-check): prototype
 * names, huge and non-finite numbers, control, bidi and zero-width characters, long strings, mixed
 * with values that mean something, generated per command from each option's schema (type,
 * choices, range; every sub-command, every option, required ones always). Over 2,000 console lines
 * on one running campaign, reaching every sub-command and every option:
 * - no internal error ("Something went wrong");
 * - no refusal over Discord's 2,000 characters;
 * - nothing nonsensical accepted: every figure a whole number in range, every name printable.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { commandPayloads, type CommandPayload } from '../../src/discord/registration.js';
import { campaignState, consoleHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await consoleHarness({ setup: [
    '@referee /campaign create scenario:valormr name:"Hostile War"',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /campaign start',
    '!tick',
  ].join('\n') });
});

afterAll(() => h?.close());

const PROTOTYPE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];
const NUMBERS = ['1e20', '-1e20', 'Infinity', '-Infinity', 'NaN', '1e308', '-0', '0x10', '9'.repeat(400), '0.5', '-1', '2147483648', '1e-9'];
const STRANGE = ['\u202Eevil\u202C', 'a\u200Bb', 'nul\u0000x', '\u0007bell', '\u2066iso\u2069', '\uFEFFbom', 'tab\there', 'r1=1e20', 'r1=Infinity', 'hadewych/first=1e20', '<@&123> @everyone', '`x`', '**bold**'];
const MEANINGFUL = ['hadewych', 'grallune', 'alice', 'bob', '0913', '1418', '2218', 'first', 'c1', 'r1=14', 'yes', 'no', 'all', 'public', '1', '0', '6'];

const hostile = fc.oneof(
  fc.constantFrom(...PROTOTYPE),
  fc.constantFrom(...NUMBERS),
  fc.constantFrom(...STRANGE),
  fc.constantFrom(...MEANINGFUL),
  fc.integer({ min: 100, max: 12_000 }).map((n) => 'x'.repeat(n)),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

interface Option {
  readonly name: string;
  readonly type: number;
  readonly required: boolean;
  readonly choices: readonly string[];
  readonly min: number | undefined;
  readonly max: number | undefined;
}
interface Form { readonly command: string; readonly sub: string | undefined; readonly options: readonly Option[] }

type RawOption = { type: number; name: string; required?: boolean; choices?: { value: string | number }[]; min_value?: number; max_value?: number; options?: RawOption[] };

const optionOf = (o: RawOption): Option => ({ name: o.name, type: o.type, required: o.required === true, choices: (o.choices ?? []).map((c) => String(c.value)), min: o.min_value, max: o.max_value });

/** Every command and sub-command with its options' schema (type, required, choices, range), from the registered payloads. */
function forms(payloads: readonly CommandPayload[]): Form[] {
  return payloads.flatMap((c): Form[] => {
    const opts = (c.options ?? []) as RawOption[];
    const subs = opts.filter((o) => o.type === 1);
    const groups = opts.filter((o) => o.type === 2);
    if (subs.length === 0 && groups.length === 0) return [{ command: c.name, sub: undefined, options: opts.map(optionOf) }];
    return [
      ...subs.map((s) => ({ command: c.name, sub: s.name, options: (s.options ?? []).map(optionOf) })),
      ...groups.flatMap((g) => (g.options ?? []).map((s) => ({ command: c.name, sub: `${g.name} ${s.name}`, options: (s.options ?? []).map(optionOf) }))),
    ];
  })
    // Deleting the campaign would end the game the rest of the lines play in.
    .filter((f) => !(f.command === 'campaign' && (f.sub === 'delete' || f.sub === 'create')));
}

const NUMERIC = new Set([4, 10]);

/**
 * A value for one option, from its schema: a meaningful one of its type (a choice, a number in
 * its range, a boolean, a member) or, twice as often, a hostile one (for numbers: huge,
 * non-finite, fractional and malformed numbers first).
 */
function valueFor(o: Option): fc.Arbitrary<string> {
  const meaningful = o.choices.length > 0 ? fc.constantFrom(...o.choices)
    : NUMERIC.has(o.type) ? fc.integer({ min: Math.ceil(o.min ?? -5), max: Math.max(Math.ceil(o.min ?? -5), Math.floor(o.max ?? 60)) }).map(String)
      : o.type === 5 ? fc.constantFrom('true', 'false')
        : o.type === 6 ? fc.constantFrom('alice', 'bob', 'referee', 'carol')
          : fc.constantFrom(...MEANINGFUL);
  const bad = NUMERIC.has(o.type) ? fc.oneof(fc.constantFrom(...NUMBERS), hostile) : hostile;
  return fc.oneof({ arbitrary: meaningful, weight: 1 }, { arbitrary: bad, weight: 2 });
}

/** One line of a form: every required option, each optional one half the time, in a shuffled order. */
function lineOf(form: Form): fc.Arbitrary<{ readonly form: Form; readonly given: readonly (readonly [string, string])[] }> {
  const parts = form.options.map((o) => {
    const pair = valueFor(o).map((v) => [o.name, v] as const);
    return o.required ? pair : fc.option(pair, { nil: undefined, freq: 2 });
  });
  return fc.tuple(fc.tuple(...parts), fc.infiniteStream(fc.nat()).map((s) => [...s.take(form.options.length)])).map(([picked, keys]) => {
    const given = picked.map((p, i) => ({ p, k: keys[i] ?? 0 })).filter((x) => x.p !== undefined).sort((a, b) => a.k - b.k).map((x) => x.p!);
    return { form, given };
  });
}

/** A console value: quoted, with quotes and backslashes escaped, on one line. */
const quoted = (v: string): string => `"${v.replace(/[\r\n]/g, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const UNPRINTABLE = /[\p{Cc}\p{Cf}]/u;

describe('hostile input over every command and option', () => {
  it('GIVEN 2,000 generated hostile lines THEN no internal error, no refusal over 2,000 characters, and nothing nonsensical stored', async () => {
    const all = forms(commandPayloads(commands));
    expect(all.length).toBeGreaterThan(40);
    const key = (f: Form, option: string): string => `/${f.command}${f.sub ? ` ${f.sub}` : ''} ${option}`;
    const everyOption = new Set(all.flatMap((f) => f.options.map((o) => key(f, o.name))));
    const reached = new Set<string>();
    const formsReached = new Set<Form>();
    const line = fc.record({
      user: fc.constantFrom('referee', 'alice', 'bob'),
      picked: fc.constantFrom(...all).chain(lineOf),
    }).map(({ user, picked }) => {
      const { form, given } = picked;
      formsReached.add(form);
      for (const [name] of given) reached.add(key(form, name));
      const opts = given.map(([name, value]) => `${name}:${quoted(value)}`);
      return `@${user} /${form.command}${form.sub ? ` ${form.sub}` : ''} ${opts.join(' ')}`.trim();
    });
    let lines = 0;
    await fc.assert(fc.asyncProperty(line, async (text) => {
      lines++;
      const out = await h.run(text);
      for (const o of out) {
        expect(o.content, text.slice(0, 300)).not.toContain('Something went wrong');
        const refusal = typeof o.data === 'object' && o.data !== null && 'error' in o.data;
        if (refusal) expect(o.content.length, text.slice(0, 300)).toBeLessThanOrEqual(2000);
      }
    }), { numRuns: 2_000, seed: 26, endOnFailure: true });
    expect(lines).toBeGreaterThanOrEqual(2_000);
    // Every sub-command and every option of each was given, not only the first few.
    expect(formsReached.size).toBe(all.length);
    expect([...everyOption].filter((k) => !reached.has(k))).toEqual([]);
    console.info(`hostile input: ${lines} lines over ${all.length} command forms and all ${everyOption.size} of their options`);

    const state = campaignState(h);
    for (const army of Object.values(state.armies)) {
      expect(UNPRINTABLE.test(army.name), army.name).toBe(false);
      for (const r of army.regiments) for (const c of r.companies) {
        expect(Number.isInteger(c.figures) && c.figures >= 0 && c.figures <= 10_000, `${army.id}/${r.id}: ${c.figures}`).toBe(true);
      }
    }
    expect(UNPRINTABLE.test(state.name)).toBe(false);
  }, 600_000);
});
