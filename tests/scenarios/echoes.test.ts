/**
 * Refusals that quote what the user typed show it exactly as typed on Discord and ping nobody
 * (a generated property, fast-check): text full of markdown marks (* _ ~ | > # [ ] ( ) ` " \ :)
 * and mentions (<@1>, <@&2>, <#3>, @everyone), given to each command whose refusal echoes an
 * option, through the console and the app as Discord is sent it. Read as Discord renders it
 * (tests/support/discordView.ts: a mark that is not escaped counts as formatting), the refusal
 * holds the typed text whole between quotes, and no mention. Before, `/move to:"<@1> **bold**"`
 * answered `to: "<@1> **bold**" is neither ...` and Discord showed a mention and the word bold.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordView } from '../support/discordView.js';
import { consoleHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await consoleHarness({ setup: [
    '@referee /campaign create scenario:valormr name:"Echo War"',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /campaign start',
  ].join('\n') });
});

afterAll(() => h?.close());

/** Each command whose refusal quotes an option's text, with the refusal code it gives. */
const ECHOING: readonly { readonly line: (typed: string) => string; readonly code: string; readonly echoed?: (typed: string) => string }[] = [
  { line: (t) => `@alice /move army:hadewych to:${t}`, code: 'move.badHex' },
  { line: (t) => `@alice /map around:${t}`, code: 'map.badHex' },
  { line: (t) => `@alice /army status army:${t}`, code: 'army.unknown' },
  { line: (t) => `@referee /army edit army:hadewych hex:${t}`, code: 'edit.badHex' },
  { line: (t) => `@referee /campaign settings timezone:${t}`, code: 'settings.badTimezone' },
  // A cadence of five fields reaches the cron parser (other shapes are refused before, without an echo).
  { line: (t) => `@referee /campaign settings cadence:"0 8 * * ${t.slice(1, -1)}"`, code: 'settings.badCadence', echoed: (t) => `0 8 * * ${t}` },
  { line: (t) => `@alice /away until:${t}`, code: 'away.until' },
  { line: (t) => `@alice /notify reminder:${t}`, code: 'notify.badReminder' },
  { line: (t) => `@alice /dice enter roll:${t} value:3`, code: 'dice.unknownRoll' },
  { line: (t) => `@alice /army roles army:hadewych assault:${t}`, code: 'roles.unknownRegiment' },
  { line: (t) => `@alice /embark army:hadewych vessels:${t}`, code: 'embark.badVessels' },
  { line: (t) => `@referee /battle result contact:${t} losses:"r1=1"`, code: 'contact.notFound' },
];

/** A console value: quoted, with quotes and backslashes escaped. */
const quoted = (v: string): string => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const MARKS = ['*', '**', '_', '__', '~~', '||', '>', '#', '-', '[', ']', '(', ')', '`', '``', '"', '\\', ':', '@', '<', '>', 'a', 'b', '1'];
const MENTIONS = ['<@1>', '<@!1>', '<@&2>', '<#3>', '@everyone', '@here', ':smile:', '<t:1:R>', '[x](https://e.x)', '**bold**', '`code`', '\\*'];

/**
 * Typed text full of marks and mentions, no space in it (a cadence of one field), holding "zq"
 * somewhere: no hex, place, army, time or lead reads so, so every command refuses it.
 */
const typed = fc.tuple(fc.array(fc.oneof(fc.constantFrom(...MARKS), fc.constantFrom(...MENTIONS)), { minLength: 1, maxLength: 12 }), fc.nat())
  .map(([parts, at]) => [...parts.slice(0, at % (parts.length + 1)), 'zq', ...parts.slice(at % (parts.length + 1))].join(''));

describe('refusals echo what was typed literally', () => {
  it('GIVEN marks and mentions typed into each echoing option THEN the refusal as Discord shows it quotes the text exactly and mentions nobody', async () => {
    const reached = new Set<string>();
    await fc.assert(fc.asyncProperty(fc.constantFrom(...ECHOING), typed, async (form, text) => {
      const before = h.messages.length;
      const line = form.line(quoted(text));
      await h.run(line);
      const sent = h.messages.slice(before);
      expect(sent.length, line).toBe(1);
      const m = sent[0]!;
      const data = (h.outputs[h.outputs.length - 1]?.data ?? {}) as { error?: string };
      // Over an option's length limit, the console's own refusal (Discord would not send it): it echoes too.
      expect([form.code, 'console.badValue'], `${line}\n${m.content}`).toContain(data.error);
      reached.add(data.error!);
      const view = discordView(m.content);
      expect(view.shown, `${line}\n${m.content}`).toContain(`"${form.echoed ? form.echoed(text) : text}"`);
      expect(view.mentions, `${line}\n${m.content}`).toEqual([]);
    }), { numRuns: 400, seed: 23, endOnFailure: true });
    expect(ECHOING.map((f) => f.code).filter((c) => !reached.has(c))).toEqual([]);
  });

  it('GIVEN a place typed with marks around its name (it still names the place) THEN a refusal about that hex names it by its id, not as typed', async () => {
    await h.run('@referee /army edit army:grallune hex:Valdheim');
    const [out] = await h.run('@referee /army edit army:hadewych hex:"**Valdheim**"');
    expect(out?.data).toMatchObject({ error: 'edit.hexOccupied' });
    const content = h.messages[h.messages.length - 1]!.content;
    // Before: "**Valdheim** is held by Army of Grallune", the name in bold.
    expect(content).toMatch(/^\d{4} is held by Army of Grallune; one commander per hex\.$/);
    expect(discordView(content).shown).toBe(content);
  });

  it('GIVEN the example the player met THEN it reads as typed: no bold, no mention', async () => {
    await h.run('@alice /move army:hadewych to:"<@1> **bold**"');
    const content = h.messages[h.messages.length - 1]!.content;
    expect(content).toContain('to: "\\<\\@1\\> \\*\\*bold\\*\\*" is neither a hex');
    expect(discordView(content).shown).toContain('to: "<@1> **bold**" is neither a hex');
    // The console reads the escapes back: the user sees what they typed.
    expect(h.last().content).toContain('to: "<@1> **bold**" is neither a hex');
  });

  it('GIVEN a pause reason full of marks and mentions THEN the announcement, /turn status and the end of the pause say it as typed and mention nobody', async () => {
    const reason = '**feast** <@1> @everyone _x_ #1 `y`';
    const shown = async (line: string): Promise<string> => {
      const before = h.messages.length;
      await h.run(line);
      const sent = h.messages.slice(before).map((m) => [m.content, ...(m.cards ?? []).flatMap((c) => (c.fields ?? []).map((f) => f.value))].join('\n')).join('\n');
      expect(discordView(sent).mentions, sent).toEqual([]);
      return discordView(sent).shown;
    };
    // Before: "Reason: **feast** <@1> @everyone ..." went out as written, bold and a mention.
    expect(await shown(`@referee /campaign pause until:2d reason:"${reason}"`)).toContain(`Reason: ${reason}.`);
    expect(await shown('@alice /turn status')).toContain(`${reason}; resumes by itself`);
    // The scheduler resumes it when the time comes, and says why it was paused.
    expect(await shown('!now 2026-11-24T10:00Z\n!clock')).toContain(`The pause (${reason}) has ended.`);
  });
});
