import { afterEach, describe, expect, it } from 'vitest';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';

const worlds: WebHarness[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

/** Everything a reader's page serves: its data (less the change fingerprint, which carries a wall-clock write time) and its map pictures, now and on each day. */
async function pageBytes(w: WebHarness, user: string): Promise<Record<string, string>> {
  const { cookie, page } = await w.login(await w.link(user));
  const get = async (path: string): Promise<Buffer> => {
    const r = await fetch(`${page}${path}`, { headers: { cookie } });
    expect(r.status, path).toBe(200);
    return Buffer.from(await r.arrayBuffer());
  };
  const data = JSON.parse((await get('/page.json')).toString()) as { days: number[]; version?: string };
  delete data.version;
  const out: Record<string, string> = { 'page.json': JSON.stringify(data), 'map.png': (await get('/map.png')).toString('base64') };
  for (const day of data.days) {
    const d = JSON.parse((await get(`/page.json?day=${day}`)).toString()) as { version?: string };
    delete d.version;
    out[`page.json?day=${day}`] = JSON.stringify(d);
    out[`map.png?day=${day}`] = (await get(`/map.png?day=${day}`)).toString('base64');
  }
  return out;
}

describe('the web page as one more reader of the differential secrecy test', () => {
  it('GIVEN two fog-of-war worlds that differ only in where Bob\'s army hides from Alice WHEN a day and more are played THEN every byte of Alice\'s page (data, map now, map of each day) is the same, and Bob\'s is not', { timeout: 300_000 }, async () => {
    for (const bobAt of ['2027', '2128']) worlds.push(await webHarness({ setup: fogSetup({ bobAt }), ticks: 5 }));
    const [a, b] = worlds as [WebHarness, WebHarness];
    const alice = [await pageBytes(a, 'alice'), await pageBytes(b, 'alice')] as const;
    expect(Object.keys(alice[0])).toContain('map.png?day=1');
    for (const key of Object.keys(alice[0])) expect(alice[1][key], key).toBe(alice[0][key]);
    expect(Object.keys(alice[1])).toEqual(Object.keys(alice[0]));
    // The hidden fact is real: Bob's own page tells the two worlds apart.
    const bob = [await pageBytes(a, 'bob'), await pageBytes(b, 'bob')] as const;
    expect(bob[1]['map.png']).not.toBe(bob[0]['map.png']);
  });
});
