import { afterEach, describe, expect, it } from 'vitest';
import { refereeButtons } from '../../commands/_refereeButtons.js';
import { runDueTicks } from '../../src/app/scheduler/index.js';
import type { MessageButton } from '../../src/app/messages.js';
import { scheduled } from '../scheduler/fixtures.js';
import { consoleHarness, type Harness } from './harness.js';
import { contactHarness, open } from './contactSetup.js';

let h: Harness | undefined;
afterEach(() => h?.close());

/** The inbox as the console prints it (its buttons as the commands they stand for). */
async function inbox(hh: Harness): Promise<{ text: string }> {
  const [out] = await hh.run('@referee /referee inbox');
  return { text: out?.content ?? '' };
}

const press = (hh: Harness, id: string, userId = 'referee') => refereeButtons.execute({ app: hh.app, userId, customId: id });

/** The inbox's button ids, read from the app's answer (the console prints them as commands). */
async function buttonsOf(hh: Harness): Promise<MessageButton[]> {
  const { refereeInbox } = await import('../../src/app/referee/inbox.js');
  const [r] = refereeInbox(hh.app, { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] });
  return [...(r?.buttons ?? [])];
}

describe('/referee inbox', () => {
  it('GIVEN an open contact nobody answered THEN the inbox lists it with who is awaited, prints its buttons as commands, and its buttons nudge and resolve', async () => {
    h = await contactHarness();
    await h.run('@referee /campaign start');
    const id = await open(h, 'hadewych,grallune');
    const { text } = await inbox(h);
    expect(text).toContain(`**Open contacts**: ${id}: Army of Hadewych vs Army of Grallune, before the contact phase (proceed, delay, avoid or stay silent); waiting for Army of Hadewych (alice), Army of Grallune (bob).`);
    expect(text).toContain(`[Nudge Army of Hadewych] [Nudge Army of Grallune] [/contact resolve contact:${id}]`);
    expect(text).toMatch(/\*\*Without orders for Day 1, morning \(they will rest\)\*\*\n│ Army of Grallune \(bob\), Army of Hadewych \(alice\)\n│ and 22 armies nobody commands/);
    const buttons = await buttonsOf(h);
    // A player cannot use the inbox's buttons.
    await expect(press(h, buttons[0]!.id, 'alice')).rejects.toMatchObject({ code: 'campaign.refereeOnly' });
    const [nudged] = await press(h, buttons.find((b) => b.label === 'Nudge Army of Grallune')!.id);
    expect(nudged?.content).toBe('Nudged the commander of Army of Grallune.');
    await h.deliver();
    expect(h.dms('bob').at(-1)?.content).toBe(`**Army of Grallune** (Autumn War): the referee asks: contact ${id} waits for your answer (\`/engage\`, \`/delay\`, \`/avoid to:HEX\`, or the buttons of its DM).`);
    const [resolved] = await press(h, buttons.find((b) => b.command === `/contact resolve contact:${id}`)!.id);
    expect(resolved?.content).toMatch(/resolved: now over \(they fight on the morrow\)/);
    expect((await inbox(h)).text).not.toContain('Open contacts');
  });

  it('GIVEN a battle waiting and a player whose DMs are closed THEN both are listed; Record gives the exact command; the referee\'s tick DM says what waits', async () => {
    h = await consoleHarness({ closedDms: ['bob'], setup: [
      '@referee /campaign create scenario:valormr name:"Autumn War"',
      '@referee /campaign assign army:hadewych user:alice',
      '@referee /campaign assign army:grallune user:bob',
      '@referee /campaign start',
    ].join('\n') });
    // bob's assignment DM bounced: the next tick tells the referee it waits.
    await h.run('@alice /move army:hadewych to:0817', '!tick');
    const tickDm = h.dms('referee').at(-1)?.content ?? '';
    expect(tickDm).toMatch(/\*\*Waiting on you\*\*: New: 1 player whose DMs bounced\. `\/referee inbox` lists everything that waits with buttons\./);
    // The next tick has nothing new for the referee: no DM (the inbox still lists the bounce).
    const told = h.dms('referee').length;
    await h.run('!tick');
    expect(h.dms('referee').length).toBe(told);
    await h.run('@referee /army edit army:hadewych hex:1122', '@referee /army edit army:grallune hex:1121');
    const id = await open(h, 'hadewych,grallune');
    await h.run('@alice /engage', '@bob /engage', '@alice /engage', '@bob /engage');
    const { text } = await inbox(h);
    expect(text).toContain(`**Battles waiting for their result**: ${id}: Army of Hadewych vs Army of Grallune`);
    expect(text).toContain('**DMs that bounced (closed DMs)**: bob:');
    expect(text).toContain(`[/battle result contact:${id}]`);
    expect(text).toContain('[Remind bob of /intel]');
    const buttons = await buttonsOf(h);
    const [help] = await press(h, buttons.find((b) => b.label === `Record ${id}`)!.id);
    expect(help?.content).toContain(`\`/battle result contact:${id} losses:"hadewych/`);
    const [reminded] = await press(h, buttons.find((b) => b.label === 'Remind bob of /intel')!.id);
    expect(reminded?.content).toContain('Reminded bob in the channel');
    await h.deliver();
    expect(h.channel().at(-1)).toMatchObject({ content: expect.stringContaining('@bob, messages for you could not be sent by DM') });
  });

  it('GIVEN a catch-up pause THEN the inbox offers the three ways to resume, and a button resumes', async () => {
    const s = await scheduled({ settings: 'cadence:"0 */6 * * *"' });
    h = s;
    s.clock.set(new Date('2026-11-25T10:00:00Z'));
    await runDueTicks(s.app);
    const { text } = await inbox(s);
    expect(text).toContain('**Catch-up held**: The campaign is paused after downtime');
    expect(text).toContain('[/campaign resume missed:none] [/campaign resume missed:one] [/campaign resume missed:all]');
    const buttons = await buttonsOf(s);
    const [resumed] = await press(s, buttons.find((b) => b.command === '/campaign resume missed:none')!.id);
    expect(resumed?.content).toMatch(/The campaign resumes\. The \d+ missed half periods are skipped/);
    expect((await inbox(s)).text).not.toContain('Catch-up held');
  });
});

