import { afterEach, describe, expect, it } from 'vitest';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { webHarness, type WebHarness } from './webHarness.js';

/*
 * Issue 28, item 5: the spectator page. Off by default (every route 404); on, anyone with its
 * public link sees the public map and chronicle as they stood the referee's number of half
 * periods ago, and nothing newer.
 */

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const SETUP = [
  '@referee /campaign create scenario:valormr name:"Watched"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:grallune user:bob',
  '@referee /campaign start',
  '@referee /army edit army:grallune hex:2027',
].join('\n');

const REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };

async function spectatorBase(h: WebHarness): Promise<string> {
  const id = readCampaign(h.h.app, { actor: REFEREE }, (tx) => tx.meta.id);
  return `${h.web.url}/s/${id}`;
}

const get = (url: string) => fetch(url, { redirect: 'manual' });
async function page(base: string): Promise<Record<string, unknown>> {
  const r = await get(`${base}/page.json`);
  expect(r.status).toBe(200);
  const { version: _v, spectator: _s, ...rest } = (await r.json()) as Record<string, unknown>;
  return rest;
}
async function map(base: string): Promise<string> {
  const r = await get(`${base}/map.png`);
  expect(r.status).toBe(200);
  return Buffer.from(await r.arrayBuffer()).toString('base64');
}

describe('the spectator page', () => {
  it('GIVEN a campaign WHEN spectators are not turned on THEN its spectator routes are 404, and /web tells an outsider nothing of it', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: SETUP, ticks: 1 });
    const base = await spectatorBase(w);
    for (const path of ['', '/page.json', '/map.png', '/events']) expect((await get(`${base}${path}`)).status, path).toBe(404);
    // A campaign that does not exist: the same plain 404.
    for (const path of ['', '/page.json', '/map.png', '/map.json', '/events']) expect((await get(`${w.web.url}/s/no-such-campaign${path}`)).status, path).toBe(404);
    const out = await w.h.run('@carol /web');
    expect(out.at(-1)?.content).toMatch(/neither the referee nor a commander/);
  });

  it('GIVEN spectators:2 WHEN two more half periods are played THEN the page shows exactly what a live (spectators:0) page showed two half periods before, and nothing newer', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: `${SETUP}\n@referee /campaign settings spectators:0`, ticks: 1 });
    const base = await spectatorBase(w);
    const live = { page: await page(base), map: await map(base) };
    expect(JSON.stringify(live.page)).toContain('placed Army of Grallune at 2027');
    // After the half period shown: Bob moves (a public line, and a new map), and spectators lag two half periods.
    await w.h.run('@referee /army edit army:grallune hex:2128', '@referee /campaign settings spectators:2');
    expect(JSON.stringify(await page(base))).not.toContain('2128');
    await w.h.run('!tick 2');
    const delayed = { page: await page(base), map: await map(base) };
    expect(delayed.page).toEqual(live.page);
    expect(delayed.map).toBe(live.map);
    expect(JSON.stringify(delayed.page)).not.toMatch(/2128|spectators on, 2/);
    // An outsider's /web gives the public link; alice's page link comes with it.
    const carol = await w.h.run('@carol /web');
    expect(carol.at(-1)?.content).toContain(base);
    expect((carol.at(-1)?.data as { spectatorUrl?: string }).spectatorUrl).toBe(base);
    // Turned off: gone again.
    await w.h.run('@referee /campaign settings spectators:off');
    expect((await get(`${base}/page.json`)).status).toBe(404);
  });

  it('GIVEN fog of war and spectators:0 WHEN bob moves unseen THEN the spectator map shows no army and the chronicle no position, and stays the same wherever bob stands', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: `${SETUP}\n@referee /campaign settings positions:fog! spectators:0`, ticks: 1 });
    const base = await spectatorBase(w);
    const before = await map(base);
    await w.h.run('@referee /army edit army:grallune hex:2128', '!tick');
    const at2128 = await map(base);
    await w.h.run('@referee /turn undo', '@referee /army edit army:grallune hex:2230', '!tick');
    expect(await map(base)).toBe(at2128);
    expect(before).not.toBe(at2128); // a half period later: the title's time differs
    expect(JSON.stringify(await page(base))).not.toMatch(/2128|2230/);
  });

  it('GIVEN an open spectator page WHEN the campaign is switched to fog, then deleted THEN the switch is pushed as an update, and then the page shows fog and its map is the same wherever bob (unseen) stands; the deletion ends the stream with gone, and every route is 404', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: `${SETUP}\n@referee /campaign settings spectators:0`, ticks: 1 });
    const base = await spectatorBase(w);
    const res = await get(`${base}/events`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (kind: string): Promise<void> => {
      while (!text.includes(`event: ${kind}`)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${kind}`);
        text += decoder.decode(value);
      }
    };
    await until('hello');
    expect(JSON.stringify(await page(base))).toContain('placed Army of Grallune at 2027');
    await w.h.run('@referee /campaign settings positions:fog!', '@referee /army edit army:grallune hex:2128', '!tick');
    await until('update');
    expect((await page(base)).campaign).toMatchObject({ fog: true });
    const at2128 = await map(base);
    // The same half period played again with bob elsewhere: nothing on the page tells where.
    await w.h.run('@referee /turn undo', '@referee /army edit army:grallune hex:2230', '!tick');
    expect(await map(base)).toBe(at2128);
    expect(JSON.stringify(await page(base))).not.toMatch(/2128|2230/);
    await w.h.run('@referee /campaign delete confirm:"Watched"');
    await until('gone');
    for (const path of ['', '/page.json', '/map.png', '/map.json', '/events']) expect((await get(`${base}${path}`)).status, path).toBe(404);
  });

  it('GIVEN spectators:bad WHEN the referee sets it THEN the refusal says what is accepted', async () => {
    w = await webHarness({ setup: SETUP });
    const out = await w.h.run('@referee /campaign settings spectators:soon', '@referee /campaign settings spectators:401');
    expect(out[0]?.content).toMatch(/`spectators` takes `off`.*from 0 to 400/);
    expect(out[1]?.content).toMatch(/`spectators` takes `off`.*from 0 to 400/);
  });
});
