/**
 * The delivery pool: each destination a lane (one message in flight, in order), many lanes at once,
 * lanes refilled as they free up, starts paced under Discord's global rate, a sent message's record
 * retried when the database refuses it, and the claim walking indexes only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app/createApp.js';
import { DeliveryLanes, type DeliveryOutcome, type OutboxItem } from '../../src/app/outbox.js';
import { ManualClock, type Logger } from '../../src/app/ports.js';
import { claimPlan, enqueue } from '../../src/db/outboxRepo.js';
import { rawSqlite } from '../../src/db/client.js';
import { join } from 'node:path';
import { testTempDir } from '../support/tempDirs.js';

type TestApp = ReturnType<typeof createApp>;
let app: TestApp | undefined;
afterEach(() => {
  vi.useRealTimers();
  app?.close();
  app = undefined;
});

function newApp(logger?: Logger): TestApp {
  app = createApp({ databasePath: ':memory:', clock: new ManualClock(new Date('2026-11-22T12:00:00Z')), ...(logger ? { logger } : {}) });
  return app;
}

let nonces = 0;
function queue(a: TestApp, to: string, content: string): void {
  const dm = to.startsWith('user');
  enqueue(a.db, { campaignId: 'c1', to: dm ? 'dm' : 'channel', ...(dm ? { userId: to } : { channelId: to }), content, nonce: `n${++nonces}` }, a.clock.now().toISOString());
}

const destination = (item: OutboxItem): string => item.userId ?? item.channelId ?? '?';

/** A send the test finishes by hand. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => { open = resolve; });
  return { promise, open };
}

const status = (a: TestApp, content: string): string =>
  (rawSqlite(a.db).prepare('select status from outbox_messages where content = ?').get(content) as { status: string }).status;

/** vi.waitFor gives up after 1 s by default: a loaded machine can take longer to reach a state, never a wrong one. */
const STATE_WAIT = { timeout: 60_000, interval: 10 };

