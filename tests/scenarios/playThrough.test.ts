/**
 * What a play-through of the console found (session 19): answers a player or the referee read
 * that were wrong or unclear. Each case is the exact input and what its answer must say.
 */
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeName } from '../../src/engine/events/index.js';
import type { Actor } from '../../src/app/actor.js';
import { allEvents } from '../../src/db/eventRepo.js';
import { assignArmy } from '../../src/app/campaign/assignCommander.js';
import { announceAway } from '../../src/app/table/away.js';
import { campaignSeat } from '../../src/app/table/seat.js';
import { toDiscordPayloads } from '../../src/discord/payloads.js';
import { findCommand } from '../../commands/index.js';
import { SCOUT_LIMIT } from '../../src/engine/contact/index.js';
import { knownPositions } from '../../src/engine/knowledge/index.js';
import { campaignState, consoleHarness, hexIdOf, valormrMap, type ConsoleMessage, type Harness } from './harness.js';
import { contactHarness, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign start',
].join('\n');

const refusal = (o: { data?: unknown } | undefined): string | undefined => (o?.data as { error?: string } | undefined)?.error;

describe('a cadence the settings schema refuses before the cron check', () => {
  it.each(['banana', '0 8 * *', ''])('GIVEN /campaign settings cadence:"%s" THEN the refusal says what a cadence is, with an example, and nothing changes', async (cadence) => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run(`@referee /campaign settings cadence:"${cadence}"`);
    expect(refusal(out)).toMatch(/^settings\./);
    expect(out!.content).toContain('Nothing was changed');
    expect(out!.content).toContain('cron');
    expect(out!.content).toContain('cadence:"0 8,20 * * *"');
    expect(out!.content).not.toContain('a valid value');
    const [shown] = await h.run('@referee /campaign settings');
    expect(shown!.content).toContain('cadence `0 8,20 * * *`');
  });

  it('GIVEN /campaign settings timezone:"" THEN the refusal names the IANA form with an example', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@referee /campaign settings timezone:""');
    expect(refusal(out)).toMatch(/^settings\./);
    expect(out!.content).toContain('timezone:Europe/Berlin');
    expect(out!.content).not.toContain('a valid value');
  });
});

describe('/dice verify before any period has ended', () => {
  it('GIVEN no tick played WHEN a player asks /dice verify tick:999 THEN the refusal says none is revealed yet, never "the last one revealed is -1"', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /dice verify tick:999');
    expect(refusal(out)).toBe('dice.notRevealed');
    expect(out!.content).not.toContain('-1');
    expect(out!.content).toContain('No dice period has ended yet');
  });

  it('GIVEN one tick played WHEN /dice verify tick:999 THEN it still names the last period revealed', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('!tick');
    const [out] = await h.run('@alice /dice verify tick:999');
    expect(out!.content).toContain('The last one revealed is 0.');
  });
});

describe('sentences that begin with a commander whose name begins in lower case', () => {
  it.each(['public', 'fog'])('GIVEN positions %s and the Prince of Aeskrvald (commander "the Prince of Aeskrvald") sails THEN the sentence saying so begins with a capital', async (positions) => {
    h = await consoleHarness({
      seed: 3,
      setup: [
        '@referee /campaign create scenario:valormr name:"Autumn War"',
        `@referee /campaign settings positions:${positions}`,
        '@referee /campaign assign army:aeskrvald user:prince',
        '@referee /campaign start',
        '@referee /weather set fog:false wind:none',
      ].join('\n'),
    });
    await h.run('@prince /embark army:aeskrvald vessels:"troopTransport=9,galley=1"', '@prince /sail army:aeskrvald to:0506');
    await h.run('!tick');
    // The sentence goes to the channel's chronicle (positions public) and to the prince's tick report under fog.
    const report = [...h.channel(), ...h.dms('prince')].map((d) => d.content).join('\n');
    expect(report).toContain("The Prince of Aeskrvald's fleet sailed from 2304");
    expect(report).not.toMatch(/(^|│ )the Prince of Aeskrvald/m);
  });

  it('GIVEN the Prince marches on land THEN the channel chronicle line begins "The Prince of Aeskrvald marched"', async () => {
    h = await consoleHarness({
      setup: [
        '@referee /campaign create scenario:valormr name:"Autumn War"',
        '@referee /campaign assign army:aeskrvald user:prince',
        '@referee /campaign start',
      ].join('\n'),
    });
    await h.run('@prince /move army:aeskrvald to:2305', '!tick');
    const chronicle = h.channel().map((o) => o.content).join('\n');
    expect(chronicle).toContain('The Prince of Aeskrvald marched from 2304');
    expect(chronicle).not.toMatch(/(^|│ |: )the Prince of Aeskrvald marched/m);
  });
});

