import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_WINDOW_MS } from './fakeDiscord.js';
import { PEOPLE, PNG_SIGNATURE, startHarness, type Harness } from './harness.js';
import { testCommands } from './testCommands.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ commands: testCommands });
});

afterAll(async () => {
  await h?.stop();
  // Nothing the bot sent was malformed for Discord.
  expect(h.fake.refusals).toEqual([]);
});

describe('interactions through the real discord.js client', () => {
  it('GIVEN the fake gateway WHEN the bot starts THEN it logs in with the Guilds intent only and sees the guild', () => {
    expect(h.bot.client.isReady()).toBe(true);
    expect(h.bot.client.guilds.cache.has(h.fake.guildId)).toBe(true);
    expect(h.bot.client.options.intents.toArray()).toEqual(['Guilds']);
    expect(h.fake.identifies).toBe(1);
  });

  it('GIVEN a command with options WHEN used THEN the context carries user, subcommand, options and roles, answered ephemerally', async () => {
    const id = h.fake.pushCommand({
      command: 'echo', subcommand: 'options', userId: PEOPLE.cora.id,
      options: { army: 'red-host', count: 3, flag: true, who: PEOPLE.bob.id, ratio: 0.5 },
    });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.callbacks[0]?.type).toBe(4);
    expect(rec.messages).toHaveLength(1);
    expect(rec.messages[0]!.ephemeral).toBe(true);
    const seen = JSON.parse(rec.messages[0]!.content.replace(/^seen /, '')) as Record<string, unknown>;
    expect(seen).toEqual({
      user: PEOPLE.cora.id, name: 'Cora', guild: h.fake.guildId, channel: h.fake.channelId, roles: [h.fake.refereeRoleId], sub: 'options',
      army: 'red-host', count: 3, flag: true, who: PEOPLE.bob.id, ratio: 0.5,
    });
  });

  it('GIVEN a public answer WHEN used THEN the reply is public', async () => {
    const id = h.fake.pushCommand({ command: 'echo', subcommand: 'public', userId: PEOPLE.alice.id });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.messages[0]).toMatchObject({ ephemeral: false, content: 'Hello everyone, from Alice.' });
  });

  it('GIVEN a refusal (UserError) WHEN used THEN its message comes back ephemeral and nothing is logged as an error', async () => {
    const errorsBefore = h.logs.at('error').length;
    const id = h.fake.pushCommand({ command: 'refuse', userId: PEOPLE.alice.id });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.messages[0]).toMatchObject({ ephemeral: true, content: 'That army is not yours; you command: Red Host.' });
    expect(h.logs.at('error').length).toBe(errorsBefore);
  });

  it('GIVEN a bug WHEN used THEN the user sees a reference, ephemeral, and the log has the error with the same reference', async () => {
    const id = h.fake.pushCommand({ command: 'boom', userId: PEOPLE.alice.id });
    const rec = await h.fake.waitForAnswer(id);
    const m = /^Something went wrong \(ref ([0-9a-f]{6})\)/.exec(rec.messages[0]!.content);
    expect(m).not.toBeNull();
    expect(rec.messages[0]!.ephemeral).toBe(true);
    const logged = h.logs.at('error').find((e) => e.obj.ref === m![1]);
    expect(logged?.obj.command).toBe('boom');
    expect(String((logged?.obj.err as { message: string }).message)).toContain('kaboom');
    expect(rec.messages[0]!.content).not.toContain('kaboom');
  });

  it('GIVEN a deferred command with a PNG WHEN used THEN it is deferred first and the edit carries the attachment', async () => {
    const id = h.fake.pushCommand({ command: 'picture', userId: PEOPLE.alice.id });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.callbacks[0]?.type).toBe(5);
    const msg = rec.messages[0]!;
    expect(msg.ephemeral).toBe(false);
    expect(msg.content).toBe('The map, day 1 morning.');
    expect(msg.files).toHaveLength(1);
    expect(msg.files[0]!.name).toBe('map-day1-morning.png');
    expect([...msg.files[0]!.data.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    const edit = h.fake.calls.find((c) => c.method === 'PATCH' && c.path.endsWith('/messages/@original') && c.path.includes(rec.token));
    expect(edit?.files).toHaveLength(1);
  });

  it('GIVEN a public deferral WHEN the command refuses THEN the refusal is still private', async () => {
    const id = h.fake.pushCommand({ command: 'public-refusal', userId: PEOPLE.bob.id });
    const rec = await h.fake.waitFor(() => {
      const r = h.fake.interaction(id);
      return r.messages.some((m) => m.content.startsWith('Only the referee')) ? r : undefined;
    });
    expect(rec.callbacks[0]?.type).toBe(5);
    const visible = rec.messages;
    expect(visible).toHaveLength(1);
    expect(visible[0]).toMatchObject({ ephemeral: true, content: 'Only the referee can advance the turn.' });
  });

  it('GIVEN a slow command without defer WHEN used THEN a safety deferral keeps the interaction alive and the public answer follows', async () => {
    const id = h.fake.pushCommand({ command: 'sluggish', userId: PEOPLE.alice.id });
    const rec = await h.fake.waitFor(() => {
      const r = h.fake.interaction(id);
      return r.messages.some((m) => !m.ephemeral) ? r : undefined;
    });
    expect(rec.callbacks[0]?.type).toBe(5);
    expect(rec.messages.filter((m) => !m.ephemeral).map((m) => m.content)).toEqual(['Finally, in public.']);
    expect(rec.messages.filter((m) => m.ephemeral).map((m) => m.content)).toEqual(['Done: posted in the channel.']);
  });

  it('GIVEN output over 2,000 characters WHEN answered THEN it is split into parts that all stay private', async () => {
    const id = h.fake.pushCommand({ command: 'long', userId: PEOPLE.alice.id });
    const rec = await h.fake.waitFor(() => {
      const r = h.fake.interaction(id);
      return r.messages.length >= 4 ? r : undefined;
    });
    expect(rec.messages.every((m) => m.ephemeral && m.content.length <= 2000)).toBe(true);
    const text = rec.messages.map((m) => m.content).join('\n');
    expect(text.split('\n')).toHaveLength(120);
    expect(text).toContain('Line 119: the Red Host');
  });

  it('GIVEN an attachment option WHEN used THEN the command reads the uploaded text', async () => {
    const id = h.fake.pushCommand({
      command: 'upload', userId: PEOPLE.referee.id,
      options: { file: { attachment: { name: 'scenario.json', content: '{"id":"custom"}', contentType: 'application/json' } } },
    });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.callbacks[0]?.type).toBe(5);
    expect(rec.messages[0]).toMatchObject({ ephemeral: true, content: 'read scenario.json: {"id":"custom"}' });
  });

  it('GIVEN autocomplete WHEN typing THEN at most 25 choices come back with names of at most 100 characters', async () => {
    const id = h.fake.pushAutocomplete({ command: 'echo', subcommand: 'options', userId: PEOPLE.bob.id, focused: 'army', options: { army: 'a' } });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.callbacks[0]?.type).toBe(8);
    const choices = rec.autocompleteChoices!;
    expect(choices).toHaveLength(25);
    expect(choices.every((c) => c.name.length >= 1 && c.name.length <= 100)).toBe(true);
    expect(choices[0]).toEqual({ name: `Army 0 for ${PEOPLE.bob.id}`, value: 'a0' });
    expect(choices[3]!.name.endsWith('…')).toBe(true);
  });

  it('GIVEN a command used in a DM WHEN answered THEN the context has no guild and the answer arrives', async () => {
    const dmChannel = (await h.bot.client.users.createDM(PEOPLE.bob.id)).id;
    const id = h.fake.pushCommand({ command: 'echo', subcommand: 'options', userId: PEOPLE.bob.id, channelId: dmChannel, options: { army: 'x' } });
    const rec = await h.fake.waitForAnswer(id);
    const seen = JSON.parse(rec.messages[0]!.content.replace(/^seen /, '')) as Record<string, unknown>;
    expect(seen).toMatchObject({ guild: '', channel: dmChannel, roles: [], name: 'Bob' });
  });

  it('GIVEN an interaction older than the answer window (Discord refuses the answer) WHEN handled THEN it is logged as expired, not as a bug', async () => {
    const errorsBefore = h.logs.at('error').length;
    const id = h.fake.pushCommand({ command: 'echo', subcommand: 'public', userId: PEOPLE.alice.id, ageMs: ANSWER_WINDOW_MS + 1000 });
    await h.fake.waitFor(() => h.fake.calls.find((c) => c.path.startsWith(`/interactions/${id}/`) && c.status === 404));
    await h.fake.waitFor(() => h.logs.at('warn').find((e) => e.msg === 'interaction expired before it was answered'));
    expect(h.logs.at('error').length).toBe(errorsBefore);
    expect(h.fake.interaction(id).messages).toEqual([]);
  });

  it('GIVEN everything logged so far THEN the token never appears', () => {
    expect(h.logs.text()).not.toContain(h.fake.token);
    expect(h.logs.text()).not.toContain('itoken-');
  });
});
