/**
 * The bad inputs that broke something (issue 26): prototype names as contact and army ids, huge
 * figures, a one-frame time-lapse, a 10,000-character input echoed, scenario files with a BOM,
 * unprintable names or a side hostile to itself, and a clock outside the supported range.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../src/app/scenarios.js';
import { tinyScenario } from '../process/tinyScenario.js';
import { campaignState, consoleHarness, type Harness } from './harness.js';
import { contactHarness, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Bad Input"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign start',
].join('\n');

const refusal = (o: { data?: unknown }): string | undefined => (o.data as { error?: string } | undefined)?.error;

describe('lookups by user text never reach the prototype', () => {
  it.each(['__proto__', 'constructor', 'toString'])('GIVEN contact:%s WHEN /evade, /engage, /contact resolve or /battle result THEN a clear refusal, never an internal error', async (name) => {
    h = await consoleHarness({ setup: SETUP });
    for (const line of [
      `@alice /evade army:hadewych contact:${name}`,
      `@alice /engage army:hadewych contact:${name}`,
      `@alice /delay army:hadewych contact:${name}`,
      `@referee /contact resolve contact:${name}`,
      `@referee /battle result contact:${name}`,
    ]) {
      const [out] = await h.run(line);
      expect(out?.content, line).not.toContain('Something went wrong');
      expect(out?.content, line).not.toContain('undefined');
      expect(refusal(out!), line).toBeDefined();
    }
  });
});

describe('the referee\'s contact commands without `contact:`', () => {
  it('GIVEN no contact open THEN /battle result and /contact resolve say so (not "Say which contact ... Open contacts: none"); GIVEN one battle beside a contact still in step 1 THEN /battle result records that battle', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign start');
    const [noBattle] = await h.run('@referee /battle result');
    expect(noBattle?.content).toBe('No battle is waiting for its result: a contact becomes a battle when its commanders engage after the contact phase (`/contact list` shows each contact\'s step).');
    expect(refusal(noBattle!)).toBe('battle.none');
    const [noContact] = await h.run('@referee /contact resolve');
    expect(noContact?.content).toBe('No contact is open, so there is none to act on (`/contact list` shows the open contacts).');
    const battle = await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    await h.run('@referee /army edit army:minke hex:2010', '@referee /army edit army:lanze hex:2011');
    const other = await open(h, 'minke,lanze');
    const listed = (await h.run('@referee /contact list'))[0]?.content ?? '';
    expect(listed).toContain(`${battle} (`);
    expect(listed).toContain(`${other} (`);
    // Before: "Say which contact with `contact:`. Open contacts: ..." though only one battle waits.
    const [recorded] = await h.run('@referee /battle result');
    expect(recorded?.content).toBe(`Battle ${battle} recorded.`);
    expect(campaignState(h).contacts[other]?.step).toBe('step1');
  });
});

describe('/help for one command', () => {
  it('GIVEN a command made of subcommands THEN /help lists them and says how to read one; GIVEN "campaign settings" THEN its own options; a command with no option ends on its description', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [campaign] = await h.run('@referee /help command:campaign');
    expect(campaign?.content).toContain('- `/campaign settings`: Show or change the schedule and rules options.');
    expect(campaign?.content).toContain('The options of one: `/help command:"campaign create"`.');
    // Before: "There is no /campaign settings." The referee could not read a subcommand's options.
    const [settings] = await h.run('@referee /help command:"campaign settings"');
    expect(settings?.content).toMatch(/^\*\*\/campaign settings\*\* — Show or change the schedule and rules options\.\n- `cadence:` /);
    expect(settings?.content).toContain('- `positions:` Army positions: public (default) or fog of war');
    expect(refusal(settings!)).toBeUndefined();
    const [status] = await h.run('@alice /help command:"/turn status"');
    expect(status?.content).toBe('**/turn status** — Game time, next tick, who has given orders.\nNo options.');
    const [nosuch] = await h.run('@alice /help command:"campaign nosuch"');
    expect(nosuch?.content).toMatch(/^\/campaign has no subcommand "nosuch"\. Its subcommands: `\/campaign create`, /);
    const [move] = await h.run('@alice /help command:"move to"');
    expect(move?.content).toBe('/move has no subcommands: `/help command:move` lists its options.');
    // Before, a command without options ended on a blank line.
    const [web] = await h.run('@alice /help command:web');
    expect(web?.content).toBe('**/web** — A private link to your campaign page: your map to zoom, the days gone by, your intel (private).');
  });
});

