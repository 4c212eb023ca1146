/**
 * A contact button pressed on an earlier round's DM, through the real client and the fake Discord:
 * the presser reads a private refusal saying which round it was for and where the current one is,
 * the old DM is left as it was (nothing answered), and the newest DM's button is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import type { FakeMessage } from './fakeDiscord.js';
import { PEOPLE, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ commands, buttons });
});

afterAll(async () => {
  await h?.stop();
  // Nothing the bot sent was malformed for Discord.
  expect(h.fake.refusals).toEqual([]);
});

async function run(command: string, subcommand: string | undefined, userId: string, options: Record<string, string> = {}): Promise<{ content: string; ephemeral: boolean }[]> {
  const id = h.fake.pushCommand({ command, ...(subcommand ? { subcommand } : {}), userId, options });
  const messages = (await h.fake.waitForAnswer(id)).messages;
  expect(messages.map((m) => m.content).join('\n')).not.toMatch(/Something went wrong/);
  return messages;
}

type Row = { components: { custom_id: string; disabled?: boolean }[] };
const contactIds = (m: FakeMessage): string[] => (m.components as Row[]).flatMap((r) => r.components).map((b) => b.custom_id).filter((id) => id.startsWith('contact:'));
const contactDms = (userId: string): FakeMessage[] => h.fake.dmsTo(userId).filter((m) => contactIds(m).length > 0);
const proceedOf = (m: FakeMessage): string => contactIds(m).find((id) => id.includes(':proceed:'))!;

describe('a stale contact button over Discord', () => {
  it('GIVEN a contact nobody pressed, asked again in round 2 WHEN Alice clicks round 1\'s button THEN she reads a private refusal naming the round and where to answer, the old DM stays unanswered; round 2\'s button is taken', async () => {
    await run('campaign', 'create', PEOPLE.referee.id, { name: 'Stale War', scenario: 'valormr' });
    await run('campaign', 'assign', PEOPLE.referee.id, { army: 'hadewych', user: PEOPLE.alice.id });
    await run('campaign', 'assign', PEOPLE.referee.id, { army: 'grallune', user: PEOPLE.bob.id });
    await run('army', 'edit', PEOPLE.referee.id, { army: 'hadewych', hex: '1122' });
    await run('army', 'edit', PEOPLE.referee.id, { army: 'grallune', hex: '1121' });
    await run('campaign', 'start', PEOPLE.referee.id);
    const [opened] = await run('contact', 'open', PEOPLE.referee.id, { armies: 'hadewych,grallune' });
    const contactId = /\b(c\d+)\b/.exec(opened!.content)?.[1];
    expect(contactId).toBeDefined();
    await h.bot.deliverNow();
    expect(contactDms(PEOPLE.alice.id)).toHaveLength(1);
    // Nobody answers: fight on the morrow, and the forces still face each other in the next half period.
    await run('turn', 'advance', PEOPLE.referee.id);
    await h.bot.deliverNow();
    const [round1, round2] = contactDms(PEOPLE.alice.id);
    expect(round2, 'round 2 asked again by DM').toBeDefined();

    const stale = h.fake.pushButton({ customId: proceedOf(round1!), userId: PEOPLE.alice.id });
    const [refusal] = (await h.fake.waitForAnswer(stale)).messages;
    expect(refusal!.ephemeral).toBe(true);
    expect(refusal!.content).toBe(`That button was for contact ${contactId} as it opened on Day 1, morning; a new round of it opened on Day 1, afternoon. Nothing was recorded: use the newest message about ${contactId}.`);
    // The round-1 DM is not updated: no "Answered", its buttons as they were.
    expect(h.fake.interaction(stale).callbacks.map((c) => c.type)).not.toContain(7);
    const old = h.fake.dmsTo(PEOPLE.alice.id).find((m) => m.id === round1!.id)!;
    expect(old.content).toBe(round1!.content);
    expect((old.components as Row[]).flatMap((r) => r.components).some((b) => b.disabled === true)).toBe(false);

    const current = h.fake.pushButton({ customId: proceedOf(round2!), userId: PEOPLE.alice.id });
    const answered = (await h.fake.waitForAnswer(current, 2)).messages;
    expect(answered.map((m) => m.content).join('\n')).toContain('Recorded for Army of Hadewych: proceed to the contact phase.');
    expect(h.logs.at('error')).toEqual([]);
  });
});
