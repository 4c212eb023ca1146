import { afterEach, describe, expect, it } from 'vitest';
import { contactButtons } from '../../commands/_contactButtons.js';
import type { Actor } from '../../src/app/actor.js';
import { deployScouts } from '../../src/app/contact/scouts.js';
import { campaignState, consoleHarness, type Harness } from './harness.js';
import { contactHarness, hexOf, open, SECRET_PATTERN } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const list = async (hh: Harness) => ((await hh.run('@referee /contact list'))[0]?.data as { contacts: { id: string; step: string; armyIds: string[]; waiting: string[] }[] }).contacts;
const channelText = (hh: Harness) => hh.channel().map((o) => o.content).join('\n');

/** Both commanders proceed, then both engage: deployment. */
async function toBattle(hh: Harness): Promise<string> {
  const id = await open(hh, 'hadewych,grallune');
  await hh.run('@alice /engage', '@bob /engage');
  await hh.run('@alice /engage', '@bob /engage');
  return id;
}

describe('contact through the console', () => {
  it('GIVEN a contact WHEN nobody answers and the referee resolves THEN fight on the morrow', async () => {
    h = await contactHarness();
    const id = await open(h, 'hadewych,grallune');
    expect(h.dms('alice').at(-1)?.data).toMatchObject({ buttons: expect.arrayContaining([expect.objectContaining({ label: 'Proceed to the contact phase' })]) });
    expect((await list(h))[0]).toMatchObject({ id, step: 'step1', waiting: ['hadewych', 'grallune'] });
    await h.run('@referee /contact resolve');
    expect(channelText(h)).toMatch(/fight on the morrow/);
    expect(await list(h)).toEqual([]);
  });

  it('GIVEN a standoff nobody presses WHEN one side marches away in the half period it is quiet THEN the DM of that tick tells both commanders the contact is over, not that they face each other for another half period', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign settings positions:fog', '@referee /campaign start');
    // The contact opens; nobody presses it (round 1, then round 2); alice's march waits for the morning.
    await h.run('!tick', '!tick', '@alice /move army:hadewych to:1123', '!tick', '!tick');
    const contactDm = (user: string): string | undefined => h!.dms(user).at(-1)?.content;
    const id = /Contact (\w+) \(Day 1, night/.exec(contactDm('bob') ?? '')?.[1];
    expect(id).toBeDefined();
    // Day 2, morning is played: nobody pressed again; Hadewych marched to 1123, out of contact.
    const dms = await h.run('!tick');
    const of = (user: string): string | undefined => dms.find((o) => o.to === 'dm' && o.user === user)?.content;
    const told = [
      `│ **Contact ${id} (Day 2, morning (late autumn) → Day 2, afternoon)**`,
      '│ Still nobody pressed the contact (fight on the morrow): Army of Grallune and Army of Hadewych are out of contact for the rest of this half period again, and in contact at the start of the next if they still face each other.',
      '│ Ingegerd and Hadewych the Arbiter no longer face each other: the contact is over.',
    ];
    // Before: "Still nobody pressed the contact: Army of Grallune and Army of Hadewych face each other for another half period." to both.
    expect(of('bob')).toBe(['**Army of Grallune** (Autumn War)', ...told].join('\n'));
    expect(of('alice')).toBe(['**Army of Hadewych** (Autumn War)', ...told, '│ **Movement**: Morning: Army of Hadewych marched 1122 -> 1123; 6 of 12 points left today.'].join('\n'));
    // The contact is closed for good: the next tick asks nobody again.
    expect((await h.run('!tick')).filter((o) => o.to === 'dm')).toEqual([]);
  });

  it('GIVEN a standoff nobody pressed WHEN a third force marches up and a new contact of all three opens THEN nobody is told the standoff\'s forces no longer face each other', async () => {
    // Found by the session 23 review: the standoff's contact closed and a new one (three forces) opened in its place.
    h = await consoleHarness({ setup: [
      '@referee /campaign create scenario:valormr name:"Autumn War"',
      '@referee /campaign assign army:hadewych user:alice',
      '@referee /campaign assign army:grallune user:bob',
      '@referee /campaign assign army:solon user:carol',
      '@referee /army edit army:hadewych hex:1122',
      '@referee /army edit army:grallune hex:1121',
      '@referee /army edit army:solon hex:1119',
      '@referee /campaign start',
    ].join('\n') });
    await h.run('!tick', '@carol /move army:solon to:1120');
    const out = await h.run('!tick');
    const text = out.map((o) => o.content).join('\n');
    expect(text).toContain('Ingegerd, Hadewych the Arbiter and Solon Theros are in contact near 1121.');
    expect(text).not.toContain('no longer face each other');
  });

  it('GIVEN avoid WHEN both have answered THEN the avoider rolls and moves away at once', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    const refused = await h.run('@alice /avoid to:1125');
    expect(refused.at(-1)?.data).toMatchObject({ error: 'contact.avoidNotAdjacent' });
    await h.run('@alice /avoid to:1123');
    h.script.push(6, 1);
    await h.run('@bob /engage');
    expect(await hexOf(h, 'hadewych')).toBe('1123');
    expect(channelText(h)).toMatch(/avoided contact/);
    expect(h.dms('alice').some((o) => /avoided contact: die 6/.test(o.content))).toBe(true);
    expect(await list(h)).toEqual([]);
  });

  it('GIVEN delay THEN the delaying action is rolled on the delay column and the commander alone learns the losses', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    h.script.push(1, 6);
    await h.run('@alice /delay', '@bob /engage');
    expect(h.dms('alice').some((o) => /fought a delaying action: die 1.*Losses \d+%/.test(o.content))).toBe(true);
    expect(h.dms('bob').some((o) => /Losses/.test(o.content))).toBe(false);
    expect(channelText(h)).not.toMatch(SECRET_PATTERN);
  });

  it('GIVEN both proceed THEN each commander gets the estimate by DM; both evade: no battle', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage');
    expect(h.dms('alice').some((o) => /Contact dice \(c\d+\)\*\*: \d/.test(o.content) && /Estimate: Army of Grallune\*\*: engaging regiment about \d+ figures/.test(o.content))).toBe(true);
    expect(h.dms('bob').some((o) => /Contact dice \(c\d+\)\*\*: \d/.test(o.content))).toBe(true);
    const tooEarly = await h.run('@alice /delay');
    expect(tooEarly.at(-1)?.data).toMatchObject({ error: 'contact.tooLateToAvoid' });
    await h.run('@alice /evade', '@bob /evade');
    expect(channelText(h)).toMatch(/broke off: no battle/);
    expect(await list(h)).toEqual([]);
  });

  it('GIVEN one evades THEN the evader rolls against the other and takes the losses', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage');
    await h.run('@alice /evade', '@bob /engage');
    expect(h.dms('alice').some((o) => /evaded: die \d/.test(o.content))).toBe(true);
    expect(channelText(h)).toMatch(/evaded/);
    expect(await list(h)).toEqual([]);
  });

  it('GIVEN both engage THEN the deployment briefing is posted; the battle result applies losses, the rout and displacement', async () => {
    h = await contactHarness();
    const id = await toBattle(h);
    expect(channelText(h)).toMatch(/deployment[\s\S]*Initiative/);
    expect((await list(h))[0]).toMatchObject({ id, step: 'battle' });
    // Hadewych routs: 1 - 2 + 1 (larger) - 1 (clear) = -1 against 4 + 3 = 7: -8, 50% D.
    h.script.push(1, 4);
    await h.run('@referee /battle result losses:"hadewych/first=4, grallune/first=2" withdraw:"hadewych=rout"');
    expect(await hexOf(h, 'hadewych')).toBe('1123');
    expect(h.dms('alice').some((o) => /After the battle: First Regiment 7 figures \(39%\)/.test(o.content))).toBe(true);
    expect(channelText(h)).toMatch(/pushed back to 1123/);
    expect(await list(h)).toEqual([]);
  });

  it('GIVEN fog on the battlefield WHEN the battle is joined THEN the briefing carries the visibility rolled (one die x 30 yards), the hour and the sky; each commander gets their own force\'s state by DM', async () => {
    h = await contactHarness();
    await h.run('@referee /weather set fog:true', '@referee /army edit army:hadewych formation:unformed');
    const id = await toBattle(h);
    const briefing = h.channel().find((o) => /Battle c\d+: deployment/.test(o.content))?.content ?? '';
    // The briefing is a card: each part a field (on the console, "│ **Label**: text").
    const fog = /^│ \*\*Visibility\*\*: Fog: (\d+) yards \(die ([1-6]) x 30\); creatures hurt by bright light suffer nothing from the sun\.$/m.exec(briefing);
    expect(fog).not.toBeNull();
    expect(Number(fog?.[1])).toBe(Number(fog?.[2]) * 30);
    expect(briefing).toMatch(/^│ \*\*Hour\*\*: Contact at the \d+(st|nd|rd|th) hour\./m);
    expect(briefing).toMatch(/^│ \*\*Weather\*\*: Clear\.$/m);
    // A force's own state is not for the channel: Hadewych's commander alone reads it is unformed.
    expect(briefing).not.toMatch(/unformed|fatigued/);
    expect(h.dms('alice').some((o) => /your force at the table: unformed: its units begin the battle unrallied, as if in retreat/.test(o.content))).toBe(true);
    expect(h.dms('bob').some((o) => /your force at the table: formed, not fatigued, with all its force\./.test(o.content))).toBe(true);
    expect(h.dms('bob').some((o) => /unrallied/.test(o.content))).toBe(false);
    // The roll is kept with the battle (the referee's /contact list and the export read it).
    expect(campaignState(h).contacts[id]?.data.conditions?.fog).toEqual({ die: Number(fog?.[2]), yards: Number(fog?.[1]) });
  });

  it('GIVEN a supporter that reinforces THEN the routed force is not displaced', async () => {
    h = await contactHarness({ support: true });
    await open(h, 'hadewych,grallune');
    await h.run('@dan /support of:grallune', '@dan /reinforce');
    await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    // Grallune routs: 1 - 2 + 1 (supported) - 1 = -1 against 3 + 2 + 1 + 1 = 7: -8, 50% D, reinforced.
    h.script.push(1, 3);
    await h.run('@referee /battle result withdraw:"grallune=rout"');
    expect(await hexOf(h, 'grallune')).toBe('1121');
    expect(h.dms('bob').some((o) => /displacement prevented by Lanze|displacement prevented by/.test(o.content))).toBe(true);
  });

  it('GIVEN a reserve WHEN the contact is resolved THEN it exploits through the supporter into a new contact', async () => {
    h = await contactHarness({ support: true });
    await open(h, 'hadewych,grallune');
    await h.run('@dan /support of:grallune', '@erin /reserve of:grallune');
    const early = await h.run('@erin /exploit to:1221');
    expect(early.at(-1)?.data).toMatchObject({ error: 'contact.exploitTooEarly' });
    await h.run('@referee /contact resolve');
    await h.run('@erin /exploit to:1221');
    expect(await hexOf(h, 'gyrhawk')).toBe('1221');
    const contacts = await list(h);
    expect(contacts).toHaveLength(1);
    expect([...(contacts[0]?.armyIds ?? [])].sort()).toEqual(['gyrhawk', 'hadewych']);
  });

  it('GIVEN a maneuver THEN after the first contact is resolved a second contact is forced', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    await h.run('@alice /maneuver');
    const early = await h.run('@alice /maneuver second:true');
    expect(early.at(-1)?.data).toMatchObject({ error: 'contact.firstNotResolved' });
    await h.run('@alice /evade');
    await h.run('@alice /delay', '@bob /engage');
    expect(await list(h)).toEqual([]);
    await h.run('@alice /maneuver second:true');
    const contacts = await list(h);
    expect(contacts).toHaveLength(1);
    expect(contacts[0]?.armyIds).toEqual(['hadewych', 'grallune']);
  });

  it('GIVEN three forces THEN one battle by default; the referee may split only into groups with enemies', async () => {
    h = await contactHarness({ three: true });
    await open(h, 'hadewych,grallune,aeskrvald');
    const bad = await h.run('@referee /contact split groups:"hadewych,grallune;aeskrvald"');
    expect(bad.at(-1)?.data).toMatchObject({ error: 'contact.splitNoEnemies' });
    await h.run('@alice /engage', '@bob /engage', '@carol /engage');
    await h.run('@alice /engage', '@bob /engage', '@carol /engage');
    const contacts = await list(h);
    expect(contacts[0]).toMatchObject({ step: 'battle', armyIds: ['hadewych', 'grallune', 'aeskrvald'] });
    expect(channelText(h)).toMatch(/Initial deployment, first round: .*, .*, /);
  });

  it('GIVEN the DM buttons THEN the commander can answer by button; another user cannot', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    const buttons = (h.dms('alice').at(-1)?.data as { buttons: { id: string; label: string }[] }).buttons;
    const proceed = buttons.find((b) => b.label.startsWith('Proceed'))!;
    await expect(contactButtons.execute({ app: h.app, userId: 'bob', customId: proceed.id })).rejects.toMatchObject({ code: 'army.notYours' });
    const [settled, answer] = await contactButtons.execute({ app: h.app, userId: 'alice', customId: proceed.id });
    // The DM is updated: its question settled (buttons disabled) and the choice said.
    expect(settled).toMatchObject({ to: 'update', content: expect.stringContaining('Answered**: proceed to the contact phase'), settles: expect.stringMatching(/^contact:.*:c\d+:$/) });
    expect(answer?.content).toMatch(/Recorded for .*: proceed/);
    expect((await list(h))[0]?.waiting).toEqual(['grallune']);
  });

  it('GIVEN /intel and /scouts THEN estimates are re-read privately and scouts deployed within what the army has', async () => {
    h = await contactHarness();
    // Discord's option takes 0 to 6, and so does the console (from the option); /scouts itself checks the same range.
    const [bad] = await h.run('@alice /scouts count:9');
    expect(bad?.data).toMatchObject({ error: 'console.badValue' });
    expect(bad?.content).toContain('the largest accepted is 6');
    expect(() => deployScouts(h!.app, { userId: 'alice', userName: 'alice', guildId: 'console', channelId: 'console', roleIds: [] } satisfies Actor, { count: 9 })).toThrow(/can deploy 0 to 6 scouts/);
    const [set] = await h.run('@alice /scouts count:3');
    const [status] = await h.run('@alice /army status');
    const line = 'Scouts: 3 deployed ahead (any number from 0 to 6; they cost no army points, each is rolled at the next contact phase, and the deployment stands for the contacts after it).';
    expect(set?.content).toContain(line);
    // The status card says it in the same words, as a field.
    expect(status?.content).toContain(line.replace('Scouts: ', '**Scouts**: '));
    await h.run('@alice /scouts count:1');
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage');
    const [intel] = await h.run('@alice /intel');
    expect(intel).toMatchObject({ to: 'ephemeral', user: 'alice' });
    expect(intel?.content).toMatch(/Contact dice \d -> \d/);
    expect(intel?.content).toMatch(/scouts (captured|killed|unsuccessful|successful)/);
    expect(intel?.files?.[0]).toMatch(/battlefield-c\d+\.png$/);
    const [other] = await h.run('@bob /intel army:hadewych');
    expect(other?.data).toMatchObject({ error: 'army.notYours' });
  });
});
