import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { pgProxy, type PgProxy } from '../support/pgProxy.js';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';

/*
 * Issue 30: the web page while its PostgreSQL store is unreachable. The page's server and the bot
 * share the store through a relay (tests/support/pgProxy.ts) the test cuts: every route that reads
 * the store answers a clear 503 (an HTML page to a browser's page, JSON to the page's data
 * requests, text for a picture), saying the store is unavailable and to try again, with no stack
 * trace and no crash; an open page's live updates stay open and quiet; a /web link used meanwhile
 * is not spent. Once the store is back, with no restart, every route answers as before and the
 * open page hears of the next tick.
 */

let w: WebHarness | undefined;
let proxy: PgProxy | undefined;
const dir = mkdtempSync(join(tmpdir(), 'valormr-web-outage-'));
afterAll(async () => {
  await w?.close();
  await proxy?.close();
  rmSync(dir, { recursive: true, force: true });
});

const REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };

/** An open page's event stream: what it has said so far, as events. */
function listen(url: string, cookie: string): { events: string[]; closed: () => boolean; stop: () => void } {
  const events: string[] = [];
  const stop = new AbortController();
  let ended = false;
  void (async () => {
    const r = await fetch(url, { headers: { cookie }, signal: stop.signal });
    const reader = r.body!.getReader();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
      const blocks = text.split('\n\n');
      text = blocks.pop()!;
      for (const b of blocks) {
        const event = b.split('\n').find((l) => l.startsWith('event: '));
        if (event) events.push(event.slice('event: '.length));
      }
    }
  })().catch(() => undefined).finally(() => {
    ended = true;
  });
  return { events, closed: () => ended, stop: () => stop.abort() };
}

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the web page while PostgreSQL is unreachable', () => {
  it('GIVEN alice\'s page open (with its live updates) and the spectator page on WHEN the store becomes unreachable THEN each route answers a clear 503 (HTML, JSON or text), no stack, no crash, her new link unspent; WHEN it is back THEN every route answers again by itself and the open page hears of the next tick', { timeout: 300_000 }, async () => {
    proxy = await pgProxy(freshPostgresDatabase());
    w = await webHarness({ setup: `${fogSetup()}\n@referee /campaign settings spectators:0`, ticks: 1, databasePath: proxy.url, renderCacheDir: join(dir, 'render-cache') });
    const id = readCampaign(w.h.app, { actor: REFEREE }, (tx) => tx.meta.id);
    const { cookie, page } = await w.login(await w.link('alice'));
    const spare = await w.link('alice');
    const c = (path: string) => `${page}${path}`;
    const s = (path: string) => `${w!.web.url}/s/${id}${path}`;
    const routes = [
      { path: c(''), kind: 'html' }, { path: c('/page.json'), kind: 'json' }, { path: c('/map.json'), kind: 'json' },
      { path: c('/map.png'), kind: 'text' }, { path: c('/first.png'), kind: 'text' }, { path: c('/tile/9/0/0.png'), kind: 'text' },
      { path: s(''), kind: 'html' }, { path: s('/page.json'), kind: 'json' }, { path: s('/map.json'), kind: 'json' },
      { path: s('/map.png'), kind: 'text' }, { path: s('/events'), kind: 'text' }, { path: c('/events'), kind: 'text' },
    ] as const;
    const get = (url: string) => fetch(url, { headers: { cookie }, redirect: 'manual' });
    // Up: every route answers (the streams' first bytes are enough).
    for (const r of routes.filter((r) => !r.path.endsWith('/events'))) expect((await get(r.path)).status, r.path).toBe(200);
    const stream = listen(c('/events'), cookie);
    await until(() => stream.events.includes('hello'), 'the open page\'s stream');

    await proxy.down();
    for (const r of routes) {
      const answer = await get(r.path);
      const body = await answer.text();
      expect({ path: r.path, status: answer.status, retryAfter: answer.headers.get('retry-after') }).toEqual({ path: r.path, status: 503, retryAfter: '30' });
      const type = answer.headers.get('content-type') ?? '';
      if (r.kind === 'json') {
        expect(type, r.path).toMatch(/^application\/json/);
        expect(JSON.parse(body), r.path).toEqual({ error: 'storeUnavailable', message: 'The campaign store is unavailable right now; try again in a minute.' });
      } else if (r.kind === 'html') {
        expect(type, r.path).toMatch(/^text\/html/);
        expect(body, r.path).toContain('The campaign store is unavailable right now; try again in a minute.');
      } else {
        expect(type, r.path).toMatch(/^text\/plain/);
        expect(body, r.path).toBe('The campaign store is unavailable right now; try again in a minute.');
      }
      expect(body, r.path).not.toMatch(/\bat .*\.(ts|js):\d+|Error:|ECONN|postgres:\/\//);
    }
    // A link used while the store is down is not spent.
    expect((await fetch(spare, { redirect: 'manual' })).status).toBe(503);
    // The open page's stream keeps polling through the outage without a word and without crashing the server.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(stream.closed()).toBe(false);
    expect(stream.events).toEqual(['hello']);

    await proxy.up();
    for (const r of routes.filter((r) => !r.path.endsWith('/events'))) expect((await get(r.path)).status, r.path).toBe(200);
    expect((await fetch(spare, { redirect: 'manual' })).status).toBe(303);
    await w.h.run('!tick 1');
    await until(() => stream.events.includes('update'), 'the open page told of the tick after the outage');
    expect(stream.closed()).toBe(false);
    stream.stop();
  });
});