describe('a contact at sea, told to the referee', () => {
  it('GIVEN a fleet of 9 troop transports and a galley sighting an army THEN the referee reads "9 troop transports", plural', async () => {
    h = await consoleHarness({
      seed: 42,
      setup: [
        '!now 2026-11-22T10:00Z',
        '@referee /campaign create scenario:valormr name:"Sea War"',
        '@referee /campaign assign army:aeskrvald user:prince',
        '@referee /campaign assign army:lizardmen user:liz',
        '@referee /campaign start',
        '@referee /weather set fog:false wind:none',
      ].join('\n'),
    });
    await h.run('@prince /embark vessels:"troopTransport=9,galley=1"', '@prince /sail to:0506', '@liz /move to:0506');
    for (let i = 0; i < 8 && !h.dms('referee').some((d) => d.content.includes('Contact at sea')); i++) await h.run('!tick');
    const told = h.dms('referee').map((d) => d.content).find((c) => c.includes('Contact at sea'));
    expect(told).toBeDefined();
    expect(told).toContain('9 troop transports');
    expect(told).toContain('1 galley,');
  });
});

describe('/intel while a contact is open and no estimate has come yet', () => {
  it('GIVEN a contact before its contact phase WHEN /intel THEN the heading does not say "0 contacts" above the open contact', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign start', '@alice /move army:hadewych to:1021', '!tick');
    const [out] = await h.run('@alice /intel army:hadewych');
    expect(out!.content).toContain('Open contacts');
    expect(out!.content).not.toContain('(0 contacts');
    expect(out!.content).toMatch(/\(1 contact, 1 open\)/);
  });
});

describe('/move refusals that say what is wrong', () => {
  it('GIVEN a destination at sea (to:0101) THEN the refusal says it is water and how an army goes by sea', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /move army:hadewych to:0101');
    expect(refusal(out)).toBe('move.noPath');
    expect(out!.content).toContain('0101 is water');
    expect(out!.content).toContain('/embark');
  });

  it('GIVEN a path naming a hex twice in a row (path:"0817 0817") THEN the refusal says so, not "0817 is not next to 0817"', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /move army:hadewych path:"0817 0817"');
    expect(refusal(out)).toBe('move.notAdjacent');
    expect(out!.content).not.toContain('0817 is not next to 0817');
    expect(out!.content).toContain('0817 is named twice in a row');
  });

  it('GIVEN a path that begins with the army\'s own hex (path:"0816 0817") THEN the refusal says to begin with the first hex to enter', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /move army:hadewych path:"0816 0817"');
    expect(refusal(out)).toBe('move.notAdjacent');
    expect(out!.content).not.toContain('0816 is not next to 0816');
    expect(out!.content).toContain('begin the path with the first hex to enter');
  });
});

describe('a disengagement that costs one figure', () => {
  it('GIVEN Hadewych evades Grallune and loses 1 figure THEN the report says "(1 figure)", not "(1 figures)"', async () => {
    h = await consoleHarness({
      seed: 42,
      setup: [
        '!now 2026-11-22T10:00Z',
        '@referee /campaign create scenario:valormr name:"ACKS War"',
        '@referee /campaign settings profile:acks tactical:warlord',
        '@referee /campaign assign army:hadewych user:alice',
        '@referee /campaign assign army:grallune user:bob',
        '@referee /army edit army:hadewych hex:1122',
        '@referee /army edit army:grallune hex:1120',
        '@referee /campaign start',
      ].join('\n'),
    });
    await h.run('@alice /move to:1121', '@bob /rest', '!tick', '@alice /engage', '@bob /engage', '@alice /evade', '@bob /engage');
    const report = h.dms('alice').map((d) => d.content).find((c) => c.includes('evaded: die'));
    expect(report).toBeDefined();
    expect(report).toMatch(/Losses \d+% of First Regiment \(1 figure\)/);
    expect(report).not.toContain('(1 figures)');
  });
});

