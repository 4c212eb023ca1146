/**
 * The game's commands over the fake Discord, for what must never go wrong in a server: names from
 * uploads pinging people, campaigns started where the bot cannot post, commands offered where
 * they cannot work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { tinyScenario } from '../process/tinyScenario.js';
import { PEOPLE, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ commands, buttons });
});

afterAll(async () => {
  await h?.stop();
  expect(h.fake.refusals).toEqual([]);
});

async function run(args: Parameters<Harness['fake']['pushCommand']>[0], count = 1): Promise<{ content: string; ephemeral: boolean }[]> {
  const id = h.fake.pushCommand(args);
  return (await h.fake.waitForAnswer(id, count)).messages;
}

describe('mentions only where meant', () => {
  it('GIVEN a campaign named with <@id> and @everyone WHEN the campaign is created, started and played THEN nobody is pinged by any message, checked on the wire; a scenario naming an army so is refused', async () => {
    const channel = h.fake.addChannel(h.fake.guildId, 'ping-test');
    // Army and commander names are refused with mention or markdown characters (isPlainName); the campaign's name is escaped where written.
    const loud = tinyScenario(`<@${PEOPLE.bob.id}> @everyone Host`, `<@${PEOPLE.cora.id}> the Loud`);
    const [refused] = await run({ command: 'campaign', subcommand: 'create', userId: PEOPLE.referee.id, channelId: channel, options: { name: 'Loud War', file: { attachment: { name: 'ping.json', content: loud, contentType: 'application/json' } } } });
    expect(refused!.content).toContain('formatting or a mention');
    const scenario = tinyScenario();
    const name = `<@${PEOPLE.alice.id}> @everyone War`;
    await run({ command: 'campaign', subcommand: 'create', userId: PEOPLE.referee.id, channelId: channel, options: { name, file: { attachment: { name: 'ping.json', content: scenario, contentType: 'application/json' } } } }, 2);
    await run({ command: 'campaign', subcommand: 'assign', userId: PEOPLE.referee.id, channelId: channel, options: { army: 'red', user: PEOPLE.alice.id } });
    await run({ command: 'campaign', subcommand: 'start', userId: PEOPLE.referee.id, channelId: channel });
    for (let i = 0; i < 2; i++) await run({ command: 'turn', subcommand: 'advance', userId: PEOPLE.referee.id, channelId: channel });
    await run({ command: 'campaign', subcommand: 'status', userId: PEOPLE.alice.id, channelId: channel });
    await h.bot.deliverNow();
    const mentioning = h.fake.messages.filter((m) => m.content.includes(`@${PEOPLE.alice.id}>`) || m.content.includes('@everyone'));
    expect(mentioning.length).toBeGreaterThan(3);
    expect(mentioning.some((m) => m.kind === 'channel')).toBe(true);
    expect(mentioning.some((m) => m.kind === 'interaction')).toBe(true);
    for (const m of h.fake.messages) expect(m.pinged, `${m.kind}: ${m.content.slice(0, 80)}`).toEqual({ users: [], roles: [], everyone: false });
  }, 300_000);
});

describe('the bot\'s permissions in the campaign channel', () => {
  it('GIVEN the bot lacks Attach Files in a channel WHEN /campaign create there THEN it is refused naming Attach Files, and nothing is created', async () => {
    const channel = h.fake.addChannel(h.fake.guildId, 'no-files');
    h.fake.setBotChannelPermissions(channel, ['AttachFiles']);
    const [m] = await run({ command: 'campaign', subcommand: 'create', userId: PEOPLE.referee.id, channelId: channel, options: { name: 'Dry War', scenario: 'valormr' } });
    expect(m!.ephemeral).toBe(true);
    expect(m!.content).toContain('**Attach Files**');
    expect(m!.content).toContain('/campaign create');
    const [status] = await run({ command: 'campaign', subcommand: 'status', userId: PEOPLE.referee.id, channelId: channel });
    expect(status!.content).toContain('There is no campaign in this channel');
  });

  it('GIVEN the bot lost View Channel and Send Messages after the campaign was created WHEN /campaign start THEN both are named', async () => {
    const channel = h.fake.addChannel(h.fake.guildId, 'closed-later');
    await run({ command: 'campaign', subcommand: 'create', userId: PEOPLE.referee.id, channelId: channel, options: { name: 'Late War', scenario: 'valormr' } }, 2);
    h.fake.setBotChannelPermissions(channel, ['ViewChannel', 'SendMessages']);
    const [m] = await run({ command: 'campaign', subcommand: 'start', userId: PEOPLE.referee.id, channelId: channel });
    expect(m!.content).toMatch(/\*\*View Channel\*\*, \*\*Send Messages\*\*/);
    h.fake.setBotChannelPermissions(channel, []);
    const [ok] = await run({ command: 'campaign', subcommand: 'start', userId: PEOPLE.referee.id, channelId: channel });
    expect(ok!.content).toContain('The campaign has started.');
  });

  it('GIVEN a thread where the bot may not post WHEN /campaign create there THEN Send Messages in Threads is named', async () => {
    const parent = h.fake.addChannel(h.fake.guildId, 'forum-ish');
    const thread = h.fake.addChannel(h.fake.guildId, 'war-thread', { thread: { parentId: parent } });
    h.fake.setBotChannelPermissions(parent, ['SendMessagesInThreads']);
    await h.fake.waitFor(() => h.bot.client.channels.cache.has(thread), 60_000, 'the thread in the cache');
    const [m] = await run({ command: 'campaign', subcommand: 'create', userId: PEOPLE.referee.id, channelId: thread, options: { name: 'Thread War', scenario: 'valormr' } });
    expect(m!.content).toContain('**Send Messages in Threads**');
    expect(m!.content).not.toContain('**Send Messages**,');
  });
});

describe('where commands are offered', () => {
  it('GIVEN the registered commands THEN every campaign command is offered in servers only; /help and /rules also in the bot\'s DM', () => {
    const offered = Object.fromEntries(commands.map((c) => [c.data.name, c.data.toJSON().contexts]));
    for (const [name, contexts] of Object.entries(offered)) expect(contexts, `/${name}`).toEqual(name === 'help' || name === 'rules' ? [0, 1] : [0]);
    expect(commands.every((c) => JSON.stringify(c.data.toJSON().integration_types) === '[0]')).toBe(true);
  });

  it('GIVEN the bot\'s DM WHEN a player opens /intel there THEN Discord does not offer it; /help is answered there', async () => {
    const dm = h.fake.dmChannelOf(PEOPLE.alice.id);
    expect(() => h.fake.pushCommand({ command: 'intel', userId: PEOPLE.alice.id, channelId: dm })).toThrow(/not offered in a DM/);
    const [m] = await run({ command: 'help', userId: PEOPLE.alice.id, channelId: dm });
    expect(m!.ephemeral).toBe(true);
    expect(m!.content).toContain('/intel');
  });
});
