import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';

/*
 * Issue 28: the page's map as deep-zoom tiles. The first paint needs only the first (1,600 px)
 * picture; the 3,200 px one is drawn when someone zooms that far; every picture and tile is drawn
 * once, then served from cache (the server tells each draw, and the test counts them). A login
 * draws the person's first picture and scales the first view (first.png: the level 800 px wide,
 * whole) while the browser loads the page; the first view's tiles (up to the 800 px level) are cut
 * once first.png has gone, not during the first paint.
 */

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', ...(cookie ? { headers: { cookie } } : {}) });

describe('the map as tiles, each drawn once', () => {
  it('GIVEN alice\'s page WHEN the pyramid and its tiles are asked for twice THEN each picture is drawn once and each tile cut once; a tick draws anew; a tile off the pyramid is 404', { timeout: 300_000 }, async () => {
    const drawn: string[] = [];
    w = await webHarness({ setup: `${fogSetup()}\n@referee /campaign settings spectators:0`, ticks: 1, web: { drawn: (what, key) => drawn.push(`${what} ${key}`) } });
    const { cookie, page } = await w.login(await w.link('alice'));
    // The login set the first view going (the first picture, scaled to 800 px); nothing is cut before the page has its first view.
    const cut = () => drawn.filter((d) => d.startsWith('tile'));
    await vi.waitFor(() => expect(drawn.filter((d) => d.startsWith('level'))).toHaveLength(1), { timeout: 120_000, interval: 50 });
    expect(cut()).toEqual([]);
    // Once first.png has gone, every tile of the levels up to 800 px wide is cut (1 + 1 + 2 x 2).
    expect((await get(`${page}/first.png`, cookie)).status).toBe(200);
    await vi.waitFor(() => expect(cut()).toHaveLength(6), { timeout: 120_000, interval: 50 });
    expect(cut().map((d) => d.replace(/^.*\|t/, '')).sort()).toEqual(['10/0/0', '10/0/1', '10/1/0', '10/1/1', '8/0/0', '9/0/0']);
    const version = async () => ((await (await get(`${page}/page.json`, cookie)).json()) as { version: string }).version;
    const v = await version();
    const pyramidOf = async () => (await (await get(`${page}/map.json?v=${v}`, cookie)).json()) as { width: number; height: number; tileSize: number; minLevel: number; maxLevel: number };
    const p = await pyramidOf();
    expect(p.width).toBe(3200);
    expect(p.maxLevel).toBe(12);
    expect(p.minLevel).toBeLessThan(p.maxLevel - 2);
    expect(drawn.filter((d) => d.startsWith('picture'))).toHaveLength(1); // the first picture only
    const tiles = [[p.maxLevel - 2, 0, 0], [p.maxLevel - 1, 1, 1], [p.maxLevel, 3, 2]] as const;
    const bytes: string[] = [];
    for (const round of [1, 2]) {
      for (const [l, x, y] of tiles) {
        const r = await get(`${page}/tile/${l}/${x}/${y}.png?v=${v}`, cookie);
        expect(r.status).toBe(200);
        const png = Buffer.from(await r.arrayBuffer());
        if (round === 1) bytes.push(png.toString('base64'));
        else expect(png.toString('base64')).toBe(bytes.shift());
        const meta = await sharp(png).metadata();
        expect([meta.width, meta.height]).toEqual([512, 512]);
      }
      expect(await pyramidOf()).toEqual(p);
      expect((await get(`${page}/map.png?v=${v}`, cookie)).status).toBe(200);
    }
    // The first view (first.png): the level 800 px wide, scaled at login; the same pixels as that level's tiles put together; kept, and revalidated by its tag.
    const levels = () => drawn.filter((d) => d.startsWith('level'));
    expect(levels().map((d) => d.replace(/^.*\|L/, '')).sort()).toEqual(['10', '8', '9']);
    const first = await get(`${page}/first.png`, cookie);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const firstPng = Buffer.from(await first.arrayBuffer());
    const fm = await sharp(firstPng).metadata();
    expect([fm.width, fm.height]).toEqual([Math.ceil(p.width / 4), Math.ceil(p.height / 4)]);
    const level10 = await Promise.all([[0, 0], [1, 0], [0, 1], [1, 1]].map(async ([x, y]) => ({ input: Buffer.from(await (await get(`${page}/tile/${p.maxLevel - 2}/${x}/${y}.png?v=${v}`, cookie)).arrayBuffer()), left: x! * 512, top: y! * 512 })));
    const stitched = await sharp({ create: { width: fm.width, height: fm.height, channels: 4, background: '#000' } }).composite(level10).removeAlpha().raw().toBuffer();
    expect(stitched.equals(await sharp(firstPng).removeAlpha().raw().toBuffer())).toBe(true);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[\w-]{22}"$/);
    const again = await get(`${page}/first.png`, `${cookie}`);
    expect(Buffer.from(await again.arrayBuffer()).equals(firstPng)).toBe(true);
    const revalidated = await fetch(`${page}/first.png`, { headers: { cookie, 'if-none-match': tag! } });
    expect(revalidated.status).toBe(304);
    expect(levels()).toHaveLength(3);
    // The first picture, the full one (for the top level and map.png), the six tiles cut at login and two more: nothing twice.
    expect(drawn.filter((d) => d.startsWith('picture'))).toHaveLength(2);
    expect(cut()).toHaveLength(8);
    expect(new Set(drawn).size).toBe(drawn.length);
    // Off the pyramid, or not a number: 404.
    for (const t of [`${p.maxLevel + 1}/0/0.png`, `${p.maxLevel}/99/0.png`, `${p.minLevel - 1}/0/0.png`, 'x/0/0.png']) expect((await get(`${page}/tile/${t}?v=${v}`, cookie)).status, t).toBe(404);
    // Nobody else's tiles: no cookie, or bob asking as alice's army.
    expect((await get(`${page}/tile/${p.maxLevel}/0/0.png?v=${v}`)).status).toBe(404);
    const bob = await w.login(await w.link('bob'));
    expect((await get(`${bob.page}/tile/${p.maxLevel}/0/0.png?as=hadewych`, bob.cookie)).status).toBe(404);
    // Bob's own first view, its tiles cut once his first.png has gone.
    expect((await get(`${bob.page}/first.png`, bob.cookie)).status).toBe(200);
    await vi.waitFor(() => expect(cut().filter((d) => d.includes('|bob|'))).toHaveLength(6), { timeout: 120_000, interval: 50 });
    // A tick: a new version, new pictures.
    const before = drawn.length;
    await w.h.run('!tick');
    const v2 = await version();
    expect(v2).not.toBe(v);
    expect((await get(`${page}/tile/${p.maxLevel - 2}/0/0.png?v=${v2}`, cookie)).status).toBe(200);
    expect(drawn.slice(before).map((d) => d.split(' ')[0]).sort()).toEqual(['level', 'picture', 'tile']);
    // The spectators' tiles: the same pyramid, drawn once too.
    const id = readCampaign(w.h.app, { campaignId: page.split('/c/')[1]! }, (tx) => tx.meta.id);
    const sp = `${w.web.url}/s/${id}`;
    const n = drawn.length;
    for (let i = 0; i < 2; i++) expect((await get(`${sp}/tile/${p.maxLevel - 1}/0/0.png`)).status).toBe(200);
    expect(drawn.slice(n).map((d) => d.split(' ')[0])).toEqual(['picture', 'tile']);
  });
});