describe('the campaign book, read as a file outside Discord', () => {
  it('GIVEN a started campaign WHEN the public book is exported THEN its times are written out, not Discord\'s <t:...> markup, and "the The Valormr Campaign" is not doubled', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('!tick');
    const [out] = await h.run('@alice /campaign export format:markdown public:true');
    const zip = out?.files?.[0];
    expect(zip).toMatch(/\.zip$/);
    const md = strFromU8(unzipSync(new Uint8Array(readFileSync(zip!)))['book.md']!);
    expect(md).toContain('The campaign has started.');
    expect(md).not.toContain('<t:');
    expect(md).toContain('Next tick Sun, 22 Nov 2026, 20:00 UTC');
    expect(md).not.toMatch(/the The /);
    expect(md).toContain('A campaign of The Valormr Campaign scenario');
  });
});

describe('/contact open with the armies separated by spaces', () => {
  it('GIVEN armies:"hadewych grallune" THEN the refusal says the armies are separated by commas, with an example of this campaign\'s ids', async () => {
    h = await contactHarness();
    const [out] = await h.run('@referee /contact open armies:"hadewych grallune"');
    expect(refusal(out)).toBe('army.unknown');
    expect(out!.content).toContain('separated by commas');
    expect(out!.content).toContain('armies:"hadewych,grallune"');
    const [ok] = await h.run('@referee /contact open armies:"hadewych,grallune"');
    expect(refusal(ok)).toBeUndefined();
  });
});

describe('a battle result with a withdrawal, read in the channel', () => {
  it('GIVEN Hadewych withdraws in rout and is pushed back THEN the channel tells the withdrawal once, in the line that ends the battle, with where it was pushed', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    // Hadewych routs: 1 - 2 + 1 (larger) - 1 (clear) = -1 against 4 + 3 = 7: -8, 50% D (as in contactFlows).
    h.script.push(1, 4);
    const before = h.channel().length;
    await h.run('@referee /battle result losses:"hadewych/first=4, grallune/first=2" withdraw:"hadewych=rout"');
    const told = h.channel().slice(before).map((o) => o.content).join('\n');
    expect(told).toContain('The battle between Army of Hadewych and Army of Grallune is over; Army of Hadewych withdrew and was pushed back to 1123.');
    expect(told.match(/Army of Hadewych withdrew/g)).toHaveLength(1);
  });
});

describe('a battle recorded without table losses but with a withdrawal, read by the referee', () => {
  it('GIVEN /battle result withdraw:"hadewych=retreat" and no losses: THEN the referee\'s record does not say "no losses" under the withdrawal\'s own losses', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    const before = h.dms('referee').length;
    await h.run('@referee /battle result withdraw:"hadewych=retreat"');
    const told = h.dms('referee').slice(before).map((o) => o.content).join('\n');
    expect(told).toMatch(/Army of Hadewych withdrew: die .* Losses \d+% of First Regiment/);
    expect(told).toContain('recorded: no losses entered from the table; Army of Hadewych withdrew in retreat.');
    expect(told).not.toContain('recorded: no losses;');
  });
});

describe('fight on the morrow, told in the channel', () => {
  it('GIVEN nobody presses the contact THEN the channel says what the rule does (out of contact for the rest of this half period, in contact again at the start of the next), naming the armies "A and B"', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    const before = h.channel().length;
    await h.run('@referee /contact resolve');
    const told = h.channel().slice(before).map((o) => o.content).join('\n');
    expect(told).toContain('No commander pressed the contact (fight on the morrow): Army of Hadewych and Army of Grallune are out of contact for the rest of this half period, and in contact again at the start of the next if they still face each other.');
    expect(told).not.toContain('will fight on the morrow');
    expect(told).not.toContain('Army of Hadewych, Army of Grallune');
  });
});

