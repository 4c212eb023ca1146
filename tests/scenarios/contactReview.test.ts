import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from './harness.js';
import { consoleHarness } from './harness.js';
import { contactHarness, hexOf, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const status = async (hh: Harness, army: string): Promise<string> => (await hh.run(`@referee /army status army:${army}`))[0]?.content ?? '';

describe('review fixes: contact through the console', () => {
  it('GIVEN a battle is joined THEN the channel post carries no deployment modifier drawn from the contact dice (text or data)', async () => {
    h = await contactHarness();
    await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    const posts = h.channel().filter((o) => /Battle joined/.test(o.content));
    expect(posts).toHaveLength(1);
    const json = JSON.stringify(posts[0]);
    expect(json).not.toMatch(/contact dice|highestContact|contactOneOrLess/);
    // The referee still gets the reasons.
    expect(h.dms('referee').some((o) => /Deployment for/.test(o.content) && /highestContact|contactOneOrLess|modifiers/.test(JSON.stringify(o.data)))).toBe(true);
  });

  it('GIVEN a relief before the contact dice THEN the relieving force is in contact and the relieved one is free once the contact ends', async () => {
    h = await contactHarness({ support: true });
    await open(h, 'hadewych,grallune');
    await h.run('@dan /support of:grallune', '@dan /relief');
    expect(await status(h, 'lanze')).toMatch(/in contact/);
    expect(await status(h, 'grallune')).not.toMatch(/in contact/);
    await h.run('@referee /contact resolve');
    expect(await status(h, 'lanze')).not.toMatch(/in contact/);
    expect(await status(h, 'grallune')).not.toMatch(/in contact/);
  });

  it('GIVEN a contact made by movement in the last half period and resolved in this one THEN the commander may still maneuver and force a second contact', async () => {
    h = await consoleHarness({ seed: 5, setup: [
      '@referee /campaign create scenario:valormr name:T',
      '@referee /campaign assign army:annemie user:alice',
      '@referee /campaign assign army:groennendr user:bob',
      '@referee /campaign start',
      '@alice /move army:annemie to:1016',
      '!tick',
    ].join('\n') });
    await h.run('@referee /contact resolve');
    const m = await h.run('@alice /maneuver');
    expect(m.at(-1)?.data).not.toMatchObject({ error: expect.anything() });
    const second = await h.run('@alice /maneuver second:true');
    const reply = second.find((o) => o.to === 'ephemeral' && o.user === 'alice');
    expect(reply?.content).toMatch(/Second contact forced/);
  });

  it('GIVEN the referee names the same army twice (by id and by its commander) THEN the contact holds it once and its battle can be recorded', async () => {
    h = await contactHarness();
    await h.run('@referee /contact open armies:"hadewych,grallune,ingegerd"');
    const [list] = await h.run('@referee /contact list');
    expect((list?.data as { contacts: { armyIds: string[] }[] }).contacts[0]?.armyIds).toEqual(['hadewych', 'grallune']);
    await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    const [done] = await h.run('@referee /battle result losses:"grallune/first=1"');
    expect(done?.content).toMatch(/recorded/);
  });

  it('GIVEN a contact of Chaos against Law and the Elves THEN each commander is told only the enemies, not the allies, as the contact', async () => {
    h = await contactHarness({ three: true });
    await h.run('@referee /campaign assign army:groennendr user:frank', '@referee /army edit army:groennendr hex:1022');
    await open(h, 'hadewych,grallune,aeskrvald,groennendr');
    const prompt = (user: string) => h!.dms(user).find((o) => /Contact c\d+ with/.test(o.content))?.content ?? '';
    expect(prompt('bob')).toMatch(/with Army of Hadewych\./);
    expect(prompt('frank')).toMatch(/with Army of Hadewych\./);
    expect(prompt('alice')).toMatch(/Grallune.*Aeskrvald.*Groennendr/);
  });

  it('GIVEN a contact that took several ticks WHEN it closes THEN the reserve may exploit in the next half period', async () => {
    h = await contactHarness({ support: true });
    await h.run('@referee /campaign start');
    // The exploit passes through the forest at 1220 (no road): by day, since a light-sighted
    // force may not enter it at night. The contact opens at night; the exploit comes next afternoon.
    await h.run('@referee /army edit army:hadewych hex:1125', '!tick', '!tick', '!tick', '@referee /army edit army:hadewych hex:1122');
    await open(h, 'hadewych,grallune');
    await h.run('@dan /support of:grallune', '@erin /reserve of:grallune');
    await h.run('@alice /engage', '!tick');
    await h.run('@alice /evade', '@bob /engage');
    const [list] = await h.run('@referee /contact list');
    expect((list?.data as { contacts: unknown[] }).contacts).toEqual([]);
    await h.run('!tick');
    await h.run('@erin /exploit to:1221');
    expect(await hexOf(h, 'gyrhawk')).toBe('1221');
  });

  it('GIVEN three forces WHEN one evades and the others fight THEN the evader is out of contact (free to move) while the battle waits', async () => {
    h = await contactHarness({ three: true });
    await open(h, 'hadewych,grallune,aeskrvald');
    await h.run('@alice /engage', '@bob /engage', '@carol /engage');
    await h.run('@alice /engage', '@bob /evade', '@carol /engage');
    const [list] = await h.run('@referee /contact list');
    expect((list?.data as { contacts: { step: string; armyIds: string[] }[] }).contacts).toMatchObject([{ step: 'battle', armyIds: ['hadewych', 'aeskrvald'] }]);
    expect(await status(h, 'grallune')).not.toMatch(/in contact/);
    expect(await status(h, 'aeskrvald')).toMatch(/in battle/);
  });

  it('GIVEN three forces WHEN one avoids before the contact phase and the others proceed THEN the avoider is out of contact', async () => {
    h = await contactHarness({ three: true });
    await open(h, 'hadewych,grallune,aeskrvald');
    await h.run('@bob /avoid to:1020', '@alice /engage', '@carol /engage');
    const [list] = await h.run('@referee /contact list');
    expect((list?.data as { contacts: { step: string; armyIds: string[] }[] }).contacts).toMatchObject([{ step: 'decision', armyIds: ['hadewych', 'aeskrvald'] }]);
    expect(await status(h, 'grallune')).not.toMatch(/in contact/);
  });

  it('GIVEN the enemy is already in a new contact before its contact phase WHEN a reserve exploits next to it THEN the reserve joins that contact', async () => {
    h = await contactHarness({ support: true });
    await h.run('@referee /campaign start');
    await open(h, 'hadewych,grallune');
    await h.run('@dan /support of:grallune', '@erin /reserve of:grallune');
    await h.run('@referee /contact resolve', '!tick');
    const before = (((await h.run('@referee /contact list'))[0]?.data) as { contacts: { id: string; armyIds: string[] }[] }).contacts;
    expect(before).toHaveLength(1);
    await h.run('@erin /exploit to:1221');
    expect(await hexOf(h, 'gyrhawk')).toBe('1221');
    const after = (((await h.run('@referee /contact list'))[0]?.data) as { contacts: { id: string; armyIds: string[] }[] }).contacts;
    expect(after).toHaveLength(1);
    expect(after[0]?.id).toBe(before[0]?.id);
    expect([...(after[0]?.armyIds ?? [])].sort()).toEqual(['grallune', 'gyrhawk', 'hadewych']);
  });
});
