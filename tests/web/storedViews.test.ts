import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';
import { testTempDir } from '../support/tempDirs.js';

/*
 * Issue 28: a freshly started process serves a reader's first view without drawing. The first
 * view (first.png) and the pyramid's size are kept on disk beside the database when made; a new
 * server (a restarted process: nothing in its memory) reads them from there. A view that changed
 * (a tick) is drawn anew; a damaged file is never trusted.
 */

let w: WebHarness | undefined;
let second: WebServer | undefined;
afterEach(async () => {
  await second?.close();
  second = undefined;
  await w?.close();
  w = undefined;
});

const get = (url: string, cookie: string) => fetch(url, { headers: { cookie } });
const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

describe('first views kept beside the database', () => {
  it('GIVEN alice\'s first view made by one server WHEN a fresh server serves her page THEN first.png and map.json come without drawing, the same bytes; a tick draws anew; a damaged file is drawn again', { timeout: 300_000 }, async () => {
    const dir = testTempDir('valormr-stored-');
    const databasePath = join(dir, 'campaign.db');
    w = await webHarness({ setup: fogSetup(), ticks: 1, databasePath });
    const { cookie, page } = await w.login(await w.link('alice'));
    const first = await get(`${page}/first.png`, cookie);
    expect(first.status).toBe(200);
    const firstPng = await bytes(first);
    const pyramid = await (await get(`${page}/map.json`, cookie)).json();
    const stored = join(`${databasePath}-layers`, 'web');
    await vi.waitFor(() => expect(readdirSync(stored).filter((f) => f.endsWith('.view'))).toHaveLength(1));

    // A fresh server on the same database: its caches are empty, as a restarted process's are.
    const drawn: string[] = [];
    const fresh = async () => {
      await second?.close();
      second = await startWebServer(w!.h.app, { port: 0, drawn: (what, key) => drawn.push(`${what} ${key}`) });
      const again = await w!.login(await w!.link('alice'));
      return { cookie: again.cookie, page: again.page.replace(w!.web.url, second.url) };
    };
    let s = await fresh();
    const again = await get(`${s.page}/first.png`, s.cookie);
    expect(again.status).toBe(200);
    expect((await bytes(again)).equals(firstPng)).toBe(true);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await (await get(`${s.page}/map.json`, s.cookie)).json()).toEqual(pyramid);
    // The levels below the first view are scaled from it: the viewer's first view needs no picture drawn either.
    const p = pyramid as { minLevel: number; maxLevel: number };
    expect((await get(`${s.page}/tile/${p.minLevel}/0/0.png`, s.cookie)).status).toBe(200);
    expect(drawn.filter((d) => d.startsWith('picture'))).toEqual([]);

    // A tick changes alice's view: a new key, drawn anew (and stored too).
    await w.h.run('!tick');
    drawn.length = 0;
    const after = await get(`${s.page}/first.png`, s.cookie);
    expect(after.status).toBe(200);
    const afterPng = await bytes(after);
    expect(afterPng.equals(firstPng)).toBe(false);
    expect(drawn.filter((d) => d.startsWith('picture'))).toHaveLength(1);
    await vi.waitFor(() => expect(readdirSync(stored).filter((f) => f.endsWith('.view'))).toHaveLength(2));

    // Every stored file damaged (one byte of its picture changed): never trusted, drawn again, the right bytes.
    for (const f of readdirSync(stored)) {
      const b = readFileSync(join(stored, f));
      b.writeUInt8(b.readUInt8(b.length - 20) ^ 0xff, b.length - 20);
      writeFileSync(join(stored, f), b);
    }
    drawn.length = 0;
    s = await fresh();
    const redrawn = await get(`${s.page}/first.png`, s.cookie);
    expect((await bytes(redrawn)).equals(afterPng)).toBe(true);
    expect(drawn.filter((d) => d.startsWith('picture'))).toHaveLength(1);
  });
});