describe('/army status of a fleet under way', () => {
  it('GIVEN the fleet sails to 0506 and the Lizard Men march there THEN its order never gives a "via" that repeats the destination, and once the fleet lies next to 0506 it reads "sail to 0506."', async () => {
    h = await consoleHarness({
      setup: [
        '!now 2026-11-22T10:00Z',
        '@referee /campaign create scenario:valormr name:"Sea War"',
        '@referee /campaign settings positions:fog',
        '@referee /campaign assign army:aeskrvald user:prince',
        '@referee /campaign assign army:lizardmen user:liz',
        '@referee /campaign start',
      ].join('\n'),
    });
    // As played: the Lizard Men reach 0506 first and the fleet lies off it, next to its destination.
    await h.run('@prince /embark vessels:"troopTransport=9,galley=1"', '@prince /sail to:0506', '@liz /move to:0506');
    const orders: string[] = [];
    for (let i = 0; i < 12 && !orders.some((o) => o === 'sail to 0506.'); i++) {
      const [status] = await h.run('@prince /army status');
      const order = /\*\*Order\*\*: (.*)$/m.exec(status!.content)?.[1];
      if (order) orders.push(order);
      await h.run('!tick');
    }
    expect(orders[0]).toMatch(/^sail to 0506, via \d{4}( \d{4})*\.$/);
    for (const o of orders) expect(o).not.toMatch(/via (.* )?0506\./);
    expect(orders).toContain('sail to 0506.');
  });

  it('GIVEN a march to the next hex THEN its order reads "to 0817." with no via; a longer march lists only the hexes before its destination', async () => {
    h = await consoleHarness({ setup: SETUP });
    await h.run('@alice /move army:hadewych to:0817');
    const [one] = await h.run('@alice /army status army:hadewych');
    expect(/\*\*Order\*\*: (.*)$/m.exec(one!.content)?.[1]).toMatch(/ to 0817\.$/);
    await h.run('@alice /move army:hadewych path:"0817 0818"');
    const [two] = await h.run('@alice /army status army:hadewych');
    expect(/\*\*Order\*\*: (.*)$/m.exec(two!.content)?.[1]).toMatch(/ to 0818, via 0817\.$/);
  });
});

describe('a required option left out on the console', () => {
  it('GIVEN /debark without hex: THEN the refusal says what the hex must be (land, next to the fleet, the port or the river hex) with an example line', async () => {
    h = await consoleHarness({
      setup: [
        '@referee /campaign create scenario:valormr name:"Sea War"',
        '@referee /campaign assign army:aeskrvald user:prince',
        '@referee /campaign start',
      ].join('\n'),
    });
    await h.run('@prince /embark vessels:"troopTransport=9,galley=1"');
    const [out] = await h.run('@prince /debark army:aeskrvald');
    expect(refusal(out)).toBe('console.missingOption');
    expect(out!.content).toContain('/debark needs `hex:` (land hex or place to land on: the port, a hex next to the fleet, or the river hex).');
    expect(out!.content).toContain('E.g. `@prince /debark army:aeskrvald hex:0506`.');
  });

  it('GIVEN /scouts without count: THEN the refusal names the numbers accepted, with an example line built from the option', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@alice /scouts');
    expect(refusal(out)).toBe('console.missingOption');
    expect(out!.content).toContain(`/scouts needs \`count:\` (scouts to deploy: from 0 to ${SCOUT_LIMIT}).`);
    expect(out!.content).toMatch(/E\.g\. `@alice \/scouts count:\d+`\./);
  });
});

