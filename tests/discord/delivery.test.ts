/**
 * Outbox delivery against the stricter fake Discord: idempotent sends (nonce with enforce_nonce),
 * parts of a split message, rate limits off the queue, concurrency, shutdown, mentions on the wire
 * and missing permissions; and an interaction acknowledged late (the same REST timeout, on the
 * interaction callback: discord.js sends it again and Discord answers "already acknowledged").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { resumeCampaign, startCampaign } from '../../src/app/campaign/lifecycle.js';
import { refereeInbox } from '../../src/app/referee/inbox.js';
import type { Picture } from '../../src/app/messages.js';
import { enqueue, outboxByStatus } from '../../src/db/outboxRepo.js';
import { PEOPLE, startHarness, type Harness } from './harness.js';
import { testCommands } from './testCommands.js';

let h: Harness;
let campaignId: string;
let nonces = 0;

const referee = (): { userId: string; userName: string; guildId: string; channelId: string; roleIds: string[] } => ({ userId: PEOPLE.referee.id, userName: 'Ref', guildId: h.fake.guildId, channelId: h.fake.channelId, roleIds: [] });

function queue(m: { to: 'dm' | 'channel'; userId?: string; channelId?: string; content: string; mentions?: string[]; pictures?: Picture[] }): void {
  enqueue(h.app.db, { campaignId, nonce: `n${Date.now().toString(16)}${++nonces}`, ...m }, h.clock.now().toISOString());
}

function row(content: string) {
  return outboxByStatus(h.app.db, campaignId, ['pending', 'sent', 'dmClosed', 'failed']).find((r) => r.content === content);
}

const EMPTY_SKETCH: Picture = { kind: 'sketch', name: 'intel.png', sketch: { title: 'Contact at 0913', cards: [] } };

beforeAll(async () => {
  // A short REST timeout so "the answer never came" is quick to play.
  h = await startHarness({ commands: testCommands, bot: { restTimeoutMs: 250, stopGraceMs: 1000 } });
  const [first] = createCampaign(h.app, referee(), { name: 'Spring War', scenario: 'valormr' });
  campaignId = (first!.data as { campaignId: string }).campaignId;
  startCampaign(h.app, referee());
  await h.bot.deliverNow();
});

afterAll(async () => {
  await h?.stop();
});

describe('idempotent sends', () => {
  it('GIVEN Discord answers 500 after creating the message (every retry of discord.js too) WHEN the outbox retries THEN the chronicle is posted once', async () => {
    const content = 'Chronicle: the Red Host crossed the ford at dawn.';
    h.fake.failWhen({ method: 'POST', pathPrefix: `/channels/${h.fake.channelId}/messages`, body: (b) => b.content === content, status: 500, times: 4, afterCreate: true });
    queue({ to: 'channel', channelId: h.fake.channelId, content });
    await h.bot.deliverNow();
    expect(row(content)?.status).toBe('pending');
    expect(h.fake.postsIn(h.fake.channelId).filter((p) => p.content === content)).toHaveLength(1);
    h.clock.advance(2_500);
    await h.bot.deliverNow();
    expect(row(content)?.status).toBe('sent');
    const posts = h.fake.calls.filter((c) => c.method === 'POST' && (c.body as { content?: string })?.content === content);
    // Four answered 500 and one created it; on a loaded machine the 250 ms REST timeout can abort one
    // more attempt, which the nonce turns into the same message: so at least five, never a second post.
    expect(posts.length).toBeGreaterThanOrEqual(5);
    expect(new Set(posts.map((c) => (c.body as { nonce: string }).nonce)).size).toBe(1);
    expect(posts.every((c) => (c.body as { enforce_nonce?: boolean }).enforce_nonce === true)).toBe(true);
    expect(h.fake.postsIn(h.fake.channelId).filter((p) => p.content === content)).toHaveLength(1);
  });

  it('GIVEN the answer never comes (REST timeout) after the message was created WHEN the outbox retries THEN it is posted once', async () => {
    const content = 'Chronicle: rain over the marshes.';
    h.fake.failWhen({ method: 'POST', pathPrefix: `/channels/${h.fake.channelId}/messages`, body: (b) => b.content === content, times: 4, delayMs: 600, afterCreate: true });
    queue({ to: 'channel', channelId: h.fake.channelId, content });
    await h.bot.deliverNow();
    expect(row(content)?.status).toBe('pending');
    h.clock.advance(2_500);
    await h.bot.deliverNow();
    expect(row(content)?.status).toBe('sent');
    expect(h.fake.postsIn(h.fake.channelId).filter((p) => p.content === content)).toHaveLength(1);
    // The signature the three-machine test met (pgMachines.test.ts): one nonce POSTed more than once,
    // every POST answered 200, one Discord message, no process killed. Each repeat follows a POST
    // whose answer came after its sender had given it up (the REST timeout): the fake records
    // those as `abandoned`, and the last, answered in time, as not.
    const posts = h.fake.calls.filter((c) => c.method === 'POST' && (c.body as { content?: string })?.content === content);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(posts.map((c) => (c.body as { nonce: string }).nonce)).size).toBe(1);
    expect(posts.every((c) => c.status === 200)).toBe(true);
    expect(posts.slice(0, -1).every((c) => c.abandoned)).toBe(true);
    expect(posts.at(-1)?.abandoned).toBe(false);
  });

  it('GIVEN a split message whose second part fails WHEN retried THEN only the rest is sent: each part once, in order', async () => {
    const content = Array.from({ length: 90 }, (_, i) => `Day ${i}: the armies rested in the rain near the ford of the long river.`).join('\n');
    h.fake.failWhen({ method: 'POST', pathPrefix: `/channels/${h.fake.channelId}/messages`, body: (b) => String(b.nonce).endsWith('.1') && String(b.content).includes('the armies rested'), status: 500, times: 4 });
    queue({ to: 'channel', channelId: h.fake.channelId, content });
    await h.bot.deliverNow();
    expect(row(content)).toMatchObject({ status: 'pending', partsSent: 1 });
    h.clock.advance(2_500);
    await h.bot.deliverNow();
    expect(row(content)?.status).toBe('sent');
    const parts = h.fake.postsIn(h.fake.channelId).filter((p) => p.content.includes('the armies rested'));
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.map((p) => p.content).join('\n')).toBe(content);
    expect(parts.map((p) => p.nonce?.split('.')[1])).toEqual(parts.map((_, i) => String(i)));
    const firstPartPosts = h.fake.calls.filter((c) => c.method === 'POST' && String((c.body as { nonce?: string })?.nonce).endsWith('.0') && String((c.body as { content?: string }).content).includes('the armies rested'));
    expect(firstPartPosts).toHaveLength(1);
  });
});

describe('an interaction acknowledged late (its answer after the REST timeout)', () => {
  // Discord takes the callback at once but answers 600 ms later, past the bot's 250 ms REST timeout:
  // discord.js gives the request up and sends it again, and Discord refuses the repeat with 40060
  // "Interaction has already been acknowledged" (the fake, like Discord, takes one callback).
  const lateCallback = (id: string): void => h.fake.failWhen({ method: 'POST', pathPrefix: `/interactions/${id}/`, times: 1, delayMs: 600, afterCreate: true });
  const callbackPosts = (id: string) => h.fake.calls.filter((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${id}/`));
  const said = (id: string): string[] => h.fake.interaction(id).messages.map((m) => `${m.ephemeral ? 'private' : 'public'}: ${m.content}`);

  it('GIVEN a reply whose acknowledgement comes late WHEN discord.js sends it again and Discord refuses the repeat THEN the answer stands once, nothing is logged as an error and nobody is told "Something went wrong"', async () => {
    const errors = h.logs.at('error').length;
    const id = h.fake.pushCommand({ command: 'echo', subcommand: 'public', userId: PEOPLE.alice.id });
    lateCallback(id);
    await h.fake.waitFor(() => h.logs.entries.find((e) => e.obj.userId === PEOPLE.alice.id && e.msg?.startsWith('reply already acknowledged')), undefined, 'the late reply noted');
    // The repeat happened and was refused; the reply of the first try is what the user sees, written
    // again into @original (idempotent) before the router moved on.
    // The first POST is recorded once its late answer has gone.
    await h.fake.waitFor(() => callbackPosts(id).length >= 2 || undefined, undefined, 'both callback POSTs recorded');
    expect(callbackPosts(id).map((c) => c.status).sort()).toEqual([204, 400]);
    await h.fake.waitFor(() => h.fake.calls.find((c) => c.method === 'PATCH' && c.path.includes(h.fake.interaction(id).token) && c.path.endsWith('/messages/@original')), undefined, 'the edit of @original');
    expect(said(id)).toEqual(['public: Hello everyone, from Alice.']);
    expect(h.logs.at('error').slice(errors)).toEqual([]);
    expect(h.logs.entries.filter((e) => e.level === 'warn' && e.obj.userId === PEOPLE.alice.id && e.obj.command === 'echo')).toEqual([]);
  });

  it('GIVEN a safety deferral whose acknowledgement comes late WHEN the slow command ends THEN its public answer follows the deferral, as when the deferral is answered in time', async () => {
    const errors = h.logs.at('error').length;
    const id = h.fake.pushCommand({ command: 'sluggish', userId: PEOPLE.bob.id });
    lateCallback(id);
    await h.fake.waitFor(() => (h.fake.interaction(id).messages.some((m) => !m.ephemeral) ? true : undefined), undefined, 'the public answer');
    // The first POST is recorded once its late answer has gone.
    await h.fake.waitFor(() => callbackPosts(id).length >= 2 || undefined, undefined, 'both callback POSTs recorded');
    expect(callbackPosts(id).map((c) => c.status).sort()).toEqual([204, 400]);
    expect(h.fake.interaction(id).callbacks.map((c) => c.type)).toEqual([5]);
    expect(said(id).sort()).toEqual(['private: Done: posted in the channel.', 'public: Finally, in public.']);
    expect(h.logs.entries.find((e) => e.obj.userId === PEOPLE.bob.id && e.level === 'info')?.msg).toMatch(/^deferral already acknowledged/);
    expect(h.logs.at('error').slice(errors)).toEqual([]);
  });
});

describe('an interaction acknowledgement lost on the way (the connection closed with no answer)', () => {
  // Discord took it, but the connection closed before its answer ("other side closed"): discord.js
  // does not retry a POST for that, so the bot cannot know whether it was taken.
  const dropped = (id: string): void => h.fake.failWhen({ method: 'POST', pathPrefix: `/interactions/${id}/`, times: 1, afterCreate: true, drop: true });

  it('GIVEN a declared deferral lost on the way WHEN the command is used THEN it is tried again, meets "already acknowledged", the command runs and its answer fills the deferral; nobody is told "Something went wrong"', async () => {
    const errors = h.logs.at('error').length;
    const id = h.fake.pushCommand({ command: 'picture', userId: PEOPLE.cora.id });
    dropped(id);
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.callbacks.map((c) => c.type)).toEqual([5]);
    expect(rec.messages.map((m) => `${m.ephemeral ? 'private' : 'public'}: ${m.content}`)).toEqual(['public: The map, day 1 morning.']);
    expect(rec.messages[0]!.files).toHaveLength(1);
    expect(h.logs.entries.filter((e) => e.obj.userId === PEOPLE.cora.id && e.level === 'info').map((e) => e.msg?.split(' (')[0])).toEqual(['deferral lost on the way', 'deferral already acknowledged']);
    expect(h.logs.at('error').slice(errors)).toEqual([]);
  });
});

describe('rate limits off the queue', () => {
  it('GIVEN a DM channel rate-limited (429, retry-after) WHEN messages are due THEN that one waits for retry_after and the others go out in the same run', async () => {
    const aliceDm = h.fake.dmChannelOf(PEOPLE.alice.id);
    h.fake.rateLimit({ method: 'POST', pathPrefix: `/channels/${aliceDm}/messages`, seconds: 1 });
    queue({ to: 'dm', userId: PEOPLE.alice.id, content: 'Reminder: orders are due at 18:00.' });
    queue({ to: 'dm', userId: PEOPLE.bob.id, content: 'Bob: your scouts report nothing.' });
    queue({ to: 'channel', channelId: h.fake.channelId, content: 'Chronicle: a quiet night.' });
    await h.bot.deliverNow();
    // The run did not wait out the limit: the limited DM is still pending, tried once.
    expect(row('Bob: your scouts report nothing.')?.status).toBe('sent');
    expect(row('Chronicle: a quiet night.')?.status).toBe('sent');
    const waiting = row('Reminder: orders are due at 18:00.');
    expect(waiting?.status).toBe('pending');
    expect(waiting?.attempts).toBe(1);
    expect(h.logs.entries.some((e) => e.msg?.includes('rate limited') && e.obj.retryAfterMs !== undefined)).toBe(true);
    expect(h.fake.calls.some((c) => c.status === 429)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    h.clock.advance(1_100);
    await h.bot.deliverNow();
    expect(row('Reminder: orders are due at 18:00.')?.status).toBe('sent');
    expect(h.fake.dmsTo(PEOPLE.alice.id).filter((d) => d.content.startsWith('Reminder'))).toHaveLength(1);
  });
});

describe('mentions only where meant, checked on the wire', () => {
  it('GIVEN a post whose text holds <@id>, a role and @everyone WHEN delivered THEN nobody is pinged', async () => {
    const content = `Chronicle: **<@${PEOPLE.bob.id}>'s Host** and <@&${h.fake.refereeRoleId}> met @everyone @here.`;
    queue({ to: 'channel', channelId: h.fake.channelId, content });
    await h.bot.deliverNow();
    const post = h.fake.postsIn(h.fake.channelId).find((p) => p.content === content)!;
    expect(post.allowedMentions).toEqual({ parse: [] });
    expect(post.pinged).toEqual({ users: [], roles: [], everyone: false });
  });

  it('GIVEN a notice meant for one user WHEN delivered THEN exactly that user is pinged', async () => {
    const content = `<@${PEOPLE.cora.id}>, I could not send you a direct message. (<@${PEOPLE.bob.id}> is not pinged.)`;
    queue({ to: 'channel', channelId: h.fake.channelId, content, mentions: [PEOPLE.cora.id] });
    await h.bot.deliverNow();
    const post = h.fake.postsIn(h.fake.channelId).find((p) => p.content === content)!;
    expect(post.pinged.users).toEqual([PEOPLE.cora.id]);
    expect(post.pinged.everyone).toBe(false);
  });
});

describe('missing permissions', () => {
  it('GIVEN Attach Files denied in the campaign channel WHEN the map is due THEN the campaign pauses and the referee is told that permission by name, not that the bot cannot post', async () => {
    h.fake.setBotChannelPermissions(h.fake.channelId, ['AttachFiles']);
    await h.fake.waitFor(() => {
      const channel = h.bot.client.channels.cache.get(h.fake.channelId);
      return channel && 'permissionOverwrites' in channel && channel.permissionOverwrites.cache.size > 0;
    }, 2000, 'the overwrite in the cache');
    queue({ to: 'channel', channelId: h.fake.channelId, content: 'The map after day 3.', pictures: [EMPTY_SKETCH] });
    await h.bot.deliverNow();
    await h.bot.deliverNow();
    expect(row('The map after day 3.')?.status).toBe('failed');
    const notice = h.fake.dmsTo(PEOPLE.referee.id).map((d) => d.content).find((c) => c.includes('is paused'));
    expect(notice).toContain('**Attach Files**');
    expect(notice).not.toMatch(/cannot post/);
    // Where to look and what to do next.
    expect(notice).toContain('`/campaign resume`');
    expect(notice).toContain('`/referee inbox`');
    const inbox = JSON.stringify(refereeInbox(h.app, referee()));
    expect(inbox).toContain('held by the channel: missing permission Attach Files');
    h.fake.setBotChannelPermissions(h.fake.channelId, []);
  });

  it('GIVEN the map held by that fault and the permission given back WHEN the referee resumes THEN the map is posted once, and the inbox no longer lists it', async () => {
    await h.fake.waitFor(() => {
      const channel = h.bot.client.channels.cache.get(h.fake.channelId);
      return channel && 'permissionOverwrites' in channel && channel.permissionOverwrites.cache.size === 0;
    }, 2000, 'the overwrite gone from the cache');
    const before = h.fake.postsIn(h.fake.channelId).filter((p) => p.content.includes('The map after day 3.')).length;
    expect(before).toBe(0);
    const [answer] = resumeCampaign(h.app, referee());
    expect(answer!.content).toContain('The post the channel\'s fault held is sent again.');
    await h.bot.deliverNow();
    const posts = h.fake.postsIn(h.fake.channelId).filter((p) => p.content.includes('The map after day 3.'));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.files.length).toBe(1);
    expect(JSON.stringify(refereeInbox(h.app, referee()))).not.toContain('The map after day 3.');
  });

  it('GIVEN Attach Files denied by an update the bot missed (stale cache) WHEN the map is refused THEN the live permissions name Attach Files', async () => {
    h.fake.setBotChannelPermissions(h.fake.channelId, ['AttachFiles'], { silent: true });
    const cached = h.bot.client.channels.cache.get(h.fake.channelId);
    expect(cached && 'permissionOverwrites' in cached ? cached.permissionOverwrites.cache.size : -1).toBe(0);
    queue({ to: 'channel', channelId: h.fake.channelId, content: 'The map after day 4.', pictures: [EMPTY_SKETCH] });
    await h.bot.deliverNow();
    await h.bot.deliverNow();
    expect(row('The map after day 4.')?.status).toBe('failed');
    expect(JSON.stringify(refereeInbox(h.app, referee()))).toContain('held by the channel: missing permission Attach Files');
    const notice = h.fake.dmsTo(PEOPLE.referee.id).map((d) => d.content).filter((c) => c.includes('is paused')).at(-1);
    expect(notice).toContain('**Attach Files**');
    h.fake.setBotChannelPermissions(h.fake.channelId, []);
    resumeCampaign(h.app, referee());
    await h.bot.deliverNow();
    expect(h.fake.postsIn(h.fake.channelId).filter((p) => p.content.includes('The map after day 4.'))).toHaveLength(1);
  });

  it('GIVEN a 50013 that the live permissions do not explain WHEN the post is refused THEN the notice says which permissions the bot holds, not that it cannot post', async () => {
    const content = 'Chronicle of day 5.';
    h.fake.failWhen({ method: 'POST', pathPrefix: `/channels/${h.fake.channelId}/messages`, body: (b) => b.content === content, status: 403, times: 1, answer: { message: 'Missing Permissions', code: 50013 } });
    const notices = h.fake.dmsTo(PEOPLE.referee.id).filter((d) => d.content.includes('is paused')).length;
    queue({ to: 'channel', channelId: h.fake.channelId, content });
    await h.bot.deliverNow();
    await h.bot.deliverNow();
    const notice = h.fake.dmsTo(PEOPLE.referee.id).map((d) => d.content).filter((c) => c.includes('is paused'));
    expect(notice).toHaveLength(notices + 1);
    expect(notice.at(-1)).toContain('the permissions I hold there read complete (View Channel, Send Messages)');
    expect(notice.at(-1)).not.toMatch(/cannot post|I lack/);
    resumeCampaign(h.app, referee());
    await h.bot.deliverNow();
    expect(h.fake.postsIn(h.fake.channelId).filter((p) => p.content === content)).toHaveLength(1);
  });
});
