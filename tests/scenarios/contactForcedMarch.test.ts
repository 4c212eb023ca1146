import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { inCampaign } from '../../src/app/unitOfWork.js';
import type { MarchState } from '../../src/engine/forces/army.js';
import { campaignState, consoleHarness, type Harness } from './harness.js';
import { contactHarness, hexOf, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const state = campaignState;

/** Sets an army's march books by hand (as if it had marched earlier today). */
function patchMarch(x: Harness, armyId: string, march: Partial<MarchState>): void {
  inCampaign(x.app, { campaignId: state(x).id }, (tx) => {
    const a = tx.state.armies[armyId];
    if (!a) throw new Error(`no army ${armyId}`);
    return { state: { ...tx.state, armies: { ...tx.state.armies, [armyId]: { ...a, march: { ...a.march, ...march } } } }, result: undefined };
  });
}

const avoidLabels = (x: Harness, user: string): string[] =>
  ((x.dms(user).at(-1)?.data as { buttons?: { label: string }[] } | undefined)?.buttons ?? []).map((b) => b.label).filter((l) => l.startsWith('Avoid'));
const channelText = (x: Harness): string => x.channel().map((o) => o.content).join('\n');

describe('001 Avoid by forced march, through the console', () => {
  // Hadewych (infantry, 12 a day, 18 on a forced march) at 1122; her free neighbours are clear (6 points).
  it('GIVEN no points left today THEN the step-1 DM offers avoid buttons by forced march, the answer says so, and the march books record it', async () => {
    h = await contactHarness();
    patchMarch(h, 'hadewych', { pointsLeft: 0, spentToday: 12 });
    await open(h, 'hadewych,grallune');
    const labels = avoidLabels(h, 'alice');
    expect(labels).toContain('Avoid to 1123 (forced march)');
    expect(labels.every((l) => l.endsWith('(forced march)'))).toBe(true);
    const [reply] = await h.run('@alice /avoid to:1123');
    expect(reply?.content).toMatch(/avoid to 1123 by a forced march \(the army must rest all of tomorrow or be fatigued\)/);
    expect(reply?.data).toMatchObject({ forcedMarch: true });
    h.script.push(6, 1);
    await h.run('@bob /engage');
    expect(await hexOf(h, 'hadewych')).toBe('1123');
    const s = state(h);
    expect(s.armies['hadewych']?.march).toMatchObject({ pointsLeft: 0, spentToday: 18, forcedMarchDay: s.clock.day });
    expect(h.dms('alice').some((o) => /avoided to 1123 by a forced march: rest all of tomorrow or be fatigued/.test(o.content))).toBe(true);
    // The channel hears the move, not the forced march (it would tell of points).
    expect(channelText(h)).toMatch(/moved away to 1123/);
    expect(channelText(h)).not.toMatch(/forced march/);
  });

  it('GIVEN the points cover the move THEN the buttons are plain and no forced march is recorded', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    expect(avoidLabels(h, 'alice')).toContain('Avoid to 1123');
    expect(avoidLabels(h, 'alice').some((l) => /forced march/.test(l))).toBe(false);
    const [reply] = await h.run('@alice /avoid to:1123');
    expect(reply?.content).not.toMatch(/forced march/);
    h.script.push(6, 1);
    await h.run('@bob /engage');
    expect(state(h).armies['hadewych']?.march.forcedMarchDay).toBeUndefined();
  });

  it('GIVEN the army already force-marched today THEN no avoid buttons, and /avoid is refused with the reason', async () => {
    h = await contactHarness();
    patchMarch(h, 'hadewych', { pointsLeft: 0, spentToday: 18, forcedMarchDay: state(h).clock.day });
    await open(h, 'hadewych,grallune');
    expect(avoidLabels(h, 'alice')).toEqual([]);
    const [refused] = await h.run('@alice /avoid to:1123');
    expect(refused?.data).toMatchObject({ error: 'contact.avoidNoPoints' });
    expect(refused?.content).toMatch(/already force-marched today/);
  });
});

describe('001 Fight on the Morrow under ACKS (004): the contact renewed in the evening asks again', () => {
  // Hadewych (alice) marches 1123 -> 1122 in the morning (6 of 12 left) into contact with Grallune
  // (bob, 1121, 12 left). Nobody answers: the afternoon tick defers the contact and the evening
  // renews it. At night a clear hex costs 12 (light-sighted, double): Hadewych reaches it only by
  // a forced march (004: +50 %, a day's rest after), Grallune with her own points.
  const setup = [
    '@referee /campaign create scenario:valormr name:"Autumn War"',
    '@referee /campaign settings profile:acks',
    '@referee /campaign assign army:hadewych user:alice',
    '@referee /campaign assign army:grallune user:bob',
    '@referee /army edit army:hadewych hex:1123',
    '@referee /army edit army:grallune hex:1121',
    '@referee /campaign start',
    '@alice /move army:hadewych to:1122',
  ].join('\n');
  const prompts = (x: Harness, user: string) => x.dms(user).filter((o) => /Contact c1 with/.test(o.content));

  it('GIVEN silence in the afternoon THEN each commander gets the evening prompt, with avoid buttons priced for the night', async () => {
    // Clear weather all along (every weather die a 1).
    h = await consoleHarness({ setup, dice: Array.from({ length: 60 }, () => 1) });
    await h.run('!tick');
    expect(prompts(h, 'alice')).toHaveLength(1);
    expect(prompts(h, 'bob')).toHaveLength(1);
    await h.run('!tick');
    expect(state(h).clock.half).toBe(2);
    expect(prompts(h, 'alice')).toHaveLength(2);
    expect(prompts(h, 'bob')).toHaveLength(2);
    const alice = avoidLabels(h, 'alice');
    expect(alice).toContain('Avoid to 1123 (forced march)');
    expect(alice.every((l) => l.endsWith('(forced march)'))).toBe(true);
    const bob = avoidLabels(h, 'bob');
    expect(bob).toContain('Avoid to 1120');
    expect(bob.some((l) => /forced march/.test(l))).toBe(false);
    const [reply] = await h.run('@alice /avoid to:1123');
    expect(reply?.content).toMatch(/avoid to 1123 by a forced march \(the army must rest all of tomorrow or be fatigued\)/);
  });
});