describe('a march told once in the commander\'s tick report', () => {
  const FOG = [
    '@referee /campaign create scenario:valormr name:"Fog War"',
    '@referee /campaign settings positions:fog',
    '@referee /campaign assign army:lanze user:carol',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign start',
  ].join('\n');

  it('GIVEN fog of war and a march WHEN the tick is played THEN the commander\'s report tells it once, in the account with the points left, and the channel not at all', async () => {
    h = await consoleHarness({ setup: FOG });
    await h.run('@carol /move to:3424');
    await h.run('!tick');
    const report = h.dms('carol').map((d) => d.content).join('\n');
    expect(report).toContain('**Movement**: Morning: Army of Lanze marched 3526 -> 3525; 6 of 12 points left today.');
    expect(report).not.toContain('marched from 3526 to 3525');
    expect(report.match(/3526/g)).toHaveLength(1);
    expect(h.channel().map((c) => c.content).join('\n')).not.toContain('3525');
  });

  it('GIVEN positions public and the same march THEN the channel has the public line and the commander the account, as before', async () => {
    h = await consoleHarness({ setup: FOG.replace('positions:fog', 'positions:public') });
    await h.run('@carol /move to:3424');
    await h.run('!tick');
    expect(h.channel().map((c) => c.content).join('\n')).toContain('Arn marched from 3526 to 3525.');
    expect(h.dms('carol').map((d) => d.content).join('\n')).toContain('**Movement**: Morning: Army of Lanze marched 3526 -> 3525; 6 of 12 points left today.');
  });
});

describe('fog of war: what the armies know at the start', () => {
  const known = (x: Harness, viewer: string, target: string): string | undefined => {
    const s = knownPositions(campaignState(x), [viewer])[target];
    return s ? `${valormrMap.format(s.hex)} ${s.how}` : undefined;
  };

  it('GIVEN fog set before the start and the referee placing Hadewych at 1122 (scenario start 0816) before /campaign start THEN Lanze knows Hadewych at 1122, where it stands as the campaign starts; a placement after the start stays the referee\'s', async () => {
    h = await consoleHarness({
      setup: [
        '@referee /campaign create scenario:valormr name:"Fog War"',
        '@referee /campaign settings positions:fog',
        '@referee /campaign assign army:hadewych user:alice',
        '@referee /campaign assign army:lanze user:carol',
        '@referee /army edit army:hadewych hex:1122',
      ].join('\n'),
    });
    expect(known(h, 'lanze', 'hadewych')).toBe('0816 public');
    await h.run('@referee /campaign start');
    expect(known(h, 'lanze', 'hadewych')).toBe('1122 public');
    expect(known(h, 'hadewych', 'lanze')).toBe(`${hexIdOf(h, 'lanze')} public`);
    await h.run('@referee /army edit army:hadewych hex:1123');
    expect(known(h, 'lanze', 'hadewych')).toBe('1122 public');
    expect(h.channel().map((c) => c.content).join('\n')).not.toMatch(/1122|1123/);
  });
});

describe('/contact open: what armies: takes', () => {
  it('GIVEN /contact open without armies: THEN the console says it takes army ids separated by commas, with an example naming two armies (ids), not a commander', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@referee /contact open');
    expect(refusal(out)).toBe('console.missingOption');
    expect(out!.content).toContain('/contact open needs `armies:` (ids of the enemy armies in contact, separated by commas).');
    expect(out!.content).toContain('E.g. `@referee /contact open armies:"hadewych,grallune"`.');
    expect(out!.content.toLowerCase()).not.toContain('ingegerd');
  });

  it('GIVEN /contact open with one army THEN the refusal asks for at least two, by id, with two of this campaign\'s army ids on different sides', async () => {
    h = await consoleHarness({ setup: SETUP });
    const [out] = await h.run('@referee /contact open armies:hadewych');
    expect(refusal(out)).toBe('contact.openArmies');
    const example = /armies:"([a-z-]+),([a-z-]+)"/.exec(out!.content);
    const state = campaignState(h);
    expect(example).not.toBeNull();
    expect(state.armies[example![1]!]!.side).not.toBe(state.armies[example![2]!]?.side);
    expect(out!.content.toLowerCase()).not.toContain('ingegerd');
  });
});

