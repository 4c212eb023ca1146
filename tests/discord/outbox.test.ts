import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { enqueue, outboxByStatus } from '../../src/db/outboxRepo.js';
import type { Picture } from '../../src/app/messages.js';
import { PEOPLE, PNG_SIGNATURE, startHarness, type Harness } from './harness.js';
import { sqlValue } from '../support/sql.js';
import { decideButtons, pressed, testCommands } from './testCommands.js';

let h: Harness;
let campaignId: string;

let nonces = 0;
function queue(m: { to: 'dm' | 'channel'; userId?: string; channelId?: string; content: string; buttons?: { id: string; label: string; style?: string }[]; pictures?: Picture[] }): void {
  enqueue(h.app.db, { campaignId, nonce: `test${++nonces}`, ...m }, h.clock.now().toISOString());
}

/** A battlefield sketch with no cards: the smallest real picture the delivery draws. */
const EMPTY_SKETCH: Picture = { kind: 'sketch', name: 'intel.png', sketch: { title: 'Contact at 0913', cards: [] } };

function statusOf(content: string): string | undefined {
  return outboxByStatus(h.app.db, campaignId, ['pending', 'sent', 'dmClosed', 'failed']).find((r) => r.content === content)?.status;
}

beforeAll(async () => {
  // The stop's grace is 5 s here (1 s by default): long beside the 300 ms answer of the send in
  // flight that must finish within it, so a loaded machine cannot carry that answer past it, and
  // short beside the 10 s answer that must not (the last test).
  h = await startHarness({ commands: testCommands, buttons: [decideButtons], bot: { stopGraceMs: 5_000 } });
  const [first] = createCampaign(h.app, { userId: PEOPLE.referee.id, userName: 'Ref', guildId: h.fake.guildId, channelId: h.fake.channelId, roleIds: [] }, { name: 'Autumn War', scenario: 'valormr' });
  campaignId = (first!.data as { campaignId: string }).campaignId;
  await h.bot.deliverNow();
});

afterAll(async () => {
  await h?.stop();
  // Nothing the bot sent was malformed for Discord.
  expect(h.fake.refusals).toEqual([]);
});

