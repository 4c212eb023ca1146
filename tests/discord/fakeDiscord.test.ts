/**
 * The fake Discord refuses what Discord refuses (so a passing transport test means Discord would
 * accept what the bot sends) and rate-limits the way Discord does. Requests are made with plain
 * fetch, as Discord's documentation describes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from './fakeDiscord.js';
import { PEOPLE } from './harness.js';

let fake: FakeDiscord;
let api: string;
let auth: Record<string, string>;

beforeAll(async () => {
  fake = await FakeDiscord.start({ users: Object.values(PEOPLE) });
  api = `${fake.restApi}/v10`;
  auth = { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' };
});

afterAll(async () => {
  await fake.close();
});

async function post(body: unknown, channelId = fake.channelId): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(`${api}/channels/${channelId}/messages`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown>, headers: res.headers };
}

const button = (id: string): Record<string, unknown> => ({ type: 2, style: 1, label: 'B', custom_id: id });
const row = (...ids: string[]): Record<string, unknown> => ({ type: 1, components: ids.map(button) });

describe('message bodies', () => {
  it.each([
    ['an empty message', {}, 50006],
    ['content over 2,000 characters', { content: 'x'.repeat(2001) }, 50035],
    ['six action rows', { content: 'x', components: Array.from({ length: 6 }, (_, i) => row(`r${i}`)) }, 50035],
    ['six buttons in a row', { content: 'x', components: [row('a', 'b', 'c', 'd', 'e', 'f')] }, 50035],
    ['a custom id over 100 characters', { content: 'x', components: [row('c'.repeat(101))] }, 50035],
    ['a custom id used twice', { content: 'x', components: [row('same', 'same')] }, 50035],
    ['an embed title over 256', { embeds: [{ title: 't'.repeat(257) }] }, 50035],
    ['an embed description over 4,096', { embeds: [{ description: 'd'.repeat(4097) }] }, 50035],
    ['26 embed fields', { embeds: [{ fields: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })) }] }, 50035],
    ['a field value over 1,024', { embeds: [{ fields: [{ name: 'n', value: 'v'.repeat(1025) }] }] }, 50035],
    ['embeds over 6,000 characters in all', { embeds: [{ description: 'd'.repeat(4000) }, { description: 'e'.repeat(2001) }] }, 50035],
    ['an attachment without its file part', { content: 'x', attachments: [{ id: '0', filename: 'map.png' }] }, 50035],
    ['allowed_mentions parsing users and listing users', { content: 'x', allowed_mentions: { parse: ['users'], users: [PEOPLE.bob.id] } }, 50035],
    ['allowed_mentions with an unknown parse type', { content: 'x', allowed_mentions: { parse: ['channels'] } }, 50035],
    ['a nonce over 25 characters', { content: 'x', nonce: 'n'.repeat(26) }, 50035],
  ])('GIVEN %s THEN 400', async (_what, body, code) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(code);
  });

  it('GIVEN a file part not listed in attachments THEN 400; listed THEN accepted', async () => {
    const send = async (attachments: unknown[]): Promise<number> => {
      const form = new FormData();
      form.append('payload_json', JSON.stringify({ content: 'map', attachments }));
      form.append('files[0]', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'map.png');
      return (await fetch(`${api}/channels/${fake.channelId}/messages`, { method: 'POST', headers: { authorization: auth.authorization! }, body: form })).status;
    };
    expect(await send([])).toBe(400);
    expect(await send([{ id: '0', filename: 'map.png' }])).toBe(200);
  });

  it('GIVEN a valid message with a nonce and enforce_nonce sent twice THEN one message exists and both answers are it', async () => {
    const a = await post({ content: 'Once only.', nonce: 'abc.0', enforce_nonce: true, allowed_mentions: { parse: [] } });
    const b = await post({ content: 'Once only.', nonce: 'abc.0', enforce_nonce: true, allowed_mentions: { parse: [] } });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.id).toBe(a.json.id);
    expect(fake.postsIn(fake.channelId).filter((m) => m.content === 'Once only.')).toHaveLength(1);
    const c = await post({ content: 'Once only.', nonce: 'abc.0' });
    expect(c.json.id).not.toBe(a.json.id);
  });

  it('GIVEN no allowed_mentions THEN every mention in the text pings, as on Discord; parse [] THEN none', async () => {
    const text = `<@${PEOPLE.bob.id}> and @everyone`;
    await post({ content: text });
    await post({ content: `${text}!`, allowed_mentions: { parse: [] } });
    expect(fake.postsIn(fake.channelId).find((m) => m.content === text)?.pinged).toEqual({ users: [PEOPLE.bob.id], roles: [], everyone: true });
    expect(fake.postsIn(fake.channelId).find((m) => m.content === `${text}!`)?.pinged).toEqual({ users: [], roles: [], everyone: false });
  });

  it('GIVEN the bot denied Send Messages in a channel THEN 403 Missing Permissions; denied View Channel THEN 403 Missing Access', async () => {
    fake.setBotChannelPermissions(fake.otherChannelId, ['SendMessages']);
    expect((await post({ content: 'x' }, fake.otherChannelId)).json.code).toBe(50013);
    fake.setBotChannelPermissions(fake.otherChannelId, ['ViewChannel']);
    expect((await post({ content: 'x' }, fake.otherChannelId)).json.code).toBe(50001);
    fake.setBotChannelPermissions(fake.otherChannelId, []);
  });
});

describe('rate limits', () => {
  it('GIVEN a route rate-limited THEN 429 with retry-after, x-ratelimit headers and the time left in the body', async () => {
    const channel = fake.addChannel(fake.guildId, 'limited');
    fake.rateLimit({ method: 'POST', pathPrefix: `/channels/${channel}/messages`, seconds: 30 });
    const r = await post({ content: 'x' }, channel);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBe(30);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(r.headers.get('x-ratelimit-scope')).toBe('user');
    expect(r.headers.get('x-ratelimit-bucket')).toBeTruthy();
    expect(Number(r.json.retry_after)).toBeGreaterThan(29);
    expect(r.json.global).toBe(false);
    expect((await post({ content: 'elsewhere' })).status).toBe(200);
  });

  it('GIVEN a global rate limit THEN every bot route gets 429 with x-ratelimit-global, interaction callbacks do not', async () => {
    const other = await FakeDiscord.start({ users: Object.values(PEOPLE) });
    try {
      other.rateLimit({ seconds: 2, global: true });
      const res = await fetch(`${other.restApi}/v10/channels/${other.channelId}/messages`, { method: 'POST', headers: { authorization: `Bot ${other.token}`, 'content-type': 'application/json' }, body: '{"content":"x"}' });
      expect(res.status).toBe(429);
      expect(res.headers.get('x-ratelimit-global')).toBe('true');
      expect(res.headers.get('x-ratelimit-scope')).toBe('global');
      const cb = await fetch(`${other.restApi}/v10/interactions/1/tok/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":4,"data":{"content":"x"}}' });
      expect(cb.status).toBe(404); // unknown interaction, but not rate limited
    } finally {
      await other.close();
    }
  });
});

describe('command registration', () => {
  const put = async (body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${api}/applications/${fake.appId}/commands`, { method: 'PUT', headers: auth, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const cmd = (extra: Record<string, unknown>): Record<string, unknown> => ({ type: 1, name: 'move', description: 'Move.', ...extra });

  it.each([
    ['an uppercase name', cmd({ name: 'Move' })],
    ['an empty description', cmd({ description: '' })],
    ['a description over 100', cmd({ description: 'd'.repeat(101) })],
    ['a required option after an optional one', cmd({ options: [{ type: 3, name: 'a', description: 'A' }, { type: 3, name: 'b', description: 'B', required: true }] })],
    ['26 options', cmd({ options: Array.from({ length: 26 }, (_, i) => ({ type: 3, name: `o${i}`, description: 'O' })) })],
    ['26 choices', cmd({ options: [{ type: 3, name: 'a', description: 'A', choices: Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `c${i}` })) }] })],
    ['choices with autocomplete', cmd({ options: [{ type: 3, name: 'a', description: 'A', autocomplete: true, choices: [{ name: 'x', value: 'x' }] }] })],
    ['subcommands beside options', cmd({ options: [{ type: 1, name: 's', description: 'S' }, { type: 3, name: 'a', description: 'A' }] })],
    ['over 4,000 characters', cmd({ options: Array.from({ length: 25 }, (_, i) => ({ type: 3, name: `o${i}`, description: 'd'.repeat(100), choices: Array.from({ length: 2 }, (__, j) => ({ name: 'n'.repeat(90), value: `v${j}` })) })) })],
    ['an unknown context', cmd({ contexts: [7] })],
    ['two commands of one name', [cmd({}), cmd({})]],
  ])('GIVEN %s THEN the PUT is refused', async (_what, body) => {
    const r = await put(Array.isArray(body) ? body : [body]);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(50035);
  });

  it('GIVEN a valid command with contexts THEN accepted, and Discord only offers it where its contexts allow', async () => {
    expect((await put([cmd({ contexts: [0], integration_types: [0] })])).status).toBe(200);
    expect(() => fake.pushCommand({ command: 'move', userId: PEOPLE.alice.id, channelId: fake.dmChannelOf(PEOPLE.alice.id) })).toThrow(/not offered in a DM/);
  });
});

describe('interaction callbacks', () => {
  it('GIVEN an autocomplete interaction WHEN answered with a message (type 4) THEN 400: only type 8 is valid', async () => {
    await fetch(`${api}/applications/${fake.appId}/commands`, { method: 'PUT', headers: auth, body: JSON.stringify([{ type: 1, name: 'pick', description: 'Pick.', options: [{ type: 3, name: 'x', description: 'X', autocomplete: true }] }]) });
    // No gateway here: record the interaction without dispatching it.
    const rec = { id: '1', token: 'tok-auto', type: 4, channelId: fake.channelId, userId: PEOPLE.alice.id, pushedAt: Date.now(), callbacks: [], deferredEphemeral: undefined, originalDone: false, messages: [], autocompleteChoices: undefined };
    fake.interactions.set('1', rec);
    const send = (type: number, data: unknown): Promise<Response> => fetch(`${api}/interactions/1/tok-auto/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type, data }) });
    expect((await send(4, { content: 'hi' })).status).toBe(400);
    expect((await send(8, { choices: [{ name: 'x', value: 'x' }] })).status).toBe(204);
  });
});
