import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { formatGameTime, fromIndex } from '../../src/engine/clock/index.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
import { assignArmy } from '../../src/app/campaign/assignCommander.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';
import { testTempDir } from '../support/tempDirs.js';

/**
 * The campaign page in a real headless Chromium (Debian's `chromium`; .ci/run installs it). No
 * timing is asserted: every wait is for a state the page reaches, with a generous timeout.
 */
// What the functions run inside the page touch (the project compiles without the DOM's types).
declare const document: { body: { dataset: Record<string, string | undefined> }; documentElement: { scrollWidth: number } };
declare const window: unknown;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WAIT = 120_000;
/** Screenshots of each run, to look at (docs/web.md holds the chosen ones): kept in WEB_SHOTS if set, else in a temporary folder removed after the file. */
const SHOTS = process.env.WEB_SHOTS ?? testTempDir('valormr-web-');

let w: WebHarness;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Five half periods: Day 1 is played to its end (a day on the timeline) and Day 2 has begun.
  // Spectators two half periods behind (a public line of its own in the chronicle).
  w = await webHarness({ setup: `${fogSetup()}\n@referee /campaign settings spectators:2`, ticks: 5 });
  // Playwright gives the browser a fresh temporary profile (--user-data-dir) itself, and each context its own cookies.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: WAIT,
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await w?.close();
});

/** A fresh browser (its own cookies), at a viewport. */
async function fresh(viewport: { width: number; height: number }, mobile = false): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: 1 });
  ctx.setDefaultTimeout(WAIT);
  return ctx;
}

/** Opens a /web link and waits until the page and its map are shown. */
async function open(ctx: BrowserContext, user: string): Promise<{ page: Page; requests: string[] }> {
  const page = await ctx.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error') console.error(`page console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) console.error(`page got ${r.status()} for ${r.url()}`); });
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  const res = await page.goto(await w.link(user));
  expect(res?.status()).toBe(200);
  await ready(page);
  return { page, requests };
}

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.map === 'open', undefined, { timeout: WAIT });
}

const text = (page: Page, sel: string) => page.locator(sel).innerText();
const REFEREE = { userId: 'referee', userName: 'referee', guildId: 'console', channelId: 'console', roleIds: [] as string[] };