describe('outbox delivery through the real discord.js client', () => {
  it('GIVEN a new campaign WHEN the outbox is delivered THEN its announcement is posted in the campaign channel', () => {
    const posts = h.fake.postsIn(h.fake.channelId);
    expect(posts.some((p) => p.content.includes('A new campaign begins here: **Autumn War**'))).toBe(true);
  });

  it('GIVEN a DM for one commander WHEN delivered THEN only that user receives it, with its file', async () => {
    queue({ to: 'dm', userId: PEOPLE.alice.id, content: 'Estimate: about 1,200 men at 0913.', pictures: [EMPTY_SKETCH] });
    await h.bot.deliverNow();
    const dms = h.fake.dmsTo(PEOPLE.alice.id);
    expect(dms.map((d) => d.content)).toEqual(['Estimate: about 1,200 men at 0913.']);
    expect([...dms[0]!.files[0]!.data.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(h.fake.dmsTo(PEOPLE.bob.id)).toEqual([]);
    expect(h.fake.messages.filter((m) => m.content.includes('1,200 men'))).toHaveLength(1);
    expect(statusOf('Estimate: about 1,200 men at 0913.')).toBe('sent');
  });

  it('GIVEN a DM with buttons WHEN the commander presses one THEN the button handler gets the press and answers privately', async () => {
    queue({ to: 'dm', userId: PEOPLE.bob.id, content: 'Contact at 1012: engage or evade?', buttons: [{ id: 'decide:c7:engage', label: 'Engage' }, { id: 'decide:c7:evade', label: 'Evade', style: 'danger' }] });
    await h.bot.deliverNow();
    const dm = h.fake.dmsTo(PEOPLE.bob.id).at(-1)!;
    const row = dm.components[0] as { type: number; components: { custom_id: string; label: string; style: number }[] };
    expect(row.type).toBe(1);
    expect(row.components.map((c) => [c.custom_id, c.label, c.style])).toEqual([['decide:c7:engage', 'Engage', 1], ['decide:c7:evade', 'Evade', 4]]);

    const id = h.fake.pushButton({ customId: 'decide:c7:evade', userId: PEOPLE.bob.id });
    const rec = await h.fake.waitForAnswer(id);
    expect(pressed.at(-1)).toEqual({ userId: PEOPLE.bob.id, customId: 'decide:c7:evade' });
    expect(rec.messages[0]).toMatchObject({ ephemeral: true, content: 'Decision recorded: evade.', channelId: dm.channelId });
  });

  it('GIVEN a button whose decision is refused WHEN pressed THEN the refusal comes back privately', async () => {
    queue({ to: 'dm', userId: PEOPLE.bob.id, content: 'Old contact.', buttons: [{ id: 'decide:c1:late', label: 'Too late' }] });
    await h.bot.deliverNow();
    const id = h.fake.pushButton({ customId: 'decide:c1:late', userId: PEOPLE.bob.id });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.messages[0]).toMatchObject({ ephemeral: true, content: 'This contact was already decided.' });
  });

  it('GIVEN a button no handler owns (an old message) WHEN pressed THEN the presser is told privately', async () => {
    queue({ to: 'dm', userId: PEOPLE.alice.id, content: 'From an older version.', buttons: [{ id: 'retired:x1', label: 'Old' }] });
    await h.bot.deliverNow();
    const id = h.fake.pushButton({ customId: 'retired:x1', userId: PEOPLE.alice.id });
    const rec = await h.fake.waitForAnswer(id);
    expect(rec.messages[0]).toMatchObject({ ephemeral: true, content: 'This button is no longer in use.' });
  });

  it('GIVEN closed DMs WHEN a DM is refused (50007) THEN it is kept as dmClosed, the channel is told without the content and the referee is told', async () => {
    h.fake.refuseDms(PEOPLE.cora.id);
    const secret = 'SECRET: the Blue army is at 1417 with 900 men.';
    queue({ to: 'dm', userId: PEOPLE.cora.id, content: secret });
    await h.bot.deliverNow();
    expect(statusOf(secret)).toBe('dmClosed');
    const refused = h.fake.calls.find((c) => c.status === 403);
    expect(refused?.path).toMatch(/^\/channels\/\d+\/messages$/);

    await h.bot.deliverNow(); // notices markFailed queued, if the first pass left any
    const notice = h.fake.postsIn(h.fake.channelId).find((p) => p.content.includes(`<@${PEOPLE.cora.id}>`));
    expect(notice?.content).toContain('/intel');
    expect(h.fake.messages.filter((m) => m.content.includes('1417'))).toEqual([]);
    expect(h.fake.dmsTo(PEOPLE.cora.id)).toEqual([]);
    expect(h.fake.dmsTo(PEOPLE.referee.id).some((d) => d.content.includes('could not be delivered'))).toBe(true);
    h.fake.refuseDms(PEOPLE.cora.id, false);
  });

  it('GIVEN a deleted channel WHEN a post is due THEN it is marked failed (permanent), not retried', async () => {
    queue({ to: 'channel', channelId: '999999999999999999', content: 'Post to a channel that is gone.' });
    await h.bot.deliverNow();
    expect(statusOf('Post to a channel that is gone.')).toBe('failed');
  });

  it('GIVEN Discord answering 500 WHEN a post is due THEN it is retried after the backoff and delivered once', async () => {
    h.fake.failRequests('POST', `/channels/${h.fake.channelId}/messages`, 500, 4, { message: 'Internal Server Error', code: 0 });
    queue({ to: 'channel', channelId: h.fake.channelId, content: 'The chronicle of day 2.' });
    await h.bot.deliverNow();
    expect(statusOf('The chronicle of day 2.')).toBe('pending');
    h.clock.advance(2_500);
    await h.bot.deliverNow();
    expect(statusOf('The chronicle of day 2.')).toBe('sent');
    expect(h.fake.postsIn(h.fake.channelId).filter((p) => p.content === 'The chronicle of day 2.')).toHaveLength(1);
  });

  it('GIVEN a long channel post WHEN delivered THEN it is split under 2,000 characters with the buttons on the last part', async () => {
    const content = Array.from({ length: 80 }, (_, i) => `Day ${i}: the armies rested in the rain near the ford of the river.`).join('\n');
    queue({ to: 'channel', channelId: h.fake.channelId, content, buttons: [{ id: 'decide:c9:ack', label: 'Acknowledge' }] });
    await h.bot.deliverNow();
    const parts = h.fake.postsIn(h.fake.channelId).filter((p) => p.content.includes('the armies rested'));
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.every((p) => p.content.length <= 2000)).toBe(true);
    expect(parts.at(-1)!.components).toHaveLength(1);
    expect(parts.slice(0, -1).every((p) => p.components.length === 0)).toBe(true);
    expect(parts.map((p) => p.content).join('\n')).toBe(content);
  });

  it('GIVEN sends in flight WHEN the bot is stopped THEN one answered within the grace finishes, one still waiting is abandoned and stays queued unchanged, and the stop does not wait for it', async () => {
    h.fake.delayRequests('POST', `/channels/${h.fake.channelId}/messages`, 300);
    h.fake.delayRequests('POST', `/channels/${h.fake.otherChannelId}/messages`, 10_000);
    queue({ to: 'channel', channelId: h.fake.channelId, content: 'Last words before the shutdown.' });
    queue({ to: 'channel', channelId: h.fake.otherChannelId, content: 'Words that never left.' });
    void h.bot.deliverNow();
    // Both sends in flight (claimed, or the quick one already sent) before the stop: waited for, not a fixed time.
    const inFlight = (content: string): boolean => sqlValue(h.app.db, 'select claimed_by from outbox_messages where content = ?', content) != null || statusOf(content) === 'sent';
    await h.fake.waitFor(() => inFlight('Last words before the shutdown.') && inFlight('Words that never left.'), undefined, 'both sends in flight');
    await h.bot.stop();
    // The stop did not wait for the slow answer: that message is still queued, never attempted.
    expect(statusOf('Last words before the shutdown.')).toBe('sent');
    const left = outboxByStatus(h.app.db, campaignId, ['pending']).find((r) => r.content === 'Words that never left.');
    expect(left).toMatchObject({ status: 'pending', attempts: 0 });
    expect(h.bot.client.isReady()).toBe(false);
  });
});
