/**
 * Cards through the real discord.js client and the fake Discord: embeds with the side's colour,
 * fields, timestamps, always within Discord's embed limits (the fake refuses what Discord would).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import type { Card } from '../../src/app/messages.js';
import { enqueue } from '../../src/db/outboxRepo.js';
import { cardEmbeds } from '../../src/discord/payloads.js';
import { PEOPLE, seenText, startHarness, type Harness } from './harness.js';
import { decideButtons, testCommands } from './testCommands.js';

let h: Harness;
let campaignId: string;
let nonces = 0;

function queue(m: { to: 'dm' | 'channel'; userId?: string; channelId?: string; content: string; cards: Card[] }): void {
  enqueue(h.app.db, { campaignId, nonce: `cards${++nonces}`, ...m }, h.clock.now().toISOString());
}

beforeAll(async () => {
  h = await startHarness({ commands: testCommands, buttons: [decideButtons] });
  const [first] = createCampaign(h.app, { userId: PEOPLE.referee.id, userName: 'Ref', guildId: h.fake.guildId, channelId: h.fake.channelId, roleIds: [] }, { name: 'Autumn War', scenario: 'valormr' });
  campaignId = (first!.data as { campaignId: string }).campaignId;
  await h.bot.deliverNow();
});

afterAll(async () => {
  await h?.stop();
  // Nothing the bot sent was malformed for Discord: no embed over its limits.
  expect(h.fake.refusals).toEqual([]);
});

/** Discord's count of an embed's characters. */
const size = (e: { title?: string; description?: string; fields?: { name: string; value: string }[]; footer?: { text: string } }): number =>
  (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0) + (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);

describe('cards as Discord embeds', () => {
  it('GIVEN a contact card WHEN delivered by DM THEN it is an embed in the side\'s colour, with its fields and a timestamp Discord renders, under a short text', async () => {
    const card: Card = {
      title: 'Contact c1', colour: '#b03a2e',
      fields: [
        { name: 'Contact dice (c1)', value: '3 +1 (all opponents in clear terrain) = 4', inline: true },
        { name: 'Estimate: Army of Grallune', value: 'engaging regiment about 24 figures (960 troops)' },
        { name: 'Answer by', value: '<t:1795593600:f> (<t:1795593600:R>)' },
      ],
    };
    queue({ to: 'dm', userId: PEOPLE.alice.id, content: '**Army of Hadewych** (Autumn War)', cards: [card] });
    await h.bot.deliverNow();
    const dm = h.fake.dmsTo(PEOPLE.alice.id).at(-1)!;
    expect(dm.content).toBe('**Army of Hadewych** (Autumn War)');
    const [embed] = dm.embeds as { title: string; color: number; fields: { name: string; value: string; inline?: boolean }[] }[];
    expect(embed).toMatchObject({ title: 'Contact c1', color: 0xb03a2e });
    expect(embed!.fields.map((f) => f.name)).toEqual(['Contact dice (c1)', 'Estimate: Army of Grallune', 'Answer by']);
    expect(embed!.fields[0]!.inline).toBe(true);
    expect(embed!.fields[2]!.value).toBe('<t:1795593600:f> (<t:1795593600:R>)');
  });

  it('GIVEN cards far over Discord\'s limits (a long chronicle, 40 fields, fields over 1,024 characters) WHEN posted THEN every part is accepted and nothing is lost', async () => {
    const line = (i: number): string => `Army ${i} marched from 0816 to 0817 by 0918, 1018 and 1119, and halted at the ford of the Elding.`;
    const huge: Card[] = [
      { title: 'Chronicle of Autumn War'.repeat(20), colour: '#2f5fb3', description: Array.from({ length: 80 }, (_, i) => line(i)).join('\n'), fields: Array.from({ length: 40 }, (_, i) => ({ name: `Section ${i}`, value: Array.from({ length: 14 }, (_, j) => line(i * 100 + j)).join('\n') })), footer: 'Next tick soon' },
      { title: 'Battle c2: deployment', fields: [{ name: 'Army of Hadewych', value: 'deployment dice 4 -> 5' }, { name: 'Empty', value: '' }] },
    ];
    const before = h.fake.postsIn(h.fake.channelId).length;
    queue({ to: 'channel', channelId: h.fake.channelId, content: '**Day 1, morning → Day 1, afternoon**', cards: huge });
    await h.bot.deliverNow();
    const posts = h.fake.postsIn(h.fake.channelId).slice(before);
    expect(posts.length).toBeGreaterThan(1);
    for (const p of posts) {
      const embeds = p.embeds as Parameters<typeof size>[0][];
      expect(embeds.length).toBeLessThanOrEqual(10);
      expect(embeds.reduce((n, e) => n + size(e), 0)).toBeLessThanOrEqual(6000);
      for (const e of embeds) {
        expect((e.title ?? '').length).toBeLessThanOrEqual(256);
        expect((e.fields ?? []).length).toBeLessThanOrEqual(25);
        for (const f of e.fields ?? []) expect(f.value.length).toBeLessThanOrEqual(1024);
      }
    }
    // Every line of every field, and the description's, arrived.
    const all = posts.map(seenText).join('\n');
    for (let i = 0; i < 80; i++) expect(all).toContain(line(i));
    for (const i of [0, 17, 39]) for (const j of [0, 13]) expect(all).toContain(line(i * 100 + j));
    expect(all).toContain('Next tick soon');
    expect(all).toContain('deployment dice 4 -> 5');
  });

  it('GIVEN one card WHEN turned into embeds THEN a field over 1,024 characters continues in fields named "(continued)"', () => {
    const embeds = cardEmbeds({ title: 'T', fields: [{ name: 'Regiments', value: Array.from({ length: 40 }, (_, i) => `Regiment ${i}: 18/18 figures (100%): 12 heavy foot, 6 archers`).join('\n') }] });
    const names = embeds.flatMap((e) => (e.fields ?? []).map((f) => f.name));
    expect(names[0]).toBe('Regiments');
    expect(names.slice(1).every((n) => n === 'Regiments (continued)')).toBe(true);
    expect(names.length).toBeGreaterThan(2);
  });
});

