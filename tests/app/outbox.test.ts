import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/app.js';
import { runDelivery, type OutboxItem } from '../../src/app/outbox.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';
import { sqlRows } from '../support/sql.js';

let h: Harness | undefined;
afterEach(() => h?.close());

const CREATE = '@referee /campaign create scenario:valormr name:"Autumn War"';

/** What a delivery run would find due now (read only: nothing is claimed). */
const dueNow = (app: App): string[] =>
  sqlRows(app.db, "select content from outbox_messages where status = 'pending' and next_attempt_at <= ? order by id", app.clock.now().toISOString()).map((r) => r[0] as string);

describe('outbox: delivery after commit, with retry', () => {
  it('GIVEN a closed DM WHEN delivering THEN the message is kept, the channel is told without content and the referee is told', async () => {
    h = await consoleHarness({ setup: CREATE, closedDms: ['alice'] });
    const out = await h.run('@referee /campaign assign army:hadewych user:alice');
    expect(out.some((o) => o.to === 'dm' && o.user === 'alice')).toBe(false);
    // The assignment's DM is the DM test: the channel names alice and the referee, without the content.
    const notice = h.channel().find((o) => o.content.startsWith('DM test: I could not send a direct message to @alice'));
    expect(notice?.content).toContain('/intel');
    expect(notice?.content).not.toContain('You command');
    expect(h.dms('referee').some((o) => o.content.includes('could not be delivered'))).toBe(true);
  });

  it('GIVEN Discord is unreachable for half an hour THEN a queued DM is still pending and goes out when it is back', async () => {
    h = await consoleHarness({ setup: CREATE });
    const app = h.app;
    const { enqueue } = await import('../../src/db/outboxRepo.js');
    const { id } = (await h.run('@referee /campaign status'))[0]?.data as { id: string };
    enqueue(app.db, { campaignId: id, to: 'dm', userId: 'alice', content: 'your estimate', nonce: 'n1' }, app.clock.now().toISOString());
    for (let minute = 0; minute < 30; minute++) {
      await runDelivery(app, async () => 'retry');
      h.clock.advance(60_000);
    }
    const seen: string[] = [];
    h.clock.advance(600_000);
    await runDelivery(app, async (m) => {
      seen.push(m.content);
      return 'sent';
    });
    expect(seen).toEqual(['your estimate']);
  });

  it('GIVEN several DMs to a player with closed DMs at once THEN the referee is told once, not once per message', async () => {
    h = await consoleHarness({ setup: CREATE, closedDms: ['alice'] });
    await h.run('@referee /campaign assign army:hadewych user:alice', '@referee /campaign assign army:solon user:alice', '@referee /campaign assign army:annemie user:alice');
    expect(h.dms('referee').filter((o) => o.content.includes('could not be delivered'))).toHaveLength(1);
    expect(h.channel().filter((o) => o.content.startsWith('DM test: I could not send'))).toHaveLength(1);
  });

  it('GIVEN a transport error WHEN delivering THEN it is retried later with backoff, not lost', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /campaign assign army:hadewych user:alice'); // delivered by the console
    // queue another DM without delivering it: the harness delivers after each line, so use the app directly
    const app = h.app;
    const { enqueue } = await import('../../src/db/outboxRepo.js');
    const campaignId = (await h.run('@referee /campaign status'))[0]?.data as { id: string };
    enqueue(app.db, { campaignId: campaignId.id, to: 'dm', userId: 'alice', content: 'secret', nonce: 'n2' }, app.clock.now().toISOString());
    let calls = 0;
    const failing = async (_: OutboxItem) => {
      calls++;
      return 'retry' as const;
    };
    await runDelivery(app, failing);
    expect(calls).toBe(1);
    expect(dueNow(app)).toHaveLength(0); // backing off
    h.clock.advance(2_500);
    expect(dueNow(app)).toEqual(['secret']);
    const seen: string[] = [];
    await runDelivery(app, async (m) => {
      seen.push(m.content);
      return 'sent';
    });
    expect(seen).toEqual(['secret']);
    expect(dueNow(app)).toHaveLength(0);
  });
});

describe('outbox: the campaign channel is gone', () => {
  it('GIVEN a running campaign WHEN a channel post fails for good (channel deleted) THEN the campaign is paused, no tick is due and the referee is told', async () => {
    h = await consoleHarness({ setup: CREATE });
    await h.run('@referee /campaign start');
    const app = h.app;
    const { enqueue } = await import('../../src/db/outboxRepo.js');
    const { getCampaignMeta } = await import('../../src/db/campaignRepo.js');
    const { id } = (await h.run('@referee /campaign status'))[0]?.data as { id: string };
    enqueue(app.db, { campaignId: id, to: 'channel', channelId: 'console', content: 'chronicle', nonce: 'n3' }, app.clock.now().toISOString());
    const dms: OutboxItem[] = [];
    await runDelivery(app, async (m) => {
      if (m.to === 'channel') return { result: 'permanent', reason: 'Unknown Channel' };
      dms.push(m);
      return 'sent';
    });
    expect(getCampaignMeta(app.db, id)?.nextTickAt).toBeNull();
    expect((await h.run('@referee /turn status'))[0]?.content).toMatch(/paused/);
    expect(dms.find((m) => m.userId === 'referee')?.content).toMatch(/paused: I cannot post in its channel .*Unknown Channel/);
    expect(h.outputs.filter((o) => o.to === 'channel' && o.content === 'chronicle')).toHaveLength(0);
  });
});
