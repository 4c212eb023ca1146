import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/app/campaign/createCampaign.js';
import { CampaignWatch } from '../../src/web/campaignWatch.js';
import { DrawAhead } from '../../src/web/drawAhead.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { sqlRows } from '../support/sql.js';
import { statementsRun } from './statementCount.js';
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
const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'valormr-ahead-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  for (const s of others.splice(0)) await s.close();
  await w?.close();
  w = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, cookie: string) => fetch(url, { headers: { cookie } });
const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

describe.each(stores)('first views drawn ahead ($store)', ({ store, open }) => {
  it('GIVEN alice opened her page WHEN a tick moves her view THEN her new first view is drawn and stored ahead: her next visit (and a fresh process\'s) draws nothing and gets the bytes a visit draws; a hidden move draws nothing; bob (no visit) is not drawn for; a restarted server still draws for her', { timeout: 300_000 }, async () => {
    const { databasePath, layers } = open(tempDir());
    const webDir = join(layers, 'web');
    const drawn: string[] = [];
    const pictures = () => drawn.filter((d) => d.startsWith('picture'));
    const checks: (() => void)[] = [];
    const checkNow = async (server: WebServer) => {
      for (const c of checks) c();
      await server.drawnAhead();
    };
    w = await webHarness({ setup: fogSetup({ bobAt: '0510' }), ticks: 1, databasePath, renderCacheDir: store === 'PostgreSQL' ? layers : undefined, web: { drawn: (what, key) => drawn.push(`${what} ${key}`), drawAhead: true, schedule: (c) => (checks.push(c), () => undefined) } });
    const { cookie, page } = await w.login(await w.link('alice'));
    expect((await get(page, cookie)).status).toBe(200);
    const readers = readdirSync(webDir).filter((f) => /^readers-[0-9a-f]{16}\.json$/.test(f));
    expect(readers).toHaveLength(1);
    expect(Object.keys(JSON.parse(readFileSync(join(webDir, readers[0]!), 'utf8')) as object)).toEqual([expect.stringMatching(/\nalice$/)]);
    await checkNow(w.web);
    // Her view as it stands: drawn once (her login warms it; the first check finds it kept), for alice only.
    expect(pictures()).toHaveLength(1);
    expect(drawn.every((d) => d.includes('|alice|'))).toBe(true);

    // A tick: her view changes; its commit has it drawn ahead (at the next round here, where the test runs the
    // rounds; at once with the server's own timer: the test below); her visit then draws nothing.
    drawn.length = 0;
    await w.h.run('!tick');
    await checkNow(w.web);
    expect(pictures()).toHaveLength(1);
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
    drawn.length = 0;
    const moved = await w.h.run('@bob /move to:0512');
    expect(moved.some((o) => (o.data as { error?: string } | undefined)?.error)).toBe(false);
    await checkNow(w.web);
    expect(pictures()).toEqual([]);

    // A restarted server, its readers read from readers.json: the next tick (played while it was
    // down, as by another process: no commit of its own tells it) is drawn ahead for alice, unasked.
    const h = w.h;
    await w.web.close();
    w = { ...w, close: async () => h.close() };
    await w.h.run('!tick');
    const restarted = await startWebServer(w.h.app, { port: 0, drawn: (what, key) => drawn.push(`${what} ${key}`), drawAhead: true, schedule: (c) => (checks.splice(0, checks.length, c), () => undefined) });
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

  it('GIVEN readers of four campaigns WHEN nothing moves THEN each round of the watch costs ONE statement for all of them; a write committed here is drawn at once, with no check; a tick by another process is found by the next check, for its readers only', { timeout: 120_000 }, async () => {
    const { databasePath } = open(tempDir());
    w = await webHarness({ setup: fogSetup({ bobAt: '0510' }), databasePath });
    const app = w.h.app;
    const ids = ['two', 'three', 'four'].map((ch) => {
      createCampaign(app, { userId: 'referee', userName: 'referee', guildId: 'console', channelId: ch, roleIds: [] }, { name: `Campaign ${ch}`, scenario: 'valormr' });
      return String(sqlRows(app.db, 'select id from campaigns where channel_id = ?', ch)[0]?.[0]);
    });
    const first = String(sqlRows(app.db, 'select id from campaigns where channel_id = ?', 'console')[0]?.[0]);
    const asked: string[] = [];
    // The server's watch with its own timer (an hour: the test runs the rounds itself), so a commit is told at once.
    const watch = new CampaignWatch(app, { everyMs: 3_600_000 });
    const check = (): void => watch.round();
    const ahead = new DrawAhead({ app, dir: undefined, viewOf: (s) => ({ key: `${s.campaignId}|${s.userId}`, draw: async () => Buffer.alloc(0) }), first: async (key) => asked.push(key) }, watch);
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    try {
      for (const campaignId of [first, ...ids]) for (const userId of ['alice', 'carol']) ahead.seen({ campaignId, userId });
      check();
      await ahead.drawn();
      expect(asked).toHaveLength(8);

      // Idle: five checks, five statements (the old check read two per campaign: 40).
      asked.length = 0;
      const idle = await statementsRun(app.db, () => {
        for (let i = 0; i < 5; i++) check();
      });
      expect(idle, idle.join('\n')).toHaveLength(5);
      expect(new Set(idle).size).toBe(1);
      expect(idle[0]).toMatch(/campaigns/);
      await ahead.drawn();
      expect(asked).toEqual([]);

      // A tick committed by this process: its readers' views are asked for at once (the next turn of the event loop), by no check.
      await w.h.run('!tick');
      await tick();
      await ahead.drawn();
      expect(asked.sort()).toEqual([`${first}|alice`, `${first}|carol`]);
      asked.length = 0;
      check();
      await ahead.drawn();
      expect(asked).toEqual([]);

      // Another process's write (its revision moved in the store, no commit here): the next check finds it, for that campaign's readers only.
      sqlRows(app.db, 'update campaigns set revision = revision + 1 where id = ?', ids[1]);
      await ahead.drawn();
      expect(asked).toEqual([]);
      check();
      await ahead.drawn();
      expect(asked.sort()).toEqual([`${ids[1]}|alice`, `${ids[1]}|carol`]);
    } finally {
      ahead.close();
      watch.close();
    }
  });
});
