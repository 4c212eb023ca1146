/**
 * The game's own commands (commands/index.ts) through the real client and the fake Discord, on a
 * campaign created with /campaign create and played with /turn advance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import type { FakeMessage } from './fakeDiscord.js';
import { PEOPLE, PNG_SIGNATURE, seenText, startHarness, type Harness } from './harness.js';
import { exportFileText, replayText, reportText } from '../../src/console/replay.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ commands, buttons });
});

afterAll(async () => {
  await h?.stop();
  // Nothing the bot sent was malformed for Discord.
  expect(h.fake.refusals).toEqual([]);
});

async function answer(id: string, count = 1): Promise<{ content: string; embeds: unknown[]; components: unknown[]; ephemeral: boolean; files: { name: string; data: Uint8Array }[] }[]> {
  const rec = await h.fake.waitForAnswer(id, count);
  return rec.messages;
}

describe('the game commands over Discord', () => {
  it('GIVEN a referee WHEN /campaign create THEN the public announcement and the private referee note both arrive, and the channel post is delivered', async () => {
    const id = h.fake.pushCommand({ command: 'campaign', subcommand: 'create', userId: PEOPLE.referee.id, options: { name: 'Autumn War', scenario: 'valormr' } });
    const messages = await answer(id, 2);
    const pub = messages.find((m) => !m.ephemeral);
    const priv = messages.find((m) => m.ephemeral);
    expect(pub?.content).toContain('Campaign **Autumn War** created');
    expect(priv?.content).toContain('You are the referee of **Autumn War**');
    await h.bot.deliverNow();
    expect(h.fake.postsIn(h.fake.channelId).some((p) => p.content.includes('A new campaign begins here: **Autumn War**'))).toBe(true);
  });

  it('GIVEN a player who is not referee WHEN /campaign start THEN the refusal comes back privately', async () => {
    const id = h.fake.pushCommand({ command: 'campaign', subcommand: 'start', userId: PEOPLE.alice.id });
    const [m] = await answer(id);
    expect(m!.ephemeral).toBe(true);
    expect(m!.content).toMatch(/referee/i);
    expect(m!.content).not.toMatch(/Something went wrong/);
    expect(h.logs.at('error')).toEqual([]);
  });

  it('GIVEN the referee WHEN /campaign assign gives an army to Alice THEN the public answer names her and only Alice gets the DM', async () => {
    const id = h.fake.pushCommand({ command: 'campaign', subcommand: 'assign', userId: PEOPLE.referee.id, options: { army: 'hadewych', user: PEOPLE.alice.id } });
    const messages = await answer(id);
    expect(messages.find((m) => !m.ephemeral)?.content).toContain('Alice now commands **Army of Hadewych**');
    await h.bot.deliverNow();
    const dms = h.fake.dmsTo(PEOPLE.alice.id);
    expect(dms.some((d) => d.content.includes('You command **Army of Hadewych**'))).toBe(true);
    expect(h.fake.messages.filter((m) => m.kind === 'dm' && m.content.includes('You command **Army of Hadewych**')).map((m) => m.dmUserId)).toEqual([PEOPLE.alice.id]);
  });

  it('GIVEN Bob has closed DMs WHEN he is given an army THEN the DM is refused, the channel is told without the content, the referee is told, and /intel shows it to Bob privately', async () => {
    h.fake.refuseDms(PEOPLE.bob.id);
    const id = h.fake.pushCommand({ command: 'campaign', subcommand: 'assign', userId: PEOPLE.referee.id, options: { army: 'lanze', user: PEOPLE.bob.id } });
    await answer(id);
    await h.bot.deliverNow(); // the DM is refused: kept as dmClosed, notices queued
    await h.bot.deliverNow(); // notices markFailed queued, if the first pass left any
    expect(h.fake.dmsTo(PEOPLE.bob.id)).toEqual([]);
    const notice = h.fake.postsIn(h.fake.channelId).find((p) => p.content.includes(`<@${PEOPLE.bob.id}>`));
    expect(notice?.content).toContain('/intel');
    expect(notice?.content).not.toContain('Army of Lanze');
    // The DM test's notice names Bob and the referee in the channel and pings nobody.
    expect(notice?.content).toContain(`DM test: I could not send a direct message to <@${PEOPLE.bob.id}>`);
    expect(notice?.content).toContain(`Referee <@${PEOPLE.referee.id}>`);
    expect(notice?.pinged).toEqual({ users: [], roles: [], everyone: false });
    expect(h.fake.dmsTo(PEOPLE.referee.id).some((d) => d.content.includes('could not be delivered'))).toBe(true);

    const intel = h.fake.pushCommand({ command: 'intel', userId: PEOPLE.bob.id, options: { army: 'lanze' } });
    const [m] = await answer(intel);
    expect(m!.ephemeral).toBe(true);
    expect(seenText(m!)).toContain('You command **Army of Lanze**');
    h.fake.refuseDms(PEOPLE.bob.id, false);
  });

  it('GIVEN Alice commands one army WHEN she autocompletes /army status THEN she is offered her own army only; the referee sees them all', async () => {
    const mine = h.fake.pushAutocomplete({ command: 'army', subcommand: 'status', userId: PEOPLE.alice.id, focused: 'army', options: { army: '' } });
    const aliceChoices = (await h.fake.waitForAnswer(mine)).autocompleteChoices!;
    expect(aliceChoices.map((c) => c.value)).toEqual(['hadewych']);
    const all = h.fake.pushAutocomplete({ command: 'army', subcommand: 'status', userId: PEOPLE.referee.id, focused: 'army', options: { army: '' } });
    const refChoices = (await h.fake.waitForAnswer(all)).autocompleteChoices!;
    expect(refChoices.length).toBeGreaterThan(1);
    expect(refChoices.length).toBeLessThanOrEqual(25);
    expect(refChoices.every((c) => c.name.length <= 100)).toBe(true);
  });

  it('GIVEN Alice WHEN /army status of her army THEN the answer is ephemeral; of another army THEN refused privately', async () => {
    const id = h.fake.pushCommand({ command: 'army', subcommand: 'status', userId: PEOPLE.alice.id, options: { army: 'hadewych' } });
    const [m] = await answer(id);
    expect(m).toMatchObject({ ephemeral: true });
    expect(m!.content).toContain('Hadewych');
    const other = h.fake.pushCommand({ command: 'army', subcommand: 'status', userId: PEOPLE.alice.id, options: { army: 'lanze' } });
    const [refusal] = await answer(other);
    expect(refusal!.ephemeral).toBe(true);
    expect(refusal!.content).toContain('is not your army');
  });

  it('GIVEN a referee role set with /campaign settings referee-role WHEN a member of that role starts the campaign THEN it is accepted', async () => {
    const set = h.fake.pushCommand({ command: 'campaign', subcommand: 'settings', userId: PEOPLE.referee.id, options: { 'referee-role': h.fake.refereeRoleId } });
    const setMessages = await answer(set);
    expect(setMessages.map((m) => m.content).join('\n')).not.toMatch(/Something went wrong/);
    const start = h.fake.pushCommand({ command: 'campaign', subcommand: 'start', userId: PEOPLE.cora.id });
    const messages = await answer(start);
    expect(messages.map((m) => m.content).join('\n')).not.toMatch(/Something went wrong|referee/i);
  });

  it('GIVEN Alice WHEN /move her army THEN the order is confirmed ephemerally', async () => {
    const id = h.fake.pushCommand({ command: 'move', userId: PEOPLE.alice.id, options: { army: 'hadewych', to: '0913' } });
    const [m] = await answer(id);
    expect(m!.ephemeral).toBe(true);
    expect(m!.content).toContain('**Army of Hadewych**: move order');
    expect(m!.content).toContain('0913');
    expect(h.fake.postsIn(h.fake.channelId).some((p) => p.content.includes('0913'))).toBe(false);
  });

  it('GIVEN Bob WHEN /move Alice\'s army THEN the refusal is private and the order unchanged', async () => {
    const id = h.fake.pushCommand({ command: 'move', userId: PEOPLE.bob.id, options: { army: 'hadewych', to: '0716' } });
    const [m] = await answer(id);
    expect(m!.ephemeral).toBe(true);
    expect(m!.content).not.toMatch(/Something went wrong/);
    expect(m!.content).not.toContain('move order');
  });

  it('GIVEN a running campaign WHEN /map THEN a deferred answer carries a PNG', async () => {
    const id = h.fake.pushCommand({ command: 'map', userId: PEOPLE.alice.id });
    const messages = await answer(id);
    expect(h.fake.interaction(id).callbacks[0]?.type).toBe(5);
    const png = messages.flatMap((m) => m.files).find((f) => f.name.endsWith('.png'));
    expect(png).toBeDefined();
    expect([...png!.data.slice(0, 8)]).toEqual(PNG_SIGNATURE);
  });

  it('GIVEN two hostile armies meeting WHEN the turn is played THEN each commander gets their own contact DM with buttons, and a press decides through the contact handler', async () => {
    const place = h.fake.pushCommand({ command: 'army', subcommand: 'edit', userId: PEOPLE.referee.id, options: { army: 'lanze', hex: '0818' } });
    await answer(place);
    const move = h.fake.pushCommand({ command: 'move', userId: PEOPLE.alice.id, options: { army: 'hadewych', to: '0817' } });
    await answer(move);
    const hasContactButton = (m: { components: unknown[] }): boolean => JSON.stringify(m.components).includes('"custom_id":"contact:');
    let aliceDm: FakeMessage | undefined;
    for (let i = 0; i < 3 && !aliceDm; i++) {
      const advance = h.fake.pushCommand({ command: 'turn', subcommand: 'advance', userId: PEOPLE.referee.id });
      const [played] = await answer(advance);
      expect(played!.content).not.toMatch(/Something went wrong/);
      await h.bot.deliverNow();
      aliceDm = h.fake.dmsTo(PEOPLE.alice.id).find(hasContactButton);
    }
    expect(aliceDm, 'a contact DM with buttons after at most three half periods').toBeDefined();
    const bobDm = h.fake.dmsTo(PEOPLE.bob.id).find(hasContactButton);
    expect(bobDm).toBeDefined();
    expect(h.fake.messages.filter((m) => seenText(m) === seenText(aliceDm!)).map((m) => m.dmUserId)).toEqual([PEOPLE.alice.id]);
    expect(h.fake.postsIn(h.fake.channelId).some((p) => seenText(p) === seenText(aliceDm!))).toBe(false);

    const rows = aliceDm!.components as { components: { custom_id: string; label: string }[] }[];
    const button = rows.flatMap((r) => r.components).find((b) => b.custom_id.startsWith('contact:'))!;
    const press = h.fake.pushButton({ customId: button.custom_id, userId: PEOPLE.alice.id });
    const [, reply] = await answer(press, 2);
    expect(reply!.ephemeral).toBe(true);
    expect(reply!.content).toContain('Recorded for Army of Hadewych');
    // The DM itself now says what was chosen, and its buttons are disabled (the pressed one green).
    expect(h.fake.interaction(press).callbacks[0]?.type).toBe(7);
    const answered = h.fake.dmsTo(PEOPLE.alice.id).find((m) => m.id === aliceDm!.id)!;
    expect(answered.content).toMatch(/Answered\*\*: /);
    const settled = (answered.components as { components: { custom_id: string; disabled?: boolean; style: number }[] }[]).flatMap((r) => r.components);
    expect(settled.every((b) => b.disabled === true)).toBe(true);
    expect(settled.find((b) => b.custom_id === button.custom_id)?.style).toBe(3);

    const before = h.fake.messages.length;
    const bobButton = (bobDm!.components as { components: { custom_id: string }[] }[]).flatMap((r) => r.components).find((b) => b.custom_id.includes(':proceed:'))!;
    const bobPress = h.fake.pushButton({ customId: bobButton.custom_id, userId: PEOPLE.bob.id });
    const [, bobReply] = await answer(bobPress, 2);
    expect(bobReply!.ephemeral).toBe(true);
    await h.bot.deliverNow();
    const after = h.fake.messages.slice(before).filter((m) => m.kind !== 'interaction');
    expect(bobReply!.content).toContain('Every commander has answered');
    // Each commander's estimate goes to that commander only; the channel hears no numbers.
    const dms = after.filter((m) => m.kind === 'dm');
    const aliceEstimate = dms.find((m) => m.content.startsWith('**Army of Hadewych**') && /Estimate: /.test(seenText(m)));
    const bobEstimate = dms.find((m) => m.content.startsWith('**Army of Lanze**') && /Estimate: /.test(seenText(m)));
    expect(aliceEstimate?.dmUserId).toBe(PEOPLE.alice.id);
    expect(bobEstimate?.dmUserId).toBe(PEOPLE.bob.id);
    expect(h.fake.messages.filter((m) => seenText(m) === seenText(aliceEstimate!))).toHaveLength(1);
    expect(h.fake.messages.filter((m) => seenText(m) === seenText(bobEstimate!))).toHaveLength(1);
    // The estimate is a card: dice, hour and estimate as fields, in the side's colour.
    const card = aliceEstimate!.embeds[0] as { color?: number; fields: { name: string; value: string }[] };
    expect(card.color).toBeTypeOf('number');
    expect(card.fields.map((f) => f.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^Contact dice/), 'Contact hour', 'Estimate: Army of Lanze']));
    const publicPosts = after.filter((m) => m.kind === 'channel');
    expect(publicPosts.length).toBeGreaterThan(0);
    expect(publicPosts.every((p) => !/figures|dice|die /.test(seenText(p)))).toBe(true);
  });

  it('GIVEN the referee offers a seat with /campaign seat WHEN an enemy presses Claim THEN it is refused privately; WHEN Alice presses it THEN she holds the army and the offer says so with its button disabled', async () => {
    const offer = h.fake.pushCommand({ command: 'seat', subcommand: 'offer', userId: PEOPLE.referee.id, options: { army: 'minke' } });
    const [offered] = await answer(offer);
    expect(offered!.ephemeral).toBe(false);
    expect(offered!.content).toContain('The seat of **Army of Minke Meine** is offered (nobody commands it)');
    const claim = (offered!.components as { components: { custom_id: string; label: string }[] }[]).flatMap((r) => r.components).find((b) => b.custom_id.startsWith('seat:'))!;
    expect(claim.label).toBe('Claim Army of Minke Meine');
    // Bob commands Lanze, of the Law, at war with Minke's Chaos.
    const bobPress = h.fake.pushButton({ customId: claim.custom_id, userId: PEOPLE.bob.id });
    const [refused] = await answer(bobPress);
    expect(refused!.ephemeral).toBe(true);
    expect(refused!.content).toContain('You already command Army of Lanze, of a side hostile to Army of Minke Meine\'s');
    const alicePress = h.fake.pushButton({ customId: claim.custom_id, userId: PEOPLE.alice.id });
    const [, mine] = await answer(alicePress, 2);
    expect(mine!.ephemeral).toBe(true);
    expect(mine!.content).toContain('You hold the seat of **Army of Minke Meine** (`minke`) as substitute');
    expect(h.fake.interaction(alicePress).callbacks[0]?.type).toBe(7);
    const updated = h.fake.messages.filter((m) => JSON.stringify(m.components).includes(JSON.stringify(claim.custom_id))).at(-1)!;
    expect(updated.content).toContain('Claimed: Alice takes the seat of **Army of Minke Meine** as substitute.');
    expect((updated.components as { components: { disabled?: boolean }[] }[]).flatMap((r) => r.components).every((b) => b.disabled === true)).toBe(true);
  });

  it('GIVEN an export larger than the server lets the bot upload WHEN /campaign export THEN it comes gzipped and replays exactly; larger even compressed THEN the referee is told the sizes and the host command, with no file', async () => {
    const ask = async (): Promise<Awaited<ReturnType<typeof answer>>[number]> => {
      const id = h.fake.pushCommand({ command: 'campaign', subcommand: 'export', userId: PEOPLE.referee.id });
      const [m] = await answer(id);
      return m!;
    };
    const whole = await ask();
    const plain = whole.files[0]!;
    expect(plain.name).toMatch(/-export\.json$/);
    try {
      // The fake answers 413 (as Discord does) to any file over its limit, and counts it as a refusal.
      h.fake.attachmentLimit = Math.floor(plain.data.byteLength / 2);
      const packed = await ask();
      expect(packed.ephemeral).toBe(true);
      expect(packed.content).toMatch(/compressed \(gzip\) from \d+ kB/);
      const gz = packed.files[0]!;
      expect(gz.name).toBe(`${plain.name}.gz`);
      expect(gz.data.byteLength).toBeLessThanOrEqual(h.fake.attachmentLimit);
      expect([gz.data[0], gz.data[1]]).toEqual([0x1f, 0x8b]);
      const report = await replayText(exportFileText(Buffer.from(gz.data)));
      expect(reportText(report)).toMatch(/^replays exactly/);

      h.fake.attachmentLimit = 1024;
      const refused = await ask();
      expect(refused.files).toEqual([]);
      expect(refused.content).toMatch(/\d+ kB, \d+ kB compressed, more than the 1 kB Discord lets the bot upload here/);
      expect(refused.content).toMatch(/`npm run export -- [0-9a-f-]+`/);
    } finally {
      h.fake.attachmentLimit = 10 * 1024 * 1024;
    }
  });

  it('GIVEN /help THEN it answers privately and lists the registered commands', async () => {
    const id = h.fake.pushCommand({ command: 'help', userId: PEOPLE.bob.id });
    const messages = await answer(id);
    expect(messages.every((m) => m.ephemeral && m.content.length <= 2000)).toBe(true);
    for (const c of commands) expect(messages.map((m) => m.content).join('\n')).toContain(`/${c.data.name}`);
  });
});