describe('/referee inbox: deliveries given up', () => {
  it('GIVEN a DM the outbox gave up on THEN the inbox lists it with its reason, and Send again queues it anew', async () => {
    h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Autumn War"' });
    // The next delivery fails for good (a target Discord will not take).
    await h.run('@referee /campaign assign army:hadewych user:alice');
    const { runDelivery } = await import('../../src/app/outbox.js');
    const { enqueue } = await import('../../src/db/outboxRepo.js');
    const { readCampaign } = await import('../../src/app/unitOfWork.js');
    const id = readCampaign(h.app, { actor: { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] } }, (tx) => tx.meta.id);
    enqueue(h.app.db, { campaignId: id, to: 'dm', userId: 'alice', content: 'Your orders, again.', nonce: 'lost1' }, h.clock.now().toISOString());
    await runDelivery(h.app, async () => ({ result: 'permanent', reason: 'Unknown User' }));
    const { text } = await inbox(h);
    expect(text).toMatch(/\*\*Deliveries given up\*\*: DM to alice \(.* UTC\): Unknown User/);
    const resend = (await buttonsOf(h)).find((b) => b.label.startsWith('Send again'))!;
    const [again] = await press(h, resend.id);
    expect(again?.content).toMatch(/is sent again/);
    const delivered = await h.deliver();
    expect(delivered.some((o) => o.to === 'dm' && o.user === 'alice' && o.content === 'Your orders, again.')).toBe(true);
    expect((await inbox(h)).text).not.toContain('Deliveries given up');
  });
});
