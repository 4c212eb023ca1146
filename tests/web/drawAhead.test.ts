import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';

/*
 * Issue 28: the first visit after a tick serves a stored view. The web server draws the first
 * view of each reader who opened their page lately when their campaign moves (src/web/
 * drawAhead.ts), and stores it (storedViews.ts): the visit after the tick, in this process or a
 * freshly started one, draws nothing, and gets the very bytes a visit would have drawn. A change
 * out of the reader's sight draws nothing; a person who never opened their page is not drawn for;
 * the readers are remembered across a restart. On both stores: on PostgreSQL, which has no file
 * to sit beside, the views are kept in RENDER_CACHE_DIR (webHarness's `renderCacheDir`).
 */

/** Where the store is, and where its stored views go (`web/` in the static layers' folder). */
const stores = [
  { store: 'SQLite', open: (dir: string) => ({ databasePath: join(dir, 'campaign.db'), layers: join(dir, 'campaign.db-layers') }) },
  { store: 'PostgreSQL', open: (dir: string) => ({ databasePath: freshPostgresDatabase(), layers: join(dir, 'render-cache') }) },
];

let w: WebHarness | undefined;
const others: WebServer[] = [];
afterEach(async () => {
  for (const s of others.splice(0)) await s.close();
  await w?.close();
  w = undefined;
});

const get = (url: string, cookie: string) => fetch(url, { headers: { cookie } });
const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

describe.each(stores)('first views drawn ahead ($store)', ({ store, open }) => {
  it('GIVEN alice opened her page WHEN a tick moves her view THEN her new first view is drawn and stored ahead: her next visit (and a fresh process\'s) draws nothing and gets the bytes a visit draws; a hidden move draws nothing; bob (no visit) is not drawn for; a restarted server still draws for her', { timeout: 300_000 }, async () => {
    const { databasePath, layers } = open(mkdtempSync(join(tmpdir(), 'valormr-ahead-')));
    const webDir = join(layers, 'web');
    const drawn: string[] = [];
    const pictures = () => drawn.filter((d) => d.startsWith('picture'));
    const checks: (() => void)[] = [];
    const checkNow = async (server: WebServer) => {
      for (const c of checks) c();
      await server.drawnAhead();
    };
    w = await webHarness({ setup: fogSetup({ bobAt: '0510' }), ticks: 1, databasePath, renderCacheDir: store === 'PostgreSQL' ? layers : undefined, web: { drawn: (what, key) => drawn.push(`${what} ${key}`), drawAhead: { schedule: (c) => (checks.push(c), () => undefined) } } });
    const { cookie, page } = await w.login(await w.link('alice'));
    expect((await get(page, cookie)).status).toBe(200);
    const readers = readdirSync(webDir).filter((f) => /^readers-[0-9a-f]{16}\.json$/.test(f));
    expect(readers).toHaveLength(1);
    expect(Object.keys(JSON.parse(readFileSync(join(webDir, readers[0]!), 'utf8')) as object)).toEqual([expect.stringMatching(/\nalice$/)]);
    await checkNow(w.web);
    // Her view as it stands: drawn once (her login warms it; the first check finds it kept), for alice only.
    expect(pictures()).toHaveLength(1);
    expect(drawn.every((d) => d.includes('|alice|'))).toBe(true);

    // A tick: her view changes; the check draws it ahead; her visit then draws nothing.
    await w.h.run('!tick');
    drawn.length = 0;
    await checkNow(w.web);
    expect(pictures()).toHaveLength(1);
    drawn.length = 0;
    const visit = await get(`${page}/first.png`, cookie);
    expect(visit.status).toBe(200);
    const ahead = await bytes(visit);
    expect(pictures()).toEqual([]);

    expect(readdirSync(webDir).filter((f) => f.endsWith('.view')).length).toBeGreaterThan(0);
    // A freshly started process (its memory empty) serves the view stored ahead: nothing drawn.
    const fresh = await startWebServer(w.h.app, { port: 0, drawn: (what, key) => drawn.push(`${what} ${key}`) });
    others.push(fresh);
    const again = await w.login(await w.link('alice'));
    const fromFresh = await get(`${again.page.replace(w.web.url, fresh.url)}/first.png`, again.cookie);
    expect((await bytes(fromFresh)).equals(ahead)).toBe(true);
    expect(fromFresh.headers.get('etag')).toBe(visit.headers.get('etag'));
    expect(pictures()).toEqual([]);

    // Bob moves out of alice's sight (the campaign's raw version moves, her view does not): nothing drawn.
    const moved = await w.h.run('@bob /move to:0512');
    expect(moved.some((o) => (o.data as { error?: string } | undefined)?.error)).toBe(false);
    drawn.length = 0;
    await checkNow(w.web);
    expect(pictures()).toEqual([]);

    // A restarted server, its readers read from readers.json: the next tick is drawn ahead for alice, unasked.
    await w.h.run('!tick');
    const restarted = await startWebServer(w.h.app, { port: 0, drawn: (what, key) => drawn.push(`${what} ${key}`), drawAhead: { schedule: (c) => (checks.splice(0, checks.length, c), () => undefined) } });
    others.push(restarted);
    drawn.length = 0;
    await checkNow(restarted);
    expect(pictures()).toHaveLength(1);
    expect(drawn.every((d) => d.includes('|alice|'))).toBe(true);
    const r = await w.login(await w.link('alice'));
    drawn.length = 0;
    const restartedPng = await bytes(await get(`${r.page.replace(w.web.url, restarted.url)}/first.png`, r.cookie));
    expect(pictures()).toEqual([]);

    // With nothing stored, a visit draws exactly the bytes drawn ahead.
    rmSync(webDir, { recursive: true, force: true });
    const blank = await startWebServer(w.h.app, { port: 0, drawn: (what, key) => drawn.push(`${what} ${key}`) });
    others.push(blank);
    const b = await w.login(await w.link('alice'));
    expect((await bytes(await get(`${b.page.replace(w.web.url, blank.url)}/first.png`, b.cookie))).equals(restartedPng)).toBe(true);
    expect(pictures()).toHaveLength(1);
  });
});