describe('004 Tireless troops: an avoid by forced march owes no rest', () => {
  const ACKS_GROUND = fileURLToPath(new URL('../../docs/cases/scenarios/ackslands.json', import.meta.url));

  it('GIVEN tireless golems with 6 points left and a forest hex (9) to avoid into THEN the answer and the report say no rest is owed, and the next day\'s march leaves them unfatigued', async () => {
    h = await consoleHarness({
      dice: Array.from({ length: 60 }, () => 1),
      setup: [
        `@referee /campaign create name:"Golems" file:"${ACKS_GROUND}"`,
        '@referee /campaign assign army:golems user:alice',
        '@referee /campaign start',
        '@referee /army edit army:golems hex:0703',
        '@alice /move army:golems path:"0603"',
        '!tick',
        '@referee /army edit army:raiders hex:0604',
      ].join('\n'),
    });
    await open(h, 'golems,raiders');
    const [reply] = await h.run('@alice /avoid army:golems to:0602');
    expect(reply?.content).toContain('avoid to 0602 by a forced march (tireless: it owes no rest for it)');
    expect(reply?.content).not.toMatch(/rest all of tomorrow/);
    await h.run('@referee /contact resolve');
    expect(await hexOf(h, 'golems')).toBe('0602');
    const told = h.dms('alice').map((o) => o.content).join('\n');
    expect(told).toContain('Golems avoided to 0602 by a forced march; tireless, it owes no rest for it.');
    expect(told).not.toMatch(/rest all of tomorrow/);
    // Afternoon (no points left), evening, night; then the next day's morning and afternoon.
    await h.run('@alice /move army:golems path:"0601 0501"', '!tick', '!tick', '!tick', '!tick', '!tick');
    expect(await hexOf(h, 'golems')).toBe('0501');
    expect(state(h).armies['golems']?.status.fatigued).toBe(false);
  });
});

describe('001 Maneuver: the forced second contact, through the console', () => {
  // Minke (Chaos, frank) at 1120 is next to Grallune (1121) but not to Hadewych (1122).
  async function secondContactSetup(): Promise<Harness> {
    const x = await contactHarness();
    await x.run('@referee /campaign assign army:minke user:frank', '@referee /army edit army:minke hex:1120');
    await open(x, 'hadewych,grallune');
    await x.run('@alice /maneuver', '@referee /contact resolve');
    await open(x, 'minke,grallune');
    return x;
  }
  const contacts = async (x: Harness) => ((await x.run('@referee /contact list'))[0]?.data as { contacts: { id: string; step: string; armyIds: string[] }[] }).contacts;

  it('GIVEN the enemy is already in a new contact before its contact phase THEN the maneuvering force joins it (one contact, not two)', async () => {
    h = await secondContactSetup();
    const [before] = await contacts(h);
    const out = await h.run('@alice /maneuver second:true');
    const reply = out.find((o) => o.to === 'ephemeral' && o.user === 'alice');
    expect(reply?.content).toMatch(new RegExp(`Second contact forced: joined contact ${before?.id}`));
    const after = await contacts(h);
    expect(after).toHaveLength(1);
    expect(after[0]?.id).toBe(before?.id);
    expect([...(after[0]?.armyIds ?? [])].sort()).toEqual(['grallune', 'hadewych', 'minke']);
    // Hadewych is asked for her step-1 answer in that contact.
    expect(h.dms('alice').at(-1)?.content).toMatch(new RegExp(`Contact ${before?.id} with Army of Grallune`));
  });

  it('GIVEN the enemy\'s contact is past its contact phase THEN /maneuver second:true is refused with a clear message', async () => {
    h = await secondContactSetup();
    await h.run('@frank /engage', '@bob /engage');
    expect((await contacts(h))[0]?.step).toBe('decision');
    const out = await h.run('@alice /maneuver second:true');
    const reply = out.find((o) => o.to === 'ephemeral' && o.user === 'alice');
    expect(reply?.data).toMatchObject({ error: 'contact.secondEnemyEngaged' });
    expect(reply?.content).toMatch(/Army of Grallune is already in contact c\d+ \(after the contact phase \(engage or evade\)\): a second contact cannot be forced on it until that one is resolved/);
    expect(await contacts(h)).toHaveLength(1);
  });
});