describe('/support and /reserve without of:', () => {
  it('GIVEN Hadewych\'s commander asks /support or /reserve without of: THEN the example names an allied army of this campaign (of Hadewych\'s side, not Hadewych), by id', async () => {
    h = await consoleHarness({ setup: SETUP });
    const state = campaignState(h);
    for (const [command, code] of [['support', 'contact.supportWhom'], ['reserve', 'contact.reserveWhom']] as const) {
      const [out] = await h.run(`@alice /${command}`);
      expect(refusal(out)).toBe(code);
      const example = new RegExp(`\`/${command} of:([a-z-]+)\``).exec(out!.content);
      expect(example).not.toBeNull();
      expect(example![1]).not.toBe('hadewych');
      expect(state.armies[example![1]!]?.side).toBe(state.armies.hadewych!.side);
    }
  });
});

describe('how many scouts: one range on Discord, on the console and in the answers', () => {
  it('GIVEN the rulings\' bound on scouts THEN Discord\'s /scouts count option takes exactly 0 to that bound, the console refuses one more naming it, and /scouts and /army status say the same range', async () => {
    expect(SCOUT_LIMIT).toBe(6);
    const option = findCommand('scouts')!.data.toJSON().options!.find((o) => o.name === 'count') as { min_value?: number; max_value?: number };
    expect([option.min_value, option.max_value]).toEqual([0, SCOUT_LIMIT]);
    h = await consoleHarness({ setup: SETUP });
    const [over] = await h.run(`@alice /scouts count:${SCOUT_LIMIT + 1}`);
    expect(refusal(over)).toBe('console.badValue');
    expect(over!.content).toContain(`the largest accepted is ${SCOUT_LIMIT}`);
    const [most] = await h.run(`@alice /scouts count:${SCOUT_LIMIT}`);
    expect(refusal(most)).toBeUndefined();
    expect(most!.content).toContain(`${SCOUT_LIMIT} deployed ahead (any number from 0 to ${SCOUT_LIMIT};`);
    const [status] = await h.run('@alice /army status');
    expect(status!.content).toContain(`any number from 0 to ${SCOUT_LIMIT};`);
  });
});

/**
 * Markdown and mention syntax in a name (session 19: `/campaign create name:"@everyone **Big** War
 * <@&123> _x_"` was written raw, and its `**` broke the bold of every card title around it).
 */
