import { afterEach, describe, expect, it } from 'vitest';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';

const worlds: WebHarness[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

interface Pyramid { width: number; height: number; tileSize: number; minLevel: number; maxLevel: number }

/**
 * Everything a reader's page serves, as the page asks for it: its data (its version included),
 * the map's pyramid (map.json), a few tiles by the very URLs the page builds (`?v=<version>` on
 * the live view's), their bytes, and the whole picture; now and on each day.
 */
async function pageBytes(w: WebHarness, user: string): Promise<Record<string, string>> {
  const { cookie, page } = await w.login(await w.link(user));
  const get = async (path: string): Promise<Buffer> => {
    const r = await fetch(`${page}${path}`, { headers: { cookie } });
    expect(r.status, path).toBe(200);
    return Buffer.from(await r.arrayBuffer());
  };
  const out: Record<string, string> = {};
  const view = async (q: string): Promise<{ days: number[] }> => {
    const json = (await get(`/page.json${q}`)).toString();
    const data = JSON.parse(json) as { days: number[]; version: string; day: number | null };
    out[`page.json${q}`] = json;
    const pyramid = (await get(`/map.json${q}`)).toString();
    out[`map.json${q}`] = pyramid;
    const p = JSON.parse(pyramid) as Pyramid;
    // The tile URLs as page.js builds them: the live view's carry the version, a past day's its day.
    const tq = data.day === null ? `?v=${encodeURIComponent(data.version)}` : q;
    for (const [level, x, y] of [[p.minLevel, 0, 0], [p.maxLevel, 0, 0], [p.maxLevel, 1, 1]] as const) {
      const url = `/tile/${level}/${x}/${y}.png${tq}`;
      out[`tile ${level}/${x}/${y}${q}`] = `${url} ${(await get(url)).toString('base64')}`;
    }
    out[`map.png${q}`] = (await get(`/map.png${q}`)).toString('base64');
    // The first view the page's HTML shows before the viewer loads, and its entity tag.
    const first = await fetch(`${page}/first.png${q}`, { headers: { cookie } });
    expect(first.status).toBe(200);
    out[`first.png${q}`] = `${first.headers.get('etag')} ${Buffer.from(await first.arrayBuffer()).toString('base64')}`;
    return data;
  };
  const now = await view('');
  for (const day of now.days) await view(`?day=${day}`);
  return out;
}

describe('the web page as one more reader of the differential secrecy test', () => {
  it('GIVEN two fog-of-war worlds that differ only in hidden facts (where Bob\'s army hides from Alice, and one more hidden move of it) WHEN a day and more are played THEN every byte Alice\'s page is served (data and its version, map.json, tile URLs and tiles, map now and of each day) is the same, and Bob\'s is not', { timeout: 300_000 }, async () => {
    worlds.push(await webHarness({ setup: fogSetup({ bobAt: '2027' }), ticks: 5 }));
    // The second world: Bob's army stands elsewhere, moved there by one more (hidden) edit, so its log and stored revision run ahead.
    worlds.push(await webHarness({ setup: `${fogSetup({ bobAt: '2027' })}\n@referee /army edit army:grallune hex:2128`, ticks: 5 }));
    const [a, b] = worlds as [WebHarness, WebHarness];
    const alice = [await pageBytes(a, 'alice'), await pageBytes(b, 'alice')] as const;
    expect(Object.keys(alice[0])).toContain('map.png?day=1');
    expect(alice[0]['page.json']).toContain('"version"');
    for (const key of Object.keys(alice[0])) expect(alice[1][key], key).toBe(alice[0][key]);
    expect(Object.keys(alice[1])).toEqual(Object.keys(alice[0]));
    // The hidden fact is real: Bob's own page tells the two worlds apart.
    const bob = [await pageBytes(a, 'bob'), await pageBytes(b, 'bob')] as const;
    expect(bob[1]['map.png']).not.toBe(bob[0]['map.png']);
    expect(bob[1]['page.json']).not.toBe(bob[0]['page.json']);
  });
});
