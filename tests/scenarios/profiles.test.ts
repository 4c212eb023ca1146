import { afterEach, describe, expect, it } from 'vitest';
import type { Army } from '../../src/engine/forces/index.js';
import { campaignState, consoleHarness, hexIdOf, type Harness } from './harness.js';
import { contactHarness, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const err = (o: { data?: unknown } | undefined) => (o?.data as { error?: string } | undefined)?.error;
const army = (x: Harness, id: string) => campaignState(x).armies[id] as Army;
/** Clear skies all week: every weather die a 1 ("no change" on the clear column). */
const CLEAR_WEEK = Array.from({ length: 200 }, () => 1);
const ACKS = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign settings profile:acks',
  '@referee /campaign assign army:grallune user:alice',
  '@referee /campaign start',
].join('\n');
const day = ['!tick', '!tick', '!tick', '!tick'].join('\n');

describe('a campaign under the ACKS profile (004), a game week through the console', () => {
  it('GIVEN profile:acks THEN the settings say so and /rules topic:profile shows its numbers', async () => {
    h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Autumn War"' });
    const [set] = await h.run('@referee /campaign settings profile:acks');
    expect(set?.content).toContain('profile acks (ACKS army movement)');
    const [topic] = await h.run('@alice /rules topic:profile');
    expect(topic?.content).toContain('**Movement profile**: ACKS army movement (004)');
    expect(topic?.content).toContain('30\' → 6, every 30\' more → 6 more, up to 360\' → 72');
    expect(topic?.content).toContain('at most 4 marching days in any 7');
    expect(topic?.content).toMatch(/33\+\s+12 mi\s+×1\/3/);
    expect(topic?.content).toContain('reductions multiply');
    expect(topic?.content).toContain('**Kept from Valormr** (004 is silent): the terrain costs but the road\'s; formed troops kept out of forest, swamp and mountain off road; night movement; rivers and their crossings');
    expect(topic?.content).toContain('temperature frigid ×0.5, sweltering ×0.5 (the weather rolls none: the referee sets the season\'s with `/campaign profile temperature:`, now moderate)');
    expect(topic?.content).toContain('**Not played**: temperature\'s disease, grazing, armour and morale effects');
    expect(topic?.content.length).toBeLessThan(2000);
    const [rest] = await h.run('@alice /rules topic:rest');
    expect(rest?.content).toContain('at most 4 marching days in any 7');
  });

  it('GIVEN profile:acks and each tactical profile WHEN /rules topic:profile THEN the tactical profile is shown whole, in a message of its own, none cut off', async () => {
    h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Autumn War"' });
    const expected = {
      valormr: '**Tactical profile**: Valormr (001); distances in inches; table 48", short bow 7.5" (presets 48", 7.5").',
      chapter002: '- Its movement rates are blank in the bot\'s copy of the chapter: the referee\'s.',
      warlord: '**Tactical profile**: Fantasy Warlord (003); distances in centimetres; table 122 cm, short bow 19 cm (presets 122 cm, 19 cm).',
    };
    for (const [tactical, line] of Object.entries(expected)) {
      await h.run(`@referee /campaign settings profile:acks tactical:${tactical}`);
      const parts = await h.run('@alice /rules topic:profile');
      // Before the fix the answer was cut at 1,900 characters, the tactical profile with it ("**Tactical profile**: Fantasy …").
      expect(parts.map((p) => p.to)).toEqual(['ephemeral', 'ephemeral']);
      expect(parts[0]?.content).toContain('**Not played**: temperature\'s disease');
      expect(parts[1]?.content.startsWith('**Tactical profile**: ')).toBe(true);
      expect(parts[1]?.content).toContain(line);
      for (const p of parts) {
        expect(p.content.length).toBeLessThanOrEqual(1900);
        expect(p.content).not.toContain('…');
      }
    }
  });

  it('GIVEN ACKS and a forced march ordered before the day WHEN the battle is joined that day THEN the referee reads each deployment die with its modifiers, the +2 among them, and a score held at 6; the briefing names none', async () => {
    h = await consoleHarness({
      setup: [
        '@referee /campaign create scenario:valormr name:"Autumn War"',
        '@referee /campaign settings profile:acks tactical:warlord',
        '@referee /campaign assign army:hadewych user:alice',
        '@referee /campaign assign army:grallune user:bob',
        '@referee /army edit army:hadewych hex:1123',
        '@referee /army edit army:grallune hex:1120',
        '@referee /campaign start',
      ].join('\n'),
    });
    await h.run('@alice /move army:hadewych to:1122 forced:true', '@bob /move army:grallune to:1121', '!tick');
    const out = await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    const referee = out.find((o) => o.to === 'dm' && o.user === 'referee' && o.content.includes('Deployment for'))?.content ?? '';
    // Before, "Army of Grallune 6 -> 6; Army of Hadewych 4 -> 6": the +2 of 004's forced march (and every other modifier) could not be seen.
    expect(referee).toContain('Army of Grallune 6 +1 (highest unmodified contact dice) +1 (all opponents in clear terrain) = 8, held at 6; Army of Hadewych 4 +1 (all opponents in clear terrain) +2 (forced march declared before the day\'s march) = 7, held at 6; initiative Army of Grallune.');
    // The briefing (channel and commanders) keeps the die and the score: two modifiers come from the secret contact dice, and a forced march is an order.
    const briefing = out.find((o) => o.to === 'channel' && o.content.includes('**Baselines**'))?.content ?? '';
    expect(briefing).toContain('**Army of Hadewych**: deployment dice 4 -> 6; baseline 6 counted from the forward');
    expect(briefing).not.toMatch(/contact dice|forced march/);
    expect(briefing).toContain('**Initiative**: Army of Grallune (tied on the score: the higher unmodified die).');
  });

  it('GIVEN a forced march done by the afternoon THEN /army status that evening counts today\'s points as the forced march\'s, as the tick report does, and says the rest it owes only until its day of rest is over (ACKS and Valormr)', async () => {
    for (const profile of ['acks', 'valormr']) {
      h = await consoleHarness({ setup: ACKS.replace('profile:acks', `profile:${profile}`), dice: CLEAR_WEEK });
      await h.run('@referee /army edit army:grallune hex:1123');
      // Two hills (9 each) take the 18 points of a forced march.
      await h.run('@alice /move army:grallune path:"1124 1125" forced:true', '!tick', '!tick');
      expect(hexIdOf(h, 'grallune')).toBe('1125');
      expect(h.outputs.some((o) => o.content.includes('Afternoon: Army of Grallune marched 1124 -> 1125; 0 of 18 points left today.'))).toBe(true);
      const [status] = await h.run('@alice /army status army:grallune');
      // Before the fix: "0 of 12 left", the day's points without the forced march, once its order was done.
      expect(status?.content).toContain('Points today: 0 of 18 left.');
      expect(status?.content).toContain('Rest: forced march today (day 1): rest all of tomorrow;');
      // The day of rest it owes, then nothing: before, "forced march on day 1: rest the day after" stood for good.
      await h.run('!tick', '!tick');
      const [rest] = await h.run('@alice /army status army:grallune');
      expect(rest?.content).toContain('Rest: forced march yesterday (day 1): today is its day of rest;');
      await h.run('!tick', '!tick', '!tick', '!tick');
      const [later] = await h.run('@alice /army status army:grallune');
      expect(later?.content).toContain('Day 3, morning.');
      expect(later?.content).not.toContain('forced march');
      h.close();
      h = undefined;
    }
  });

  it('GIVEN an army marching every day THEN four days are fine, the fifth fatigues it (not slower), and three days of rest over the week recover it', async () => {
    h = await consoleHarness({ setup: ACKS, dice: CLEAR_WEEK });
    const [plan] = await h.run('@alice /move army:grallune to:1813');
    expect(err(plan)).toBeUndefined();
    const marched: string[] = [];
    for (let d = 1; d <= 4; d++) {
      await h.run(day);
      marched.push(hexIdOf(h, 'grallune'));
      expect(army(h, 'grallune').status.fatigued, `day ${d}`).toBe(false);
    }
    expect(new Set(marched).size).toBe(4);
    const [status] = await h.run('@alice /army status army:grallune');
    expect(status?.content).toContain('4 marching day(s) in the 6 days before today (at most 4 in any 7)');
    await h.run(day);
    expect(army(h, 'grallune').march.fatigueReason).toBe('marchWindow');
    expect(hexIdOf(h, 'grallune')).not.toBe(marched[3]);
    expect(h.dms('alice').some((o) => /is fatigued: marched more days in a week than the rest rule allows/.test(o.content))).toBe(true);
    // Rest: days 6 and 7 are not enough (five of the last seven marched), day 8 is.
    await h.run('@alice /rest army:grallune', day, day);
    expect(army(h, 'grallune').status.fatigued).toBe(true);
    await h.run(day);
    expect(army(h, 'grallune').status.fatigued).toBe(false);
    expect(h.dms('alice').some((o) => /rested a full day and is no longer fatigued/.test(o.content))).toBe(true);
  });

  it('GIVEN a forced march over several days THEN the preview counts ACKS\'s fatigue as no slower and carries unspent points into a dear hex', async () => {
    h = await consoleHarness({ setup: ACKS });
    const [plan] = await h.run('@alice /move army:grallune to:1813 forced:true');
    expect(err(plan)).toBeUndefined();
    expect(plan?.content).toContain('from tomorrow the army marches fatigued (a forced march the day before; no slower on the march under this profile, but it fights fatigued)');
    expect(plan?.content).not.toContain('a quarter fewer points');
    // 18 points a day, 6 carried from the day before: a forest hex (9) with 15 left.
    expect(plan?.content).toMatch(/forest: 9 pts — day \+\d, morning, 15 left/);
  });

  it('GIVEN a day order given in the evening THEN the preview carries nothing from the day not marched and shows the halves the tick plays', async () => {
    h = await consoleHarness({ setup: ACKS, dice: CLEAR_WEEK });
    await h.run('!tick', '!tick', '@referee /army edit army:grallune hex:1123');
    const [plan] = await h.run('@alice /move army:grallune path:"1122 1222"');
    expect(err(plan)).toBeUndefined();
    // 12 points a day: the day it did not march carries nothing (004's carry is for a march short of its next hex).
    expect(plan?.content).toContain('- 1122 clear: 6 pts — tomorrow, morning, 6 left');
    expect(plan?.content).toContain('- 1222 clear: 6 pts — tomorrow, afternoon, 0 left');
    await h.run('!tick', '!tick', '!tick');
    expect(hexIdOf(h, 'grallune')).toBe('1122');
    const [status] = await h.run('@alice /army status army:grallune');
    expect(status?.content).toContain('Points today: 6 of 12 left.');
    await h.run('!tick');
    expect(hexIdOf(h, 'grallune')).toBe('1222');
  });

  it('GIVEN a march that stopped short of a forest in the morning WHEN a new day order is given in the evening THEN the preview carries the points the tick carries and shows the halves it plays', async () => {
    h = await consoleHarness({ setup: ACKS, dice: CLEAR_WEEK });
    await h.run('@referee /army edit army:grallune hex:1121');
    await h.run('@alice /move army:grallune path:"1221 1220"');
    // Morning: 1221 (6 of 12); the forest (9) does not fit the 6 left, so the march stops short.
    await h.run('!tick', '!tick');
    expect(hexIdOf(h, 'grallune')).toBe('1221');
    const [plan] = await h.run('@alice /move army:grallune path:"1222 1322 1323"');
    expect(err(plan)).toBeUndefined();
    // The 6 points it was short by carry to tomorrow (004), under the new order too: 18 tomorrow.
    expect(plan?.content).toContain('- 1222 clear: 6 pts — tomorrow, morning, 12 left');
    expect(plan?.content).toContain('- 1322 clear: 6 pts — tomorrow, afternoon, 6 left');
    expect(plan?.content).toContain('- 1323 clear: 6 pts — tomorrow, afternoon, 0 left');
    await h.run('!tick', '!tick', '!tick');
    expect(hexIdOf(h, 'grallune')).toBe('1222');
    await h.run('!tick');
    expect(hexIdOf(h, 'grallune')).toBe('1323');
  });

  it('GIVEN a march short of a forest at the end of the day WHEN the evening turns to hard rain THEN the points it was short by still carry: the evening is no part of a day march', async () => {
    h = await consoleHarness({ setup: ACKS, dice: CLEAR_WEEK });
    await h.run('@referee /army edit army:grallune hex:1119');
    await h.run('@alice /move army:grallune path:"1219 1319 1419"');
    // Afternoon: the forest 1219 (9 of 12); 1319 (9) does not fit the 3 left, so 3 carry (004).
    await h.run('!tick', '!tick');
    expect(hexIdOf(h, 'grallune')).toBe('1219');
    const [rain] = await h.run('@referee /weather set sky:hardRain');
    expect(rain?.content).toContain('Overland move points at 50 % (hard rain)');
    await h.run('!tick', '!tick', '@referee /weather set sky:clear rain-level:0');
    const [status] = await h.run('@alice /army status army:grallune');
    // Before the fix the evening's halved allowance (6) was taken for the day's: 6 - 9 spent carried nothing.
    expect(status?.content).toContain('Points today: 15 of 15 left (3 saved from yesterday).');
  });

  it('GIVEN hard rain in the afternoon that stops a march short of a forest WHEN the evening clears THEN only the rain-halved points it had carry, not a clear day\'s', async () => {
    h = await consoleHarness({ setup: ACKS, dice: CLEAR_WEEK });
    await h.run('@referee /army edit army:grallune hex:1119');
    await h.run('@alice /move army:grallune path:"1219 1319 1419"');
    // Morning: the forest (9) is not reached within the morning's half of 12.
    await h.run('!tick', '@referee /weather set sky:hardRain');
    const [wet] = await h.run('@alice /army status army:grallune');
    expect(wet?.content).toContain('Points today: 6 of 6 left.');
    // Afternoon in hard rain: 6 points, short of the forest's 9: the 6 carry.
    await h.run('!tick', '@referee /weather set sky:clear rain-level:0');
    expect(hexIdOf(h, 'grallune')).toBe('1119');
    await h.run('!tick', '!tick', '@referee /weather set sky:clear rain-level:0');
    const [status] = await h.run('@alice /army status army:grallune');
    // Before the fix the clear evening's 12 were taken for the day's allowance: 12 carried.
    expect(status?.content).toContain('Points today: 18 of 18 left (6 saved from yesterday).');
  });

  it('GIVEN the Valormr profile and a march told to save its points WHEN the evening turns to hard rain THEN the points saved are the day\'s unspent ones', async () => {
    h = await consoleHarness({ setup: ACKS.replace('profile:acks', 'profile:valormr'), dice: CLEAR_WEEK });
    await h.run('@referee /army edit army:grallune hex:1119');
    await h.run('@alice /move army:grallune path:"1219 1319 1419" save:true');
    await h.run('!tick', '!tick');
    expect(hexIdOf(h, 'grallune')).toBe('1219');
    const [rain] = await h.run('@referee /weather set sky:hardRain');
    expect(rain?.content).toContain('Overland move points at 75 % (hard rain)');
    await h.run('!tick', '!tick', '@referee /weather set sky:clear rain-level:0');
    const [status] = await h.run('@alice /army status army:grallune');
    // Before the fix: the evening's 75 % (9) less the 9 spent saved nothing.
    expect(status?.content).toContain('Points today: 15 of 15 left (3 saved from yesterday).');
  });

  it('GIVEN divisions THEN the referee splits an army into a neighbouring hex and merges it back; a commander may not unless allowed; Valormr has none', async () => {
    h = await consoleHarness({ setup: ACKS });
    const [refused] = await h.run('@alice /army split army:grallune regiments:second to:1825');
    expect(err(refused)).toBe('division.refereeOnly');
    const [split] = await h.run('@referee /army split army:grallune regiments:second to:1825');
    expect(err(split)).toBeUndefined();
    expect(hexIdOf(h, 'grallune-2')).toBe('1825');
    expect(army(h, 'grallune-2').regiments.map((r) => [r.id, r.role])).toEqual([['second', 'assault']]);
    expect(army(h, 'grallune').regiments.map((r) => r.id)).not.toContain('second');
    expect(h.channel().some((o) => /a division, .* marches off to 1825/.test(o.content))).toBe(true);
    // The division's commander is the army's: Alice orders it.
    const [move] = await h.run('@alice /move army:grallune-2 path:"1824"');
    expect(err(move)).toBeUndefined();
    await h.run('@referee /campaign profile commander-divisions:true');
    const [merge] = await h.run('@alice /army merge army:grallune-2 into:grallune');
    expect(err(merge)).toBeUndefined();
    expect(campaignState(h).armies['grallune-2']).toBeUndefined();
    expect(army(h, 'grallune').regiments.map((r) => r.id)).toContain('second');
    await h.run('@referee /campaign settings profile:valormr');
    const [none] = await h.run('@referee /army split army:grallune regiments:second to:1825');
    expect(err(none)).toBe('division.notInProfile');
  });

  it('GIVEN the Valormr profile WHEN the referee sets brigades per regiment or commander divisions THEN the reply says they have no effect under it', async () => {
    h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Autumn War"' });
    const [set] = await h.run('@referee /campaign profile brigades-per-regiment:0.5 commander-divisions:true');
    expect(set?.content).toContain('`brigades-per-regiment` has no effect under the Valormr profile (it has no large-army rule); `commander-divisions` has no effect under the Valormr profile (it has no divisions): kept for a profile that has it (`profile:acks`).');
    const [acks] = await h.run('@referee /campaign settings profile:acks', '@referee /campaign profile brigades-per-regiment:2');
    expect(acks?.content).not.toContain('no effect');
  });

  it('GIVEN the referee\'s terrain table and brigades THEN the profile reads them, and bad values are refused with what is accepted', async () => {
    h = await consoleHarness({ setup: ACKS });
    const [ok] = await h.run('@referee /campaign profile terrain-costs:"forest=12, swamp=18" brigades-per-regiment:0.5');
    expect(ok?.content).toContain('terrain-costs forest=12, swamp=18');
    expect(ok?.content).toContain('brigades-per-regiment 0.5');
    const [bad] = await h.run('@referee /campaign profile terrain-costs:"lava=3"');
    expect(err(bad)).toBe('settings.badTerrainCosts');
    const [range] = await h.run('@referee /campaign profile terrain-costs:"forest=99"');
    expect(err(range)).toBe('settings.invalid');
  });
});

