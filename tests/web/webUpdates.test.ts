import { afterEach, describe, expect, it, vi } from 'vitest';
import { sqlRows } from '../support/sql.js';
import { statementsRun } from './statementCount.js';
import { webHarness, type WebHarness } from './webHarness.js';

/*
 * Issue 28: a page open while the campaign is paused, undone or switched to fog shows the new truth
 * on its next update, and never what the reader may no longer know.
 */

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

/** Positions public; Alice commands Hadewych, Bob Grallune, far from her (so in fog she cannot see him). */
const PUBLIC_SETUP = [
  '@referee /campaign create scenario:valormr name:"Open"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:grallune user:bob',
  '@referee /campaign start',
  '@referee /army edit army:eglidain hex:2530',
  '@referee /army edit army:laugher hex:0323',
  '@referee /army edit army:aeskrvald hex:0817',
  '@referee /army edit army:grallune hex:2027',
].join('\n');

interface OpenPage {
  /** Waits for the next server-sent event of this kind. */
  next(kind: string): Promise<void>;
  /** The page's data; `version` is the reader's (a hash of what their page shows). */
  json(): Promise<{ campaign: { time: string; status: string; fog: boolean }; days: number[]; chronicle: { text: string }[]; version?: string }>;
  map(): Promise<string>;
}

