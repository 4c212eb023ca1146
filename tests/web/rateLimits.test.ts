import { afterEach, describe, expect, it } from 'vitest';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { discordProvider } from '../../src/web/discordLogin.js';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';

/*
 * Issue 28, "Bad input and security": rate limits on the routes anyone can reach without a session
 * (src/web/rateLimits.ts). The login and link routes (a /web link, "Log in with Discord" and its
 * callback, logout) allow 20 requests a minute from one address, the public spectator routes (page,
 * data, map, tiles, events) 600, each route counting alone. Past the limit: 429, with a sentence
 * saying what to do. The limits are exhausted here with small numbers and a window of an hour, so
 * no run can cross a window's end however loaded the machine; the production numbers are read
 * from the headers the server sends.
 */

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };
const OAUTH = discordProvider('app-1', 'shh', 'http://127.0.0.1:9/api');
const HOUR = 3_600_000;

function ask(url: string, opts: { method?: string; ip?: string } = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', method: opts.method ?? 'GET', ...(opts.ip ? { headers: { 'x-forwarded-for': opts.ip } } : {}) });
}

/** `n` requests one after another: their status codes. */
async function statuses(url: string, n: number, opts: { method?: string; ip?: string } = {}): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await ask(url, opts);
    out.push(r.status);
    await r.body?.cancel();
  }
  return out;
}

async function spectatorBase(h: WebHarness): Promise<string> {
  const id = readCampaign(h.h.app, { actor: REFEREE }, (tx) => tx.meta.id);
  return `${h.web.url}/s/${id}`;
}

/** The spectator routes, with what each answers when not limited (the event stream is read no further than its status). */
const SPECTATOR_ROUTES = ['', '/page.json', '/map.json', '/map.png', '/tile/9/0/0.png', '/events'];
const LOGIN_ROUTES: [string, string, number][] = [
  ['GET', '/login/not.alink', 404],
  // The start of the OAuth2 flow: a redirect to the provider.
  ['GET', '/login/discord', 303],
  // A callback without the state cookie: a plain 404 (the provider is never asked).
  ['GET', '/login/discord/callback?code=x&state=y', 404],
  ['POST', '/logout', 200],
];

describe('rate limits on the routes reachable without a session', () => {
  it('GIVEN the page as `npm start` serves it WHEN a login, link or spectator route is asked THEN it says its limit: 20 a minute for logging in, 600 for spectators, each route counting alone', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: `${fogSetup()}\n@referee /campaign settings spectators:0`, ticks: 1, web: { oauth: OAUTH } });
    for (const [method, path, usual] of LOGIN_ROUTES) {
      const r = await ask(`${w.web.url}${path}`, { method });
      expect(r.status, path).toBe(usual);
      expect([r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining')], `${method} ${path}`).toEqual(['20', '19']);
      // The window: a minute (the seconds until it ends).
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(60);
    }
    const base = await spectatorBase(w);
    for (const path of SPECTATOR_ROUTES.filter((p) => p !== '/events')) {
      const r = await ask(`${base}${path}`);
      expect(r.status, path).toBe(200);
      expect([r.headers.get('x-ratelimit-limit'), r.headers.get('x-ratelimit-remaining')], path).toEqual(['600', '599']);
    }
    // A person's own page is behind their session, not limited.
    const { cookie, page } = await w.login(await w.link('alice'));
    expect((await fetch(`${page}/page.json`, { headers: { cookie } })).headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('GIVEN limits of 3 tries to log in WHEN one address asks 4 times for each login or link route THEN the 4th is 429 saying to wait, each route counting alone; another address behind the proxy is still answered', { timeout: 120_000 }, async () => {
    w = await webHarness({ setup: fogSetup(), web: { oauth: OAUTH, publicUrl: 'https://valormr.example.org', rateLimits: { login: 3, spectator: 5, windowMs: HOUR } } });
    const ip = '203.0.113.7';
    for (const [method, path, usual] of LOGIN_ROUTES) {
      expect(await statuses(`${w.web.url}${path}`, 3, { method, ip }), `${method} ${path}`).toEqual([usual, usual, usual]);
      const over = await ask(`${w.web.url}${path}`, { method, ip });
      expect(over.status, `${method} ${path}: the 4th`).toBe(429);
      expect(await over.text()).toBe('Too many tries from here: wait a minute, then use your /web link (or run /web again for a new one).');
      expect(Number(over.headers.get('retry-after')), 'retry-after, in seconds').toBeGreaterThan(0);
      expect((await ask(`${w.web.url}${path}`, { method, ip: '198.51.100.9' })).status, `${path} from another address`).toBe(usual);
    }
    // A good link from the limited address is refused too (the limit is on the route, not on wrong tokens), and stays good.
    const link = (await w.link('alice')).replace('https://valormr.example.org', w.web.url);
    expect((await ask(link, { ip })).status).toBe(429);
    expect((await ask(link, { ip: '198.51.100.9' })).status).toBe(303);
  });

  it('GIVEN the spectator page on with a limit of 5 WHEN one address asks 6 times for each spectator route (page, data, map, tiles, event stream) THEN the 6th is 429, each route counting alone; another address is still answered', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: `${fogSetup()}\n@referee /campaign settings spectators:0`, ticks: 1, web: { publicUrl: 'https://valormr.example.org', rateLimits: { login: 3, spectator: 5, windowMs: HOUR } } });
    const base = await spectatorBase(w);
    const ip = '203.0.113.7';
    for (const path of SPECTATOR_ROUTES) {
      expect(await statuses(`${base}${path}`, 5, { ip }), path).toEqual(Array(5).fill(200));
      const over = await ask(`${base}${path}`, { ip });
      expect(over.status, `${path}: the 6th`).toBe(429);
      expect(await over.text()).toBe('Too many requests from here: wait a minute, then reload the page.');
      const other = await ask(`${base}${path}`, { ip: '198.51.100.9' });
      expect(other.status, `${path} from another address`).toBe(200);
      await other.body?.cancel();
    }
  });
});
