import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { discordProvider } from '../../src/web/discordLogin.js';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', ...(cookie ? { headers: { cookie } } : {}) });
const routes = (page: string) => [page, `${page}/page.json`, `${page}/map.png`, `${page}/events`];

describe('the web page: getting in, and nothing for anyone else', () => {
  it('GIVEN alice\'s /web link WHEN she opens it THEN she lands on her campaign\'s page with an HttpOnly signed cookie, no secret in the address, CSP and no framing', async () => {
    w = await webHarness({ setup: fogSetup() });
    const url = await w.link('alice');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\/[\w-]+\.[\w-]+$/);
    const r = await get(url);
    expect(r.status).toBe(303);
    const location = r.headers.get('location')!;
    expect(location).toMatch(/^\/c\/[\w-]+$/);
    expect(location).not.toContain(url.split('/login/')[1]!.slice(0, 20));
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const page = await get(`${w.web.url}${location}`, cookie.split(';')[0]);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('GIVEN a link used once WHEN it is used again (the same or a second browser) THEN 404, and the second browser gets no cookie', async () => {
    w = await webHarness({ setup: fogSetup() });
    const url = await w.link('alice');
    await w.login(url);
    const again = await get(url);
    expect(again.status).toBe(404);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).not.toMatch(/alice|Fog|hadewych/i);
  });

  it('GIVEN a link used once WHEN the bot restarts (same database, same WEB_SECRET) THEN the used link is still refused, and a link not used before the restart still logs in once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'valormr-web-restart-'));
    const databasePath = join(dir, 'campaign.db');
    const secret = randomBytes(32);
    const before = await webHarness({ setup: fogSetup(), databasePath, web: { secret } });
    const used = await before.link('alice');
    const unused = await before.link('alice');
    await before.login(used);
    expect((await get(used)).status).toBe(404);
    await before.close();

    w = await webHarness({ databasePath, web: { secret } });
    const port = (u: string) => u.replace(/^http:\/\/127\.0\.0\.1:\d+/, w!.web.url);
    const again = await get(port(used));
    expect(again.status).toBe(404);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect((await get(port(unused))).status).toBe(303);
    expect((await get(port(unused))).status).toBe(404);
    rmSync(dir, { recursive: true, force: true });
  });

  it('GIVEN a link WHEN it is used after 10 minutes THEN 404; a forged or truncated link is 404 too', async () => {
    w = await webHarness({ setup: fogSetup() });
    const url = await w.link('alice');
    const [body, sig] = url.split('/login/')[1]!.split('.');
    w.h.clock.set(new Date(w.h.clock.now().getTime() + 10 * 60_000 + 1));
    expect((await get(url)).status).toBe(404);
    const fresh = await w.link('alice');
    const freshSig = fresh.split('.').at(-1)!;
    expect((await get(`${w.web.url}/login/${body}.${freshSig}`)).status).toBe(404);
    expect((await get(`${w.web.url}/login/${body}`)).status).toBe(404);
    expect((await get(`${w.web.url}/login/${body}.${sig}x`)).status).toBe(404);
    expect((await get(fresh)).status).toBe(303);
  });

  it('GIVEN alice\'s session WHEN her cookie is forged (another user, no signature, garbage) THEN every route is 404', async () => {
    w = await webHarness({ setup: fogSetup() });
    const { cookie, page } = await w.login(await w.link('alice'));
    const [name, value] = cookie.split('=') as [string, string];
    const decoded = decodeURIComponent(value);
    const signature = decoded.slice(decoded.lastIndexOf('.'));
    const forged = [
      `${name}=${encodeURIComponent(decoded.replace('alice', 'referee'))}`,
      `${name}=${encodeURIComponent(JSON.stringify(['referee', [page.split('/c/')[1]]]))}`,
      `${name}=${encodeURIComponent(`["referee",["x"]]${signature}`)}`,
      `${name}=garbage`,
    ];
    for (const c of forged) for (const route of routes(page)) expect((await get(route, c)).status, `${c} ${route}`).toBe(404);
    for (const route of routes(page).slice(0, 3)) expect((await get(route, cookie)).status, route).toBe(200);
  });

  it('GIVEN alice\'s session WHEN she asks for another campaign, another army (bob\'s, or none), or a day not played THEN 404 with nothing in it', async () => {
    w = await webHarness({ setup: fogSetup() });
    const other = await w.h.run('@referee /campaign create scenario:valormr name:"Other"');
    expect(other.at(-1)?.data).toMatchObject({ error: 'campaign.exists' });
    const { cookie, page } = await w.login(await w.link('alice'));
    const base = page.replace(/\/c\/.*$/, '');
    for (const route of routes(`${base}/c/ffffffff`)) expect((await get(route, cookie)).status).toBe(404);
    for (const q of ['?as=grallune', '?as=nobody', '?as=../x', '?day=7', '?day=-1', '?day=x']) {
      for (const path of ['/page.json', '/map.png']) {
        const r = await get(`${page}${path}${q}`, cookie);
        expect(r.status, `${path}${q}`).toBe(404);
        expect(await r.text()).not.toMatch(/grallune|Fog/i);
      }
    }
    expect((await get(`${page}/page.json?as=hadewych`, cookie)).status).toBe(200);
  });

  it('GIVEN carol, who neither referees nor commands THEN /web tells her why there is no page', async () => {
    w = await webHarness({ setup: fogSetup() });
    const out = await w.h.run('@carol /web');
    expect(out.at(-1)).toMatchObject({ to: 'ephemeral', data: { error: 'web.notInCampaign' } });
    expect(out.at(-1)?.content).toMatch(/neither the referee nor a commander/);
  });

  it('GIVEN many wrong links from one address THEN the login route answers 429 after 20 a minute', async () => {
    w = await webHarness({ setup: fogSetup() });
    const codes: number[] = [];
    for (let i = 0; i < 22; i++) codes.push((await get(`${w.web.url}/login/x${i}.y`)).status);
    expect(codes.slice(0, 20).every((c) => c === 404)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });

  it('GIVEN the page behind a TLS proxy (an https WEB_PUBLIC_URL) THEN links use that address, the cookie is Secure, HSTS is sent, and the rate limit counts the X-Forwarded-For address from the loopback proxy', async () => {
    w = await webHarness({ setup: fogSetup(), web: { publicUrl: 'https://valormr.example.org' } });
    const url = await w.link('alice');
    expect(url).toMatch(/^https:\/\/valormr\.example\.org\/login\//);
    const r = await get(url.replace('https://valormr.example.org', w.web.url), undefined);
    expect(r.status).toBe(303);
    expect(r.headers.get('set-cookie')).toMatch(/; Secure/);
    expect(r.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const from = (ip: string, i: number) => fetch(`${w!.web.url}/login/x${i}.y`, { redirect: 'manual', headers: { 'x-forwarded-for': ip } });
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await from('203.0.113.7', i)).status);
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(404)); // the login above came from the proxy itself, another address
    expect(codes.at(-1)).toBe(429);
    // Another address behind the same proxy is not limited by the first one's tries.
    expect((await from('198.51.100.9', 99)).status).toBe(404);
  });

  it('GIVEN WEB_TRUST_PROXY naming another proxy THEN X-Forwarded-For from loopback is not believed; a bad WEB_TRUST_PROXY is refused naming what is accepted', async () => {
    w = await webHarness({ setup: fogSetup(), web: { publicUrl: 'https://valormr.example.org', trustProxy: '172.17.0.1' } });
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await fetch(`${w.web.url}/login/x${i}.y`, { redirect: 'manual', headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status);
    expect(codes.at(-1)).toBe(429);
    expect(loadConfig({ WEB_TRUST_PROXY: '172.17.0.1, 10.0.0.0/8,loopback' }).WEB_TRUST_PROXY).toBe('172.17.0.1, 10.0.0.0/8,loopback');
    expect(() => loadConfig({ WEB_TRUST_PROXY: 'my-proxy' })).toThrow(/WEB_TRUST_PROXY: off, loopback, or addresses and networks/);
    expect(() => loadConfig({ WEB_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/WEB_TRUST_PROXY/);
  });

  it('GIVEN no public URL (the page on loopback, no proxy) THEN the cookie is not Secure, no HSTS, and X-Forwarded-For is ignored: one address, one limit', async () => {
    w = await webHarness({ setup: fogSetup() });
    const r = await get(await w.link('alice'));
    expect(r.headers.get('set-cookie')).not.toMatch(/Secure/);
    expect(r.headers.get('strict-transport-security')).toBeNull();
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await fetch(`${w.web.url}/login/x${i}.y`, { redirect: 'manual', headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status);
    expect(codes.at(-1)).toBe(429);
  });

  it('GIVEN an open page WHEN a tick is played, then undone, then the campaign deleted THEN the page\'s events say update, update, gone; and its routes are 404 after', async () => {
    w = await webHarness({ setup: fogSetup() });
    const { cookie, page } = await w.login(await w.link('alice'));
    const seen: string[] = [];
    const res = await fetch(`${page}/events`, { headers: { cookie } });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const next = async (kind: string): Promise<void> => {
      while (!buffer.includes(`event: ${kind}`)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${kind}`);
        buffer += decoder.decode(value);
      }
      seen.push(kind);
      buffer = buffer.slice(buffer.indexOf(`event: ${kind}`) + kind.length + 7);
    };
    await next('hello');
    await w.h.run('!tick');
    await next('update');
    await w.h.run('@referee /turn undo');
    await next('update');
    await w.h.run('@referee /campaign delete confirm:"Fog"');
    await next('gone');
    expect(seen).toEqual(['hello', 'update', 'update', 'gone']);
    for (const route of routes(page)) expect((await get(route, cookie)).status).toBe(404);
  });
});

describe('Log in with Discord (OAuth2, identify scope) against a fake provider on loopback', () => {
  let fake: Server | undefined;
  afterEach(() => fake?.close());

  async function fakeDiscord(): Promise<{ base: string; asked: string[] }> {
    const asked: string[] = [];
    fake = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url === '/api/oauth2/token' && new URLSearchParams(body).get('code') === 'good-code' && new URLSearchParams(body).get('client_secret') === 'shh') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'tok', token_type: 'Bearer', scope: 'identify' }));
        } else if (req.url === '/api/users/@me' && req.headers.authorization === 'Bearer tok') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: '424242', username: 'alice' }));
        } else res.writeHead(401).end('{}');
      });
    });
    await new Promise<void>((r) => fake!.listen(0, '127.0.0.1', r));
    const port = (fake.address() as { port: number }).port;
    return { base: `http://127.0.0.1:${port}/api`, asked };
  }

  it('GIVEN alice is Discord user 424242 WHEN she logs in with Discord THEN the state is checked, the code exchanged, and she lands on her page', async () => {
    const discord = await fakeDiscord();
    w = await webHarness({ setup: `${fogSetup()}\n@referee /campaign assign army:minke user:424242`, web: { oauth: discordProvider('app-1', 'shh', discord.base) } });
    const start = await get(`${w.web.url}/login/discord`);
    expect(start.status).toBe(303);
    const to = new URL(start.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(`${discord.base}/oauth2/authorize`);
    expect(to.searchParams.get('scope')).toBe('identify');
    expect(to.searchParams.get('client_id')).toBe('app-1');
    const state = to.searchParams.get('state')!;
    const stateCookie = start.headers.get('set-cookie')!.split(';')[0]!;
    const callback = `${w.web.url}/login/discord/callback`;
    // The wrong state, or none, or the right state without the cookie that carries it: 404, no token asked for.
    expect((await get(`${callback}?code=good-code&state=${state}x`, stateCookie)).status).toBe(404);
    expect((await get(`${callback}?code=good-code`, stateCookie)).status).toBe(404);
    expect((await get(`${callback}?code=good-code&state=${state}`)).status).toBe(404);
    expect(discord.asked).toEqual([]);
    // A code the provider refuses: 404.
    expect((await get(`${callback}?code=bad&state=${state}`, stateCookie)).status).toBe(404);
    const ok = await get(`${callback}?code=good-code&state=${state}`, stateCookie);
    expect(ok.status).toBe(303);
    const page = `${w.web.url}${ok.headers.get('location')}`;
    const session = ok.headers.get('set-cookie')!.split(',').map((c) => c.trim()).find((c) => c.startsWith('valormr_session='))!.split(';')[0]!;
    const data = await (await get(`${page}/page.json`, session)).json() as { armies: { id: string }[] };
    expect(data.armies.map((a) => a.id)).toEqual(['minke']);
    expect(discord.asked).toContain('GET /api/users/@me');
  });
});
