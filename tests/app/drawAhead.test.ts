/**
 * Drawing pictures ahead (DeliveryLanes' `drawAhead`, as the Discord transport runs it): a message
 * whose map is being drawn holds no lane, so text to other destinations goes out meanwhile at the
 * rate limit; the message with the map is sent once drawn, and the next message to ITS destination
 * waits for it. Pictures are drawn by a stand-in the test finishes by hand.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessageFile } from '../../src/app/messages.js';
import { testStore } from '../support/store.js';

const draws = vi.hoisted(() => ({ opened: new Map<string, () => void>(), started: [] as string[] }));
vi.mock('../../src/app/pictures.js', () => ({
  paint: async (_app: unknown, _campaign: string, picture: { name: string }): Promise<MessageFile> => {
    draws.started.push(picture.name);
    await new Promise<void>((resolve) => draws.opened.set(picture.name, resolve));
    // Held as the render pool hands its bytes out (src/render/pictureBytes.ts): given back, they read as empty.
    const { holdPicture } = await import('../../src/render/pictureBytes.js');
    return { name: picture.name, data: holdPicture(new Uint8Array([1, 2, 3])) };
  },
}));

const { createApp } = await import('../../src/app/createApp.js');
const { DeliveryLanes } = await import('../../src/app/outbox.js');
const { ManualClock } = await import('../../src/app/ports.js');
const { enqueue } = await import('../../src/db/outboxRepo.js');
const { pictureHolders } = await import('../../src/render/pictureBytes.js');

type TestApp = ReturnType<typeof createApp>;
let app: TestApp | undefined;
afterEach(() => {
  app?.close();
  app = undefined;
  draws.opened.clear();
  draws.started.length = 0;
});

let nonces = 0;
function queue(a: TestApp, to: string, content: string, picture?: string): void {
  const dm = to.startsWith('user');
  const pictures = picture ? [{ kind: 'sketch', name: picture, sketch: { title: picture, cards: [] } }] : undefined;
  enqueue(a.db, { campaignId: 'c1', to: dm ? 'dm' : 'channel', ...(dm ? { userId: to } : { channelId: to }), content, nonce: `n${++nonces}`, ...(pictures ? { pictures } : {}) } as Parameters<typeof enqueue>[1], a.clock.now().toISOString());
}

const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 2_000 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

function lanesFor(a: TestApp, drawAhead: number, lanes: number, sent: string[]): InstanceType<typeof DeliveryLanes> {
  return new DeliveryLanes(a, async (item) => {
    sent.push(`${item.channelId ?? item.userId}: ${item.content}${item.files.length > 0 ? ' [map]' : ''}`);
    return 'sent';
  }, { lanes, drawAhead });
}

describe('drawing pictures ahead of their lane', () => {
  it('GIVEN more maps being drawn than lanes WHEN DMs to other people are due THEN the DMs go out while the maps are drawn; each map post goes out once drawn, and the channel\'s next post after it', async () => {
    app = createApp({ databasePath: testStore(), clock: new ManualClock(new Date('2026-11-22T12:00:00Z')) });
    const a = app;
    // Oldest first: three channel posts with a map each, then DMs, then the first channel's next post.
    for (const c of ['ch1', 'ch2', 'ch3']) queue(a, c, `tick ${c}`, `map-${c}`);
    for (let k = 0; k < 6; k++) queue(a, `user${k}`, `report ${k}`);
    queue(a, 'ch1', 'after the map');
    const sent: string[] = [];
    const lanes = lanesFor(a, 8, 2, sent);
    lanes.fill();
    // Two lanes, three maps drawing: every DM went out all the same.
    await until(() => sent.length === 6);
    expect(draws.started).toEqual(['map-ch1', 'map-ch2', 'map-ch3']);
    expect(sent.every((s) => s.startsWith('user'))).toBe(true);
    draws.opened.get('map-ch2')?.();
    await until(() => sent.length === 7);
    expect(sent[6]).toBe('ch2: tick ch2 [map]');
    // ch1's next post waits for ch1's map post.
    expect(sent.some((s) => s.includes('after the map'))).toBe(false);
    draws.opened.get('map-ch1')?.();
    draws.opened.get('map-ch3')?.();
    await lanes.drain();
    expect(sent.indexOf('ch1: tick ch1 [map]')).toBeLessThan(sent.indexOf('ch1: after the map'));
    expect(sent).toHaveLength(10);
  });

  it('GIVEN no drawing ahead (the console) WHEN a map is being drawn in the only lane THEN nothing else goes out before it: the output keeps its order', async () => {
    app = createApp({ databasePath: testStore(), clock: new ManualClock(new Date('2026-11-22T12:00:00Z')) });
    const a = app;
    queue(a, 'ch1', 'tick', 'map-ch1');
    queue(a, 'user1', 'report');
    const sent: string[] = [];
    const lanes = lanesFor(a, 0, 1, sent);
    lanes.fill();
    await until(() => draws.started.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toEqual([]);
    draws.opened.get('map-ch1')?.();
    await lanes.drain();
    expect(sent).toEqual(['ch1: tick [map]', 'user1: report']);
  });

  it('GIVEN drawing ahead WHEN maps are due faster than they are drawn THEN at most drawAhead are drawn at once', async () => {
    app = createApp({ databasePath: testStore(), clock: new ManualClock(new Date('2026-11-22T12:00:00Z')) });
    const a = app;
    for (let k = 0; k < 10; k++) queue(a, `ch${k}`, `tick ${k}`, `map-${k}`);
    const sent: string[] = [];
    const lanes = lanesFor(a, 3, 4, sent);
    lanes.fill();
    await until(() => draws.started.length === 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(draws.started).toHaveLength(3);
    for (let k = 0; k < 10; k++) {
      await until(() => draws.opened.has(`map-${k}`));
      draws.opened.get(`map-${k}`)?.();
    }
    await lanes.drain();
    expect(sent).toHaveLength(10);
  });

  it('GIVEN more maps due than picturesAhead WHEN drawn maps wait for the rate THEN at most picturesAhead are drawing or drawn and not yet handed to the transport at any moment; the other claimed maps wait to be drawn, and every map goes out in claim order', async () => {
    app = createApp({ databasePath: testStore(), clock: new ManualClock(new Date('2026-11-22T12:00:00Z')) });
    const a = app;
    const maps = 6;
    for (let k = 0; k < maps; k++) queue(a, `ch${k}`, `tick ${k}`, `map-${k}`);
    const sent: string[] = [];
    // Pictures drawing or drawn and not yet handed to the transport, sampled at every draw start and every send.
    const aheadSeen: number[] = [];
    const ahead = (): number => draws.started.length - sent.length;
    const lanes = new DeliveryLanes(a, async (item) => {
      aheadSeen.push(ahead());
      sent.push(`${item.channelId ?? item.userId}: ${item.content}`);
      return 'sent';
    }, { lanes: 4, perSecond: 2, drawAhead: 8, picturesAhead: 2 });
    lanes.fill();
    // Every map is claimed (drawAhead 8), only two are drawn.
    await until(() => draws.started.length === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(draws.started).toEqual(['map-0', 'map-1']);
    expect(lanes.pictures).toMatchObject({ now: 2, queued: maps - 2 });
    // Finished out of order: map-1 drawn waits for its lane and keeps its turn; nothing else starts.
    draws.opened.get('map-1')?.();
    await until(() => sent.length === 1);
    expect(draws.started).toEqual(['map-0', 'map-1', 'map-2']);
    // The rest drawn as fast as asked: with two sends a second, drawn maps wait for the rate holding their turns.
    for (let k = 0; k < maps; k++) {
      await until(() => draws.opened.has(`map-${k}`));
      aheadSeen.push(ahead());
      draws.opened.get(`map-${k}`)?.();
    }
    await lanes.drain();
    expect(sent).toHaveLength(maps);
    expect(Math.max(...aheadSeen)).toBeLessThanOrEqual(2);
    expect(lanes.pictures).toEqual({ now: 0, peak: 2, queued: 0 });
    // Drawn in claim order (oldest first).
    expect(draws.started).toEqual(Array.from({ length: maps }, (_, k) => `map-${k}`));
  });

  it('GIVEN a drawn map WHEN the transport answers (sent, or to be tried again after a 429) THEN its bytes are given back at once; the retry draws it anew', async () => {
    const clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
    app = createApp({ databasePath: testStore(), clock });
    const a = app;
    queue(a, 'ch1', 'tick', 'map-ch1');
    queue(a, 'ch2', 'tick', 'map-ch2');
    const answers: Record<string, 'sent' | { result: 'retry'; retryAfterMs: number }> = { ch1: { result: 'retry', retryAfterMs: 60_000 }, ch2: 'sent' };
    const handed: { to: string; data: Uint8Array; holders: number }[] = [];
    const lanes = new DeliveryLanes(a, async (item) => {
      const data = item.files[0]?.data as Uint8Array;
      handed.push({ to: item.channelId ?? '', data, holders: pictureHolders(data) });
      return answers[item.channelId ?? ''] ?? 'sent';
    }, { lanes: 2, drawAhead: 4 });
    lanes.fill();
    await until(() => draws.opened.size === 2);
    for (const open of draws.opened.values()) open();
    await lanes.drain();
    expect(handed.map((h) => [h.to, h.holders])).toEqual(expect.arrayContaining([['ch1', 1], ['ch2', 1]]));
    for (const h of handed) {
      expect(h.data.byteLength).toBe(0);
      expect(pictureHolders(h.data)).toBe(0);
    }
    // The map answered 429 goes again when due, drawn anew.
    clock.advance(60_000);
    draws.opened.clear();
    answers.ch1 = 'sent';
    lanes.fill();
    await until(() => draws.opened.has('map-ch1'));
    draws.opened.get('map-ch1')?.();
    await lanes.drain();
    expect(handed.at(-1)).toMatchObject({ to: 'ch1', holders: 1 });
    expect(handed.filter((h) => h.to === 'ch1')).toHaveLength(2);
  });
});