describe('the campaign page in a real browser', { timeout: 300_000 }, () => {
  it('GIVEN alice\'s /web link THEN she sees her army and her map; zoomed in the hex ids read; the timeline steps back a day; no request carries the link', async () => {
    const ctx = await fresh({ width: 390, height: 844 }, true);
    const { page, requests } = await open(ctx, 'alice');
    expect(new URL(page.url()).pathname).toMatch(/^\/c\/[\w-]+$/);
    expect(await text(page, '#campaign')).toBe('Fog');
    expect(await text(page, '#armies')).toContain('Army of Hadewych');
    expect(await text(page, '#when')).toContain('fog of war');
    // No navigator thumbnail on a phone: it covered the map's south-east and its legend.
    expect(await page.locator('#map .navigator').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'phone.png') });
    // Zoom on the map (the viewer's own zoom-in button, as a thumb would) until the picture shows at least at its native size.
    for (let i = 0; i < 12 && Number(await page.evaluate(() => document.body.dataset.zoom ?? '0')) < 1; i++) {
      await page.locator('#map').dblclick({ position: { x: 195, y: 200 } });
      await page.waitForTimeout(400);
    }
    expect(Number(await page.evaluate(() => document.body.dataset.zoom))).toBeGreaterThanOrEqual(1);
    await page.waitForTimeout(1500);
    const shot = await page.locator('#map').screenshot({ path: join(SHOTS, 'phone-zoomed.png') });
    const meta = await sharp(shot).metadata();
    expect(meta.width).toBe(390);
    expect(meta.height).toBeGreaterThan(300);
    // The timeline: back to the end of Day 1, a frame of the book.
    const before = await page.evaluate(() => document.body.dataset.mapUrl);
    await page.locator('#day-prev').click();
    await page.waitForFunction(() => /day=1\b/.test(document.body.dataset.mapUrl ?? '') && document.body.dataset.map === 'open', undefined, { timeout: WAIT });
    expect(await text(page, '#day-label')).toBe('End of day 1');
    expect(await page.evaluate(() => document.body.dataset.mapUrl)).not.toBe(before);
    await page.locator('#day-now').click();
    await ready(page);
    const link = requests[0]!;
    expect(link).toContain('/login/');
    expect(requests.slice(1).some((r) => r.includes(link.split('/login/')[1]!.slice(0, 16)))).toBe(false);
    await ctx.close();
  });

  it('GIVEN a desktop browser THEN the page shows the map, armies, intel and chronicle side by side', async () => {
    const ctx = await fresh({ width: 1366, height: 900 });
    const { page } = await open(ctx, 'alice');
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(SHOTS, 'desktop.png') });
    expect(await text(page, '#chronicle')).toContain('now commands Army of Hadewych');
    expect(await page.locator('#map .navigator').count()).toBe(1);
    await ctx.close();
  });

  it('GIVEN cards with headings (an army\'s status, the referee inbox) THEN the page shows the headings in bold and no markdown mark; the referee\'s own intel says where the estimates are', async () => {
    const ctx = await fresh({ width: 1366, height: 900 });
    const { page } = await open(ctx, 'alice');
    // Before, every line was plain text: "March" and "Regiments" read like any other line.
    const headings = await page.locator('#armies .army strong').allInnerTexts();
    expect(headings).toEqual(expect.arrayContaining(['Army of Hadewych: Hadewych the Arbiter', 'Where', 'March', 'Regiments', 'Order']));
    expect(await text(page, '#armies')).toContain('Where: ');
    for (const sel of ['#armies', '#intel', '#chronicle']) expect(await text(page, sel), sel).not.toMatch(/\*\*|__/);
    const r = await fresh({ width: 1366, height: 900 });
    const referee = await open(r, 'referee');
    // The inbox's sections are bold; its card's own title ("Referee inbox") and the line naming the campaign are not
    // repeated under the section's heading "Referee inbox" (before: "What waits on you in Fog: / Referee inbox / ...").
    expect(await referee.page.locator('#inbox strong').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^Without orders for Day \d/)]));
    expect(await referee.page.locator('#inbox-section h2').allInnerTexts()).toEqual(['Referee inbox']);
    expect(await text(referee.page, '#inbox')).not.toMatch(/Referee inbox|What waits on you|Fog/);
    expect(await text(referee.page, '#inbox')).toMatch(/^Day \d+, \w+; the campaign is running\./);
    expect(await text(referee.page, '#inbox')).not.toContain('**');
    expect(await text(referee.page, '#intel')).toBe('Each army\'s estimates are on its page: choose it in "View as".');
    await referee.page.selectOption('#view-as', 'hadewych');
    await referee.page.waitForFunction(() => /as=hadewych/.test(document.body.dataset.mapUrl ?? '') && document.body.dataset.map === 'open', undefined, { timeout: WAIT });
    expect(await text(referee.page, '#intel')).toBe(await text(page, '#intel'));
    await ctx.close();
    await r.close();
  });

  it('GIVEN the link used by alice WHEN a second browser opens it THEN 404 and nothing of the campaign', async () => {
    const link = await w.link('alice');
    const first = await fresh({ width: 800, height: 600 });
    await (await first.newPage()).goto(link);
    const second = await fresh({ width: 800, height: 600 });
    const page = await second.newPage();
    const res = await page.goto(link);
    expect(res?.status()).toBe(404);
    expect(await page.content()).not.toMatch(/Fog|Hadewych/);
    await first.close();
    await second.close();
  });

  it('GIVEN the referee viewing as alice\'s army THEN the page shows what alice\'s does, the map picture byte for byte', async () => {
    const a = await fresh({ width: 1200, height: 900 });
    const alice = await open(a, 'alice');
    const r = await fresh({ width: 1200, height: 900 });
    const referee = await open(r, 'referee');
    expect(await text(referee.page, '#inbox-section')).toContain('Referee inbox');
    await referee.page.screenshot({ path: join(SHOTS, 'referee-desktop.png') });
    await referee.page.selectOption('#view-as', 'hadewych');
    await referee.page.waitForFunction(() => /as=hadewych/.test(document.body.dataset.mapUrl ?? '') && document.body.dataset.map === 'open', undefined, { timeout: WAIT });
    await referee.page.waitForTimeout(1000);
    await referee.page.screenshot({ path: join(SHOTS, 'view-as-desktop.png') });
    for (const sel of ['#armies', '#intel', '#chronicle', '#day-label']) expect(await text(referee.page, sel), sel).toBe(await text(alice.page, sel));
    expect(await referee.page.locator('#inbox-section').isHidden()).toBe(true);
    const bytes = async (p: Page) => p.evaluate(async () => {
      const buf = await (await fetch(document.body.dataset.mapUrl!)).arrayBuffer();
      return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', buf))).join(',');
    });
    expect(await bytes(referee.page)).toBe(await bytes(alice.page));
    await a.close();
    await r.close();
  });

  it('GIVEN the referee on a phone viewing as alice\'s army THEN the page reads as hers (screenshot)', async () => {
    const ctx = await fresh({ width: 390, height: 844 }, true);
    const { page } = await open(ctx, 'referee');
    await page.selectOption('#view-as', 'hadewych');
    await page.waitForFunction(() => /as=hadewych/.test(document.body.dataset.mapUrl ?? '') && document.body.dataset.map === 'open', undefined, { timeout: WAIT });
    expect(await text(page, '#when')).toContain('viewing as Army of Hadewych');
    expect(await text(page, '#armies')).toContain('Army of Hadewych');
    // "Log out" on one line beside the "View as" list, as tall as the timeline's one-line buttons (it was squeezed to a word a line).
    const height = async (sel: string): Promise<number> => (await page.locator(sel).boundingBox())!.height;
    expect(await height('header .controls button')).toBe(await height('#day-prev'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(SHOTS, 'view-as-phone.png') });
    await ctx.close();
  });

  it('GIVEN spectators two half periods behind, in fog THEN an outsider\'s browser shows only that public view: no newer line, no army, the same map wherever a hidden army moves', async () => {
    const { id, shownTime, latestTime } = readCampaign(w.h.app, { actor: REFEREE }, (tx) => {
      const ticks = tx.read.playedTicks();
      return { id: tx.meta.id, shownTime: formatGameTime(fromIndex(ticks.at(-3)!.timeIndex)), latestTime: formatGameTime(fromIndex(ticks.at(-1)!.timeIndex)) };
    });
    expect(shownTime).not.toBe(latestTime);
    for (const [viewport, mobile, name] of [[{ width: 390, height: 844 }, true, 'spectator-phone.png'], [{ width: 1366, height: 900 }, false, 'spectator-desktop.png']] as const) {
      const ctx = await fresh(viewport, mobile);
      const page = await ctx.newPage();
      const bodies: string[] = [];
      // What the server sent about the campaign (the page data; the page's script and styles are the same for everyone).
      page.on('response', async (r) => { if (r.url().includes('/page.json')) bodies.push(await r.text().catch(() => '')); });
      await page.goto(`${w.web.url}/s/${id}`);
      await ready(page);
      expect(await text(page, '#when')).toContain(shownTime);
      expect(await text(page, '#banner')).toContain('2 half periods behind');
      const chronicle = await text(page, '#chronicle');
      expect(chronicle).toContain('spectators on, 2');
      // Discord's timestamp markup reads as a date in the browser's own time zone.
      expect(chronicle).toContain('The campaign has started. Next tick');
      expect(chronicle).not.toContain('<t:');
      // Nothing of the latest half period, nothing private, no army's place (the hidden ones ride to 2530 and 0323).
      expect(chronicle).not.toContain(latestTime);
      expect(await page.locator('#armies-section').isHidden()).toBe(true);
      expect(await page.locator('#view-as-label').isHidden()).toBe(true);
      expect(bodies.length).toBeGreaterThan(0);
      for (const b of bodies) {
        const d = JSON.parse(b) as { armies: unknown[]; intel: unknown[]; inbox: unknown; chronicle: { to: string }[] };
        expect(b).not.toMatch(/2530|0323|figures/);
        expect([d.armies, d.intel, d.inbox]).toEqual([[], [], null]);
        expect(d.chronicle.every((l) => l.to === 'everyone')).toBe(true);
      }
      await page.waitForTimeout(1000);
      await page.screenshot({ path: join(SHOTS, name) });
      await ctx.close();
    }
    // Live spectators (no delay): the page follows; then the hidden Grallune's last half period is
    // played again with Grallune elsewhere, and the picture the browser shows is byte for byte the same.
    const ctx = await fresh({ width: 1200, height: 900 });
    const page = await ctx.newPage();
    await page.goto(`${w.web.url}/s/${id}`);
    await ready(page);
    const shown = async (): Promise<string> => page.evaluate(async () => {
      const buf = await (await fetch(document.body.dataset.mapUrl!)).arrayBuffer();
      return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', buf))).join(',');
    });
    const follow = async (lines: string[]): Promise<void> => {
      const v = await page.evaluate(() => document.body.dataset.version);
      await w.h.run(...lines);
      await page.waitForFunction((before) => document.body.dataset.version !== before && document.body.dataset.state === 'ready' && document.body.dataset.map === 'open', v, { timeout: WAIT });
    };
    await follow(['@referee /campaign settings spectators:0', '@referee /army edit army:grallune hex:2128', '!tick']);
    expect(await text(page, '#when')).toContain(formatGameTime(readCampaign(w.h.app, { actor: REFEREE }, (tx) => fromIndex(tx.read.playedTicks().at(-1)!.timeIndex))));
    const at2128 = await shown();
    await follow(['@referee /turn undo', '@referee /army edit army:grallune hex:2230', '!tick']);
    expect(await shown()).toBe(at2128);
    expect(await text(page, '#chronicle')).not.toMatch(/2128|2230/);
    await w.h.run('@referee /campaign settings spectators:2');
    await ctx.close();
  });

  it('GIVEN alice\'s page open WHEN a tick is played THEN the page updates itself (no reload)', async () => {
    const ctx = await fresh({ width: 1200, height: 900 });
    const { page } = await open(ctx, 'alice');
    await page.evaluate(() => { (window as unknown as { marker: number }).marker = 42; });
    const version = await page.evaluate(() => document.body.dataset.version);
    const time = await text(page, '#when');
    await w.h.run('!tick');
    await page.waitForFunction((v) => document.body.dataset.version !== v && document.body.dataset.map === 'open', version, { timeout: WAIT });
    expect(await text(page, '#when')).not.toBe(time);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await ctx.close();
  });

  it('GIVEN a player whose display name holds markdown and a mention is given an army THEN the chronicle shows the name as typed, not its escapes', async () => {
    // The journal keeps the name escaped for Discord (escapeName); the page reads the escapes back, as the console does.
    const name = '**Carol** _x_ <@&1> a\\b';
    assignArmy(w.h.app, REFEREE, { army: 'lanze', userId: 'carol', userName: name });
    await w.h.deliver();
    const ctx = await fresh({ width: 1200, height: 900 });
    const { page } = await open(ctx, 'alice');
    const chronicle = await text(page, '#chronicle');
    expect(chronicle).toContain(`${name} now commands Army of Lanze.`);
    expect(chronicle).not.toContain('\\*');
    await ctx.close();
  });
});

afterAll(() => {
  writeFileSync(join(SHOTS, 'README.txt'), 'Screenshots of the last browser test run.\n');
});