describe('an answered question after a slow answer (the safety deferral came first)', () => {
  let slow: Harness;
  let id: string;
  beforeAll(async () => {
    const settle = {
      prefix: 'settle',
      async execute({ customId }: { customId: string }) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return [{ to: 'update' as const, content: `✅ **Answered**: ${customId.split(':')[1]}.`, settles: 'settle:' }, { to: 'ephemeral' as const, content: 'Recorded.' }];
      },
    };
    slow = await startHarness({ commands: testCommands, buttons: [settle], safetyDeferMs: 30 });
    const [first] = createCampaign(slow.app, { userId: PEOPLE.referee.id, userName: 'Ref', guildId: slow.fake.guildId, channelId: slow.fake.channelId, roleIds: [] }, { name: 'Slow War', scenario: 'valormr' });
    id = (first!.data as { campaignId: string }).campaignId;
  });
  afterAll(async () => {
    await slow?.stop();
    expect(slow.fake.refusals).toEqual([]);
  });

  it('GIVEN a DM question WHEN its button is pressed and the answer takes longer than the safety deferral THEN the DM still says what was chosen and its buttons are disabled', async () => {
    enqueue(slow.app.db, { campaignId: id, nonce: 'slow1', to: 'dm', userId: PEOPLE.alice.id, content: 'Contact c9: engage or evade?', buttons: [{ id: 'settle:engage', label: 'Engage' }, { id: 'settle:evade', label: 'Evade' }] }, slow.clock.now().toISOString());
    await slow.bot.deliverNow();
    const dm = slow.fake.dmsTo(PEOPLE.alice.id).at(-1)!;
    const press = slow.fake.pushButton({ customId: 'settle:evade', userId: PEOPLE.alice.id });
    const rec = await slow.fake.waitForAnswer(press);
    expect(rec.callbacks[0]?.type).toBe(5);
    // The slow button's answer edits the DM later: waited for, not slept on (a loaded machine is slower).
    const edited = (): typeof dm | undefined => slow.fake.dmsTo(PEOPLE.alice.id).find((m) => m.id === dm.id && m.content.includes('Answered'));
    const after = await slow.fake.waitFor(() => rec.messages.some((m) => m.content === 'Recorded.') && edited(), 60_000, 'the DM edited and the choice recorded');
    expect(after.content).toBe('Contact c9: engage or evade?\n✅ **Answered**: evade.');
    const buttons = (after.components as { components: { custom_id: string; disabled?: boolean; style: number }[] }[]).flatMap((r) => r.components);
    expect(buttons.map((b) => [b.custom_id, b.disabled, b.style])).toEqual([['settle:engage', true, 1], ['settle:evade', true, 3]]);
    expect(rec.messages.some((m) => m.ephemeral && m.content === 'Recorded.')).toBe(true);
  });
});
