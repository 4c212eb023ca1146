/**
 * Delivery lanes against the fake Discord: a DM the server holds for 20 s (longer than the REST
 * timeout) delays only its own destination. The proof is the order of events, not a stopwatch:
 * everything else queued meanwhile was created by Discord while the held send was still waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { enqueue, outboxByStatus } from '../../src/db/outboxRepo.js';
import { PEOPLE, startHarness, type Harness } from './harness.js';
import { testCommands } from './testCommands.js';
import { rawSqlite } from '../../src/db/client.js';

let h: Harness;
let campaignId: string;
let nonces = 0;

function queue(m: { to: 'dm' | 'channel'; userId?: string; channelId?: string; content: string }): void {
  enqueue(h.app.db, { campaignId, nonce: `lane${++nonces}`, ...m }, h.clock.now().toISOString());
  // As a command or a tick does once its transaction is committed.
  h.bot.deliverSoon();
}

const statusOf = (content: string): string | undefined =>
  outboxByStatus(h.app.db, campaignId, ['pending', 'sent', 'dmClosed', 'failed']).find((r) => r.content === content)?.status;

beforeAll(async () => {
  // The bot's own REST timeout (15 s), and its poll slowed to a minute: only the kicks deliver.
  h = await startHarness({ commands: testCommands, bot: { stopGraceMs: 200 } });
  const [first] = createCampaign(h.app, { userId: PEOPLE.referee.id, userName: 'Ref', guildId: h.fake.guildId, channelId: h.fake.channelId, roleIds: [] }, { name: 'Lanes', scenario: 'valormr' });
  campaignId = (first!.data as { campaignId: string }).campaignId;
  await h.bot.deliverNow();
});

afterAll(async () => {
  await h?.stop();
});

describe('a slow destination delays only itself', () => {
  it('GIVEN a DM held 20 s by Discord WHEN other users and channels get messages meanwhile THEN each is created while the held DM still waits, and the held user\'s next DM waits behind it', async () => {
    const aliceDm = h.fake.dmChannelOf(PEOPLE.alice.id);
    h.fake.delayRequests('POST', `/channels/${aliceDm}/messages`, 20_000, 10);
    queue({ to: 'dm', userId: PEOPLE.alice.id, content: 'Alice: your estimate (held by Discord).' });
    // Claimed and on its way (the fake records a call only once it has answered).
    await waitUntil(() => rawSqlite(h.app.db).prepare("select claimed_by from outbox_messages where content like 'Alice: your estimate%'").pluck().get() !== null);

    const others = [
      { to: 'dm' as const, userId: PEOPLE.bob.id, content: 'Bob: your scouts report dust on the road.' },
      { to: 'channel' as const, channelId: h.fake.channelId, content: 'Chronicle: the armies marched at dawn.' },
      { to: 'dm' as const, userId: PEOPLE.cora.id, content: 'Cora: a courier arrived.' },
      { to: 'dm' as const, userId: PEOPLE.referee.id, content: 'Referee: a contact waits for a decision.' },
    ];
    for (const m of others) {
      queue(m);
      await waitUntil(() => h.fake.messages.some((x) => x.content === m.content));
    }
    queue({ to: 'dm', userId: PEOPLE.alice.id, content: 'Alice: a second message, in order behind the first.' });
    queue({ to: 'channel', channelId: h.fake.channelId, content: 'Chronicle: rain in the evening.' });
    await waitUntil(() => h.fake.messages.some((x) => x.content === 'Chronicle: rain in the evening.'));

    // Every other destination's messages were created by Discord; Alice's first is still held.
    for (const m of others) expect(statusOf(m.content)).toBe('sent');
    expect(h.fake.messages.some((x) => x.content.startsWith('Alice:'))).toBe(false);
    expect(statusOf('Alice: your estimate (held by Discord).')).toBe('pending');
    // Discord has not answered the held send yet.
    expect(h.fake.calls.some((c) => c.path === `/channels/${aliceDm}/messages`)).toBe(false);
    // One in flight per lane: Alice's second message waits behind her first.
    expect(statusOf('Alice: a second message, in order behind the first.')).toBe('pending');
  }, 30_000);
});

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}