describe('the battle companion: /battle turn', () => {
  it('GIVEN a battle under Fantasy Warlord THEN the briefing is in centimetres, each turn tells each side its arrivals, casualties are entered per turn and /battle result takes them', async () => {
    h = await contactHarness();
    const [set] = await h.run('@referee /campaign settings tactical:warlord');
    expect(set?.content).toContain('table-width 122 cm, bow-range 19 cm');
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    const briefing = h.channel().find((o) => /Battle c\d+: deployment/.test(o.content))?.content ?? '';
    expect(briefing).toContain('(table 122 cm, short bow 19 cm)');
    expect(briefing).toContain('**Rout and pursuit**: A routing unit that leaves the table has fled the field');
    const [early] = await h.run('@bob /battle turn casualties:"grallune/first=1"');
    expect(err(early)).toBe('battle.noTurnYet');
    await h.run('@bob /battle turn');
    expect(h.channel().some((o) => /Battle c\d+, turn 1\. Initial deployment:/.test(o.content))).toBe(true);
    expect(h.dms('bob').some((o) => /Before turn 1 \(initial deployment\), First Regiment brings on .* at baseline \d \([\d.]+ cm from your table edge\)/.test(o.content))).toBe(true);
    const [foreign] = await h.run('@bob /battle turn casualties:"hadewych/first=1"');
    expect(err(foreign)).toBe('battle.notYours');
    const [second] = await h.run('@bob /battle turn casualties:"grallune/first=2"');
    expect((second?.data as { turn: number }).turn).toBe(2);
    expect(h.dms('bob').some((o) => /turn 1: figures lost first 2\./.test(o.content))).toBe(true);
    const [outsider] = await h.run('@carol /battle turn');
    expect(err(outsider)).toBe('battle.which');
    // More than the regiment has, with what the turns booked: refused at entry.
    const [tooMany] = await h.run('@bob /battle turn casualties:"grallune/first=23"');
    expect(err(tooMany)).toBe('battle.badLosses');
    expect(tooMany?.content).toContain('has 24 figures: it cannot lose 25');
    // The last turn's losses come with the result, added to the turns' (2 + 1).
    h.script.push(6, 1);
    await h.run('@referee /battle result losses:"grallune/first=1" withdraw:"hadewych=retreat"');
    expect(h.dms('bob').some((o) => /After the battle: First Regiment 21 figures/.test(o.content))).toBe(true);
  });
});