describe('delivery lanes', () => {
  it('GIVEN one DM held by the server WHEN other destinations have messages queued meanwhile THEN they are all sent while the held one is still in flight', async () => {
    const a = newApp();
    const events: string[] = [];
    const held = gate();
    const lanes = new DeliveryLanes(a, async (item) => {
      events.push(`start ${item.content}`);
      if (item.content === 'held') await held.promise;
      events.push(`sent ${item.content}`);
      return 'sent';
    }, { lanes: 4 });
    queue(a, 'user-slow', 'held');
    lanes.fill();
    // Queued after the held send started, as a tick's messages come in while one DM hangs.
    queue(a, 'user-other', 'dm to another user');
    queue(a, 'channel-1', 'chronicle');
    queue(a, 'user-slow', 'second to the slow user');
    lanes.fill();
    await vi.waitFor(() => expect(events).toContain('sent chronicle'), STATE_WAIT);
    await vi.waitFor(() => expect(events).toContain('sent dm to another user'), STATE_WAIT);
    expect(events).not.toContain('sent held');
    // The slow user's next message waits behind the held one: one in flight per lane, in order.
    expect(events).not.toContain('start second to the slow user');
    expect(status(a, 'second to the slow user')).toBe('pending');
    held.open();
    await lanes.drain();
    expect(events.slice(-3)).toEqual(['sent held', 'start second to the slow user', 'sent second to the slow user']);
    expect(lanes.sent).toBe(4);
  });

  it('GIVEN more destinations than lanes, every send held WHEN filled THEN only `lanes` are in flight, and each lane freed is refilled at once', async () => {
    const a = newApp();
    const gates = new Map<string, ReturnType<typeof gate>>();
    let inFlight = 0;
    let most = 0;
    const lanes = new DeliveryLanes(a, async (item) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const g = gate();
      gates.set(destination(item), g);
      await g.promise;
      inFlight--;
      return 'sent';
    }, { lanes: 3 });
    for (let i = 0; i < 7; i++) queue(a, `channel-${i}`, `post ${i}`);
    const drained = lanes.drain();
    await vi.waitFor(() => expect(gates.size).toBe(3), STATE_WAIT);
    expect(lanes.busy).toBe(3);
    gates.get('channel-1')!.open();
    // The lane freed takes the oldest waiting destination, without waiting for the other two.
    await vi.waitFor(() => expect(gates.has('channel-3')).toBe(true), STATE_WAIT);
    expect(gates.has('channel-4')).toBe(false);
    const opened = new Set(['channel-1']);
    while (opened.size < 7) {
      await vi.waitFor(() => expect([...gates.keys()].some((k) => !opened.has(k))).toBe(true), STATE_WAIT);
      for (const [k, g] of gates) if (!opened.has(k)) { opened.add(k); g.open(); }
    }
    await drained;
    expect(most).toBe(3);
    expect(lanes.sent).toBe(7);
  });

  it('GIVEN 120 destinations due at once and a limit of 50 a second WHEN drained THEN no second starts more than 50 deliveries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const a = newApp();
    const startedAt: number[] = [];
    const lanes = new DeliveryLanes(a, async () => {
      startedAt.push(performance.now());
      return 'sent';
    }, { lanes: 200, perSecond: 50 });
    for (let i = 0; i < 120; i++) queue(a, `channel-${i}`, `post ${i}`);
    const drained = lanes.drain();
    await vi.advanceTimersByTimeAsync(5_000);
    await drained;
    expect(startedAt).toHaveLength(120);
    for (const t of startedAt) expect(startedAt.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(50);
    // And the limit is what bounds it: the last starts in the third second, not later. Fake
    // time (setTimeout and performance.now are faked above), so a loaded machine cannot fail it;
    // the same on the wall clock is the bench's lanesBurst120Ms.
    expect(Math.max(...startedAt) - Math.min(...startedAt)).toBeLessThan(3_000);
  });

  it('GIVEN the database refuses to record a sent message (locked) WHEN delivered THEN the record is retried and the message is not sent again', async () => {
    const warnings: string[] = [];
    const logger: Logger = {
      debug: () => undefined, info: () => undefined, error: () => undefined,
      warn: (_obj, msg) => {
        warnings.push(msg ?? '');
        // The lock goes away after the first refusal.
        if (app) rawSqlite(app.db).exec('drop trigger if exists refuse_sent');
      },
    };
    const a = newApp(logger);
    rawSqlite(a.db).exec(`create temp trigger refuse_sent before update of status on outbox_messages when new.status = 'sent'
      begin select raise(abort, 'database is locked'); end`);
    let sends = 0;
    const deliver = async (): Promise<DeliveryOutcome> => { sends++; return 'sent'; };
    queue(a, 'user-1', 'your estimate');
    const lanes = new DeliveryLanes(a, deliver);
    await lanes.drain();
    expect(warnings.some((w) => w.includes('recording a sent message failed'))).toBe(true);
    expect(status(a, 'your estimate')).toBe('sent');
    // Its lease long over, a second worker finds nothing to send.
    (a.clock as ManualClock).set(new Date('2026-11-22T13:00:00Z'));
    await new DeliveryLanes(a, deliver).drain();
    expect(sends).toBe(1);
  });

  it('GIVEN the claim WHEN planned by SQLite THEN it walks the pending and lane indexes: no sort, no scan of sent rows', () => {
    const a = newApp();
    const plan = claimPlan(a.db).join('\n');
    expect(plan).toContain('USING INDEX outbox_pending');
    expect(plan).toContain('USING INDEX outbox_lane');
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('GIVEN a look that found nothing due WHEN fillIfQueued runs THEN it looks again only once this process queued something; a full fill finds the rest', async () => {
    const file = join(testTempDir('lanes-queued'), 'bot.db');
    const clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
    const a = createApp({ databasePath: file, clock });
    // Another process on the same database: its queued messages are not this one's to notice.
    const other = createApp({ databasePath: file, clock });
    try {
      const sent: string[] = [];
      const lanes = new DeliveryLanes(a, async (item) => (sent.push(item.content), 'sent'), { lanes: 2 });
      await lanes.drain();
      queue(other, 'user-1', 'from the other process');
      await lanes.drain({ ifQueued: true });
      expect(sent).toEqual([]);
      queue(a, 'channel-1', 'queued here');
      await lanes.drain({ ifQueued: true });
      // The look claims everything due, the other process's message with this one's.
      expect(sent.sort()).toEqual(['from the other process', 'queued here']);
      queue(other, 'user-2', 'later, from the other process');
      lanes.fillIfQueued();
      await lanes.drain({ ifQueued: true });
      expect(sent).toHaveLength(2);
      await lanes.drain();
      expect(sent).toContain('later, from the other process');
    } finally {
      other.close();
      a.close();
    }
  });
});