async function openPage(h: WebHarness, user: string): Promise<OpenPage> {
  const { cookie, page } = await h.login(await h.link(user));
  const res = await fetch(`${page}/events`, { headers: { cookie } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const get = async (path: string): Promise<Response> => {
    const r = await fetch(`${page}${path}`, { headers: { cookie } });
    expect(r.status, path).toBe(200);
    return r;
  };
  return {
    async next(kind) {
      while (!buffer.includes(`event: ${kind}`)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${kind}`);
        buffer += decoder.decode(value);
      }
      buffer = buffer.slice(buffer.indexOf(`event: ${kind}`) + kind.length + 7);
    },
    json: async () => (await (await get('/page.json')).json()) as Awaited<ReturnType<OpenPage['json']>>,
    map: async () => Buffer.from(await (await get('/map.png')).arrayBuffer()).toString('base64'),
  };
}

describe('an open page follows the campaign: pause, undo, fog', () => {
  it('GIVEN alice\'s open page WHEN the referee pauses, then resumes THEN each is pushed as an update, and the page then says paused, then running', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: PUBLIC_SETUP });
    const p = await openPage(w, 'alice');
    await p.next('hello');
    expect((await p.json()).campaign.status).toBe('running');
    await w.h.run('@referee /campaign pause');
    await p.next('update');
    expect((await p.json()).campaign.status).toBe('paused');
    await w.h.run('@referee /campaign resume');
    await p.next('update');
    expect((await p.json()).campaign.status).toBe('running');
  });

  it('GIVEN alice\'s open page WHEN a half period is played and then undone THEN the page goes back to the time, the map, the army and the chronicle of before the tick (with one line saying it was undone), and nothing the tick told her stays', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: PUBLIC_SETUP });
    const p = await openPage(w, 'alice');
    await p.next('hello');
    const before = { data: await p.json(), map: await p.map() };
    await w.h.run('!tick');
    await p.next('update');
    const played = { data: await p.json(), map: await p.map() };
    expect(played.data.campaign.time).not.toBe(before.data.campaign.time);
    expect(played.map).not.toBe(before.map);
    // What only the tick told her (its lines in her chronicle) is there before the undo...
    const told = played.data.chronicle.filter((l) => !before.data.chronicle.some((b) => b.text === l.text));
    expect(told.length).toBeGreaterThan(0);
    await w.h.run('@referee /turn undo');
    await p.next('update');
    const undone = await p.json();
    expect(undone.campaign.time).toBe(before.data.campaign.time);
    expect(await p.map()).toBe(before.map);
    // ...and gone after it: her chronicle is the one of before, and the line saying the referee undid it.
    expect(undone.chronicle.slice(0, -1)).toEqual(before.data.chronicle);
    expect(undone.chronicle.at(-1)?.text).toMatch(/^The referee undid /);
    const { chronicle: _c, version: _v, ...rest } = undone;
    const { chronicle: _bc, version: _bv, ...restBefore } = before.data;
    expect(rest).toEqual(restBefore);
  });

  it('GIVEN alice\'s open page with positions public WHEN the referee switches to fog THEN the update shows fog, and her map no longer depends on where Bob (unseen) stands, which it did before', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: PUBLIC_SETUP });
    const p = await openPage(w, 'alice');
    await p.next('hello');
    // Positions public: moving Bob changes Alice's map (so the check below can fail).
    const publicAt2027 = await p.map();
    await w.h.run('@referee /army edit army:grallune hex:2128');
    await p.next('update');
    expect(await p.map()).not.toBe(publicAt2027);
    await w.h.run('@referee /campaign settings positions:fog!');
    await p.next('update');
    expect((await p.json()).campaign.fog).toBe(true);
    const fogAt2128 = await p.map();
    expect(fogAt2128).not.toBe(publicAt2027);
    // Out of her sight: no update is pushed (tested below), and her map is the same.
    await w.h.run('@referee /army edit army:grallune hex:2026');
    expect(await p.map()).toBe(fogAt2128);
    // Where Bob stood while positions were public stays in her chronicle; where he went in fog does not.
    const text = JSON.stringify(await p.json());
    expect(text).toContain('placed Army of Grallune at 2128');
    expect(text).not.toContain('2026');
  });
});

describe('an open page is told only of changes it can see', () => {
  it('GIVEN alice\'s open page in fog WHEN Bob\'s army moves out of her sight THEN no update is pushed to her, and her version stays; WHEN the referee then pauses THEN one update is pushed', { timeout: 300_000 }, async () => {
    // Each check of the open pages is counted, so the test waits for one after the hidden move (no waiting on the clock).
    const waiting: (() => void)[] = [];
    const polled = (): void => { for (const f of waiting.splice(0)) f(); };
    const aPoll = (): Promise<void> => new Promise((resolve) => waiting.push(resolve));
    w = await webHarness({ setup: `${PUBLIC_SETUP}\n@referee /campaign settings positions:fog!`, web: { polled } });
    const { cookie, page } = await w.login(await w.link('alice'));
    const res = await fetch(`${page}/events`, { headers: { cookie } });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (ok: () => boolean): Promise<void> => {
      while (!ok()) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += decoder.decode(value);
      }
    };
    const version = async (): Promise<string> => ((await (await fetch(`${page}/page.json`, { headers: { cookie } })).json()) as { version: string }).version;
    await until(() => text.includes('event: hello'));
    const before = await version();
    expect(text).toContain(JSON.stringify(before));
    await w.h.run('@referee /army edit army:grallune hex:2128');
    // Two checks after the move (the first may have begun before it): any update they pushed is written before they are counted.
    await aPoll();
    await aPoll();
    expect(await version()).toBe(before);
    await w.h.run('@referee /campaign pause');
    const after = await version();
    expect(after).not.toBe(before);
    await until(() => text.includes(`event: update\ndata: ${JSON.stringify(after)}`));
    // Only the pause's update (its data her new version), none for the hidden move before it.
    expect(text.split('event: update').length - 1).toBe(1);
  });

  it('GIVEN alice\'s open page in fog WHEN Bob\'s army moves out of her sight THEN the server works out nothing again for her (no page or map version recomputed, by her checks or her requests); WHEN the referee pauses THEN it does', { timeout: 300_000 }, async () => {
    // Counted, not timed: what the server works out for a reader must be a function of what that reader can see.
    const counts = { page: 0, map: 0 };
    const waiting: (() => void)[] = [];
    const polled = (): void => { for (const f of waiting.splice(0)) f(); };
    const aPoll = (): Promise<void> => new Promise((resolve) => waiting.push(resolve));
    w = await webHarness({ setup: `${PUBLIC_SETUP}\n@referee /campaign settings positions:fog!`, web: { polled, recomputed: (reader, what) => { if (reader === 'alice') counts[what] += 1; } } });
    const { cookie, page } = await w.login(await w.link('alice'));
    const res = await fetch(`${page}/events`, { headers: { cookie } });
    const read = async (path: string): Promise<void> => void (await (await fetch(`${page}${path}`, { headers: { cookie } })).arrayBuffer());
    await read('/page.json');
    await read('/map.json');
    await aPoll();
    await aPoll();
    const before = { ...counts };
    expect(before.map, 'her map version was worked out').toBeGreaterThan(0);
    await w.h.run('@referee /army edit army:grallune hex:2128');
    await aPoll();
    await aPoll();
    await read('/page.json');
    await read('/map.json');
    expect(counts, 'nothing worked out again after a change hidden from her').toEqual(before);
    await w.h.run('@referee /campaign pause');
    await aPoll();
    await aPoll();
    expect(counts.page, 'her page worked out again after a change she sees').toBeGreaterThan(before.page);
    await res.body?.cancel();
  });
});


describe('live updates are pushed on commit, not polled per page', () => {
  it('GIVEN alice\'s open page and a server whose watch would run its first round in an hour WHEN a half period is played THEN the update is pushed at once (by the commit, no round)', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: PUBLIC_SETUP, web: { pollMs: 3_600_000 } });
    const p = await openPage(w, 'alice');
    await p.next('hello');
    const before = (await p.json()).campaign.time;
    await w.h.run('!tick');
    await p.next('update');
    expect((await p.json()).campaign.time).not.toBe(before);
  });

  it('GIVEN one open page, then five (alice twice, bob, the referee, the spectators) WHEN nothing moves THEN each round of the watch costs ONE statement for all of them, whatever their number, and pushes nothing', { timeout: 300_000 }, async () => {
    const rounds: (() => void)[] = [];
    w = await webHarness({ setup: `${PUBLIC_SETUP}\n@referee /campaign settings spectators:0`, web: { schedule: (c) => (rounds.push(c), () => undefined) } });
    const round = (): void => { for (const r of rounds) r(); };
    const bodies: string[] = [];
    const open = async (events: string, cookie?: string): Promise<void> => {
      const res = await fetch(events, cookie ? { headers: { cookie } } : {});
      expect(res.status).toBe(200);
      const i = bodies.push('') - 1;
      const reader = res.body!.getReader();
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          bodies[i] += new TextDecoder().decode(value);
        }
      })();
    };
    const person = async (user: string): Promise<void> => {
      const { cookie, page } = await w!.login(await w!.link(user));
      await open(`${page}/events`, cookie);
    };
    const idle = async (): Promise<string[]> => {
      round(); // the campaign first seen by the watch (or a stream just opened): its pages checked once
      return statementsRun(w!.h.app.db, () => {
        for (let i = 0; i < 5; i++) round();
      });
    };
    await person('alice');
    const one = await idle();
    for (const user of ['alice', 'bob', 'referee']) await person(user);
    const campaignId = String(sqlRows(w.h.app.db, 'select id from campaigns')[0]?.[0]);
    await open(`${w.web.url}/s/${campaignId}/events`);
    const five = await idle();
    expect(one, one.join('\n')).toHaveLength(5);
    expect(five, five.join('\n')).toHaveLength(5);
    expect(new Set([...one, ...five]).size).toBe(1);
    expect(one[0]).toMatch(/campaigns/);
    // Read as the streams' chunks arrive (vi.waitFor gives up after 1 s by default: a loaded machine may take longer).
    await vi.waitFor(() => expect(bodies.filter((b) => b.includes('event: hello'))).toHaveLength(5), { timeout: 60_000, interval: 20 });
    expect(bodies.filter((b) => b.includes('event: update'))).toEqual([]);
  });
});

describe('what moves with no save is found by the watch\'s round', () => {
  it('GIVEN the referee\'s open page WHEN a DM is refused by its delivery (the outbox row changed, as another process would: no save, no event, no commit here) THEN the next round of the watch finds it and pushes the referee an update (the inbox)', { timeout: 120_000 }, async () => {
    const rounds: (() => void)[] = [];
    w = await webHarness({ setup: PUBLIC_SETUP, web: { schedule: (c) => (rounds.push(c), () => undefined) } });
    const round = (): void => { for (const r of rounds) r(); };
    const p = await openPage(w, 'referee');
    await p.next('hello');
    round();
    const inbox = async (): Promise<unknown> => ((await p.json()) as unknown as { inbox: unknown }).inbox;
    const before = await inbox();
    const dm = sqlRows(w.h.app.db, "select id from outbox_messages where \"to\" = 'dm' order by id desc limit 1")[0]?.[0];
    expect(dm, 'a DM in the outbox').toBeDefined();
    sqlRows(w.h.app.db, "update outbox_messages set status = 'dmClosed', read_at = null where id = ?", dm);
    round();
    await p.next('update');
    expect(await inbox()).not.toEqual(before);
  });
});