describe('numbers a command takes', () => {
  it('GIVEN /army edit figures:r1=1e20 (or 10^30, or Infinity) THEN refused with the range, and the regiment is unchanged', async () => {
    h = await consoleHarness({ setup: SETUP });
    const regiment = campaignState(h).armies.hadewych!.regiments[0]!;
    for (const count of ['1e20', '1000000000000000000000000000000', 'Infinity', '-3', '2.5']) {
      const [out] = await h.run(`@referee /army edit army:hadewych figures:"${regiment.id}=${count}"`);
      expect(refusal(out!)).toBe('edit.badFigures');
      expect(out!.content).toContain('whole number of figures from 0 to 10,000');
    }
    expect(campaignState(h).armies.hadewych!.regiments[0]).toEqual(regiment);
  });
});

describe('refusals quote what was typed, cut', () => {
  it('GIVEN a 10,000-character army name WHEN refused THEN the refusal is under 2,000 characters and quotes at most 100 of them', async () => {
    h = await consoleHarness({ setup: SETUP });
    const long = 'q'.repeat(10_000);
    for (const line of [`@alice /move army:"${long}" to:0913`, `@referee /army edit army:hadewych figures:"${long}"`, `@referee /help command:"${long}"`]) {
      const [out] = await h.run(line);
      expect(out!.content.length).toBeLessThan(2_000);
      expect(out!.content).not.toContain('q'.repeat(101));
    }
  });
});

describe('the time-lapse', () => {
  it('GIVEN exactly one tick played WHEN /campaign timelapse THEN a still picture, not an internal error', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('!tick');
    const out = await h.run('@referee /campaign timelapse');
    const answer = out.find((o) => o.to === 'reply');
    expect(answer?.content).toContain('a still picture');
    expect(answer?.files?.[0]).toMatch(/\.webp$/);
  });
});

describe('scenario files', () => {
  it('GIVEN a scenario saved with a UTF-8 BOM THEN it is read', () => {
    expect(parseScenarioText(`\uFEFF${tinyScenario()}`, 'tiny.json').id).toBe('tiny');
  });

  it.each([['RTL override', 'Red \u202EHost'], ['zero-width space', 'Red\u200BHost'], ['NUL', 'Red\u0000Host']])('GIVEN an army name with a %s THEN refused with the path of the name', (_what, name) => {
    expect(() => parseScenarioText(tinyScenario(name), 'tiny.json')).toThrow(/armies\[0\]\.name.*printable/s);
  });

  it.each(['**Red** Host', 'Red <@&123> Host', '@everyone', 'Red_Host_', '# Red Host', '- Red Host', 'Red `Host`'])('GIVEN an army name with markdown or a mention (%s) THEN refused with the path of the name, saying why; a plain name is read', (name) => {
    expect(() => parseScenarioText(tinyScenario(name), 'tiny.json')).toThrow(/armies\[0\]\.name.*formatting or a mention/s);
    expect(parseScenarioText(tinyScenario("Red Host of the King's Men (1st)"), 'tiny.json').armies[0]?.name).toBe("Red Host of the King's Men (1st)");
  });

  it('GIVEN a side hostile to itself THEN refused', () => {
    const doc = JSON.parse(tinyScenario()) as { sides: { id: string; hostileTo: string[] }[] };
    doc.sides[0]!.hostileTo.push(doc.sides[0]!.id);
    expect(() => parseScenarioText(JSON.stringify(doc), 'tiny.json')).toThrow(/hostile to itself/);
  });
});

describe('the clock', () => {
  it.each(['-271821-04-20', '+275760-09-13T00:00:00Z', '1969-12-31T23:59Z'])('GIVEN !now %s THEN refused, and the clock is unchanged', async (when) => {
    h = await consoleHarness({ setup: SETUP });
    const before = h.clock.now().toISOString();
    const [out] = await h.run(`!now ${when}`);
    expect(out!.content).toContain('from 1970-01-01 to 9999-12-31');
    expect(h.clock.now().toISOString()).toBe(before);
  });
});