describe('a name with markdown or mention syntax', () => {
  const PIECES = ['**', '*', '_', '__', '~~', '|', '||', '`', '```', '>', '> ', '<@&123>', '<@456>', '<#789>', '@everyone', '@here', '#', '# ', '- ', '[x](https://e.x)', ':skull:', '\\', '"', ' ', 'War', 'Big', 'a'];
  const nameArb = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 })
    .map((parts) => parts.join(''))
    .filter((n) => /[a-z]/i.test(n) && n.trim() === n && n.length <= 80);

  /** Discord's reading of a text: the markers it takes (an escaped character is text), in order. */
  function markers(text: string): { bold: number; strike: number; spoiler: number; code: number; mentions: string[]; spans: string[] } {
    const found = { bold: 0, strike: 0, spoiler: 0, code: 0, mentions: [] as string[], spans: [] as string[] };
    for (let i = 0; i < text.length; i++) {
      const rest = text.slice(i);
      if (rest.startsWith('\\') && i + 1 < text.length) { i++; continue; }
      if (rest.startsWith('**')) { found.bold++; i++; continue; }
      if (rest.startsWith('~~')) { found.strike++; i++; continue; }
      if (rest.startsWith('||')) { found.spoiler++; i++; continue; }
      if (rest.startsWith('`')) {
        // A code span: a run of backticks closed by a run of the same length; inside it nothing is markup.
        const fence = /^`+/.exec(rest)![0];
        const close = new RegExp(`(?<!\`)${fence}(?!\`)`).exec(text.slice(i + fence.length));
        if (close) { found.spans.push(text.slice(i + fence.length, i + fence.length + close.index)); i += fence.length + close.index + fence.length - 1; } else { found.code++; i += fence.length - 1; }
        continue;
      }
      const mention = /^(<@[!&]?[^>\s]*>|<#[^>\s]*>|@everyone|@here)/.exec(rest);
      if (mention) found.mentions.push(mention[1]!);
    }
    return found;
  }

  /** The texts Discord is sent for a message: each payload's content and each embed's title, description, fields and footer. */
  const discordTexts = (m: ConsoleMessage): string[] => toDiscordPayloads(m).flatMap((p) => [
    p.content ?? '',
    ...(p.embeds ?? []).flatMap((e) => [e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value]), e.footer?.text ?? '']),
  ]);

  /** A Discord text read as a person sees it: bold marks gone, escapes read. */
  const shown = (text: string): string => text.replace(/(?<!\\)\*\*/g, '').replace(/\\(.)/g, '$1');

  it('GIVEN any campaign name of markdown and mention pieces THEN no message Discord is sent has its bold, strike, spoiler or code broken or a mention in it, the name reads as typed, and the console shows it as typed', async () => {
    await fc.assert(fc.asyncProperty(nameArb, async (name) => {
      const typed = name.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
      const run = await consoleHarness({
        setup: [
          `@referee /campaign create scenario:valormr name:"${typed}"`,
          '@referee /campaign assign army:hadewych user:alice',
          '@referee /campaign assign army:grallune user:bob',
          '@referee /army edit army:hadewych hex:1122',
          '@referee /army edit army:grallune hex:1120',
          '@referee /campaign start',
          '@alice /move army:hadewych to:1121',
          '!tick',
          '@alice /engage',
          '@bob /engage',
          '@alice /army status',
          '@alice /campaign status',
          '@referee /turn status',
          '@referee /referee inbox',
          '@referee /campaign export',
          '@referee /campaign end confirm:wrong',
          '@referee /campaign delete confirm:wrong',
          `@referee /campaign delete confirm:"${typed}"`,
        ].join('\n'),
      });
      try {
        expect(run.outputs[0]!.content).toContain(name);
        const texts = run.messages.flatMap(discordTexts);
        for (const text of texts) {
          const m = markers(text);
          expect({ text, bold: m.bold % 2, strike: m.strike % 2, spoiler: m.spoiler % 2, code: m.code % 2 }).toEqual({ text, bold: 0, strike: 0, spoiler: 0, code: 0 });
          expect({ text, mentions: m.mentions.filter((x) => !/^<@(alice|referee)>$/.test(x)) }).toEqual({ text, mentions: [] });
        }
        expect(texts.filter((t) => shown(t).includes(`**${name}**`) || shown(t).includes(name)).length).toBeGreaterThan(3);
        expect(texts.some((t) => t.includes(`**${escapeName(name)}**`))).toBe(true);
        // The refusals show the command to confirm as code, whole, whatever the name holds (a name with
        // two backticks in a row cannot be one code span: written plain).
        for (const command of ['end', 'delete']) {
          const spans = texts.flatMap((t) => markers(t).spans.map((x) => x.replace(/^ (.*) $/, '$1')));
          if (!name.includes('``')) expect(spans).toContain(`/campaign ${command} confirm:"${name}"`);
        }
        // The console shows that command as Discord does: inside its code span a backslash stays as it is.
        if (!name.includes('``')) expect(run.outputs.map((o) => o.content).join('\n')).toContain(`/campaign delete confirm:"${name}"`);
        expect(texts).toContain(`The campaign **${escapeName(name)}** was deleted.`);
      } finally {
        run.close();
      }
    }), { numRuns: 25, seed: 20 });
  });

  it('GIVEN a commander and a substitute whose display names are any markdown and mention pieces THEN assign, ready, away, the seat taken and given back, and the status cards escape them: nothing broken, no mention, each name reads as typed, on the console too', async () => {
    const at = (userId: string, userName: string): Actor => ({ userId, userName, guildId: 'console', channelId: 'console', roleIds: [] });
    await fc.assert(fc.asyncProperty(nameArb, nameArb, async (alice, dave) => {
      const run = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Autumn War"' });
      try {
        // Discord gives the display names (the user option's label, the actor's name); the console has only ids, so these are called as the transport calls them.
        const direct: ConsoleMessage[] = [];
        direct.push(...assignArmy(run.app, at('referee', 'referee'), { army: 'hadewych', userId: 'alice', userName: alice }));
        await run.deliver();
        await run.run('@referee /campaign assign army:grallune user:bob', '@referee /campaign start', '@alice /ready', '@referee /turn status', '@referee /campaign status');
        direct.push(...announceAway(run.app, at('alice', alice), { until: '3d' }));
        await run.deliver();
        await run.run('@referee /referee inbox');
        direct.push(...campaignSeat(run.app, at('referee', 'referee'), { army: 'hadewych', userId: 'dave', userName: dave, action: 'offer' }));
        await run.deliver();
        await run.run('@referee /turn status', '@referee /campaign status', '@referee /referee inbox', '@referee /seat give-back army:hadewych');
        // What Discord is sent, and the journal's texts (the web chronicle, the referee's lines).
        const texts = [...[...run.messages, ...direct].flatMap(discordTexts), ...allEvents(run.app.db, campaignState(run).id).map((e) => e.text)];
        for (const text of texts) {
          const m = markers(text);
          expect({ text, bold: m.bold % 2, strike: m.strike % 2, spoiler: m.spoiler % 2, code: m.code % 2 }).toEqual({ text, bold: 0, strike: 0, spoiler: 0, code: 0 });
          expect({ text, mentions: m.mentions.filter((x) => !/^<@(alice|bob|dave|referee)>$/.test(x)) }).toEqual({ text, mentions: [] });
        }
        const [a, d] = [escapeName(alice), escapeName(dave)];
        const said = (what: string): string | undefined => texts.find((t) => t.includes(what));
        const lines = [
          `${a} now commands **Army of Hadewych**`,
          `${a} now commands Army of Hadewych.`,
          `${a} is ready for Day 1, morning.`,
          `${a} (1 of 2)`,
          `Army of Hadewych (${a}): without orders`,
          `Army of Hadewych (\`hadewych\`) at 0816: ${a}`,
          `${a} is away until `,
          `${d} now holds the seat of **Army of Hadewych**`,
          `${d} takes the seat of **Army of Hadewych** as substitute for ${a}.`,
          `gives it back to ${a}.`,
          `Army of Hadewych (${d}): without orders`,
          `Army of Hadewych (\`hadewych\`) at 0816: ${d}`,
          `${d}'s time as substitute of **Army of Hadewych** ends: the seat goes back to ${a}.`,
        ];
        expect(lines.filter((line) => said(line) === undefined)).toEqual([]);
        // The console reads the escapes back: the names as typed.
        const consoleSaid = run.outputs.map((o) => o.content).join('\n');
        expect(consoleSaid).toContain(`${alice} (1 of 2)`);
        expect(consoleSaid).toContain(`${dave}'s time as substitute of **Army of Hadewych** ends: the seat goes back to ${alice}.`);
      } finally {
        run.close();
      }
    }), { numRuns: 15, seed: 20 });
  });
});

describe('names of armies: a division is named by the one who splits it', () => {
  it('GIVEN /army split with a name holding markdown or a mention THEN it is refused saying which characters, the name quoted as typed; a plain name splits', async () => {
    h = await consoleHarness({
      setup: [
        '@referee /campaign create scenario:valormr name:"Split War"',
        '@referee /campaign settings profile:acks',
        '@referee /campaign assign army:hadewych user:alice',
        '@referee /campaign start',
      ].join('\n'),
    });
    const [bad] = await h.run('@referee /army split army:hadewych regiments:first to:0817 name:"**Left** <@&1>"');
    expect(refusal(bad)).toBe('army.divisionName');
    expect(bad!.content).toContain('"**Left** <@&1>" holds a character Discord would read as formatting or a mention');
    const [good] = await h.run('@referee /army split army:hadewych regiments:first to:0817 name:"Left Wing"');
    expect(refusal(good)).toBeUndefined();
    expect(good!.content).toContain('Left Wing');
  });
});
