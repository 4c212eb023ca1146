/**
 * Hostile input over every command and option (a generated property, fast-check): prototype
 * names, huge and non-finite numbers, control, bidi and zero-width characters, long strings, mixed
 * with values that mean something. Over 2,000 console lines on one running campaign:
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

interface Form { readonly command: string; readonly sub: string | undefined; readonly options: readonly string[] }

/** Every command and sub-command with its option names, from the registered payloads. */
function forms(payloads: readonly CommandPayload[]): Form[] {
  return payloads.flatMap((c): Form[] => {
    const opts = (c.options ?? []) as { type: number; name: string; options?: { type: number; name: string; options?: { name: string }[] }[] }[];
    const subs = opts.filter((o) => o.type === 1);
    const groups = opts.filter((o) => o.type === 2);
    if (subs.length === 0 && groups.length === 0) return [{ command: c.name, sub: undefined, options: opts.map((o) => o.name) }];
    return [
      ...subs.map((s) => ({ command: c.name, sub: s.name, options: (s.options ?? []).map((o) => o.name) })),
      ...groups.flatMap((g) => (g.options ?? []).map((s) => ({ command: c.name, sub: `${g.name} ${s.name}`, options: (s.options ?? []).map((o) => o.name) }))),
    ];
  })
    // Deleting the campaign would end the game the rest of the lines play in.
    .filter((f) => !(f.command === 'campaign' && (f.sub === 'delete' || f.sub === 'create')));
}

/** A console value: quoted, with quotes and backslashes escaped, on one line. */
const quoted = (v: string): string => `"${v.replace(/[\r\n]/g, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const UNPRINTABLE = /[\p{Cc}\p{Cf}]/u;

describe('hostile input over every command and option', () => {
  it('GIVEN 2,000 generated hostile lines THEN no internal error, no refusal over 2,000 characters, and nothing nonsensical stored', async () => {
    const all = forms(commandPayloads(commands));
    expect(all.length).toBeGreaterThan(40);
    const line = fc.record({
      form: fc.constantFrom(...all),
      user: fc.constantFrom('referee', 'alice', 'bob'),
      values: fc.array(hostile, { minLength: 1, maxLength: 4 }),
    }).map(({ form, user, values }) => {
      const opts = form.options.slice(0, values.length).map((name, i) => `${name}:${quoted(values[i] as string)}`);
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
