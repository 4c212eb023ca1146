import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webHarness, type WebHarness } from './webHarness.js';

/*
 * The chronicle as the page shows it, in a real headless Chromium, after a campaign in fog with a
 * march into contact, a battle, a standoff and a march away (session 22's player saw it):
 * - every line is dated by the half period it happened in. The log stamps a tick's lines with the
 *   clock after it, so "Afternoon: Army of Hadewych marched 1122 -> 1222" read "Day 2, evening",
 *   and the two lines of one standoff round were half a period apart;
 * - each thing is told once: a march's public line ("Hadewych the Arbiter marched from 1122 to
 *   1222.") beside the commander's own account of it; a standoff going on unchanged (as the
 *   channel and the campaign book tell it); a DM both commanders got, read by the referee.
 * No timing is asserted: every wait is for a state the page reaches.
 */

declare const document: { body: { dataset: Record<string, string | undefined> }; querySelectorAll(sel: string): ArrayLike<{ querySelector(sel: string): { textContent: string | null } | null; textContent: string | null }> };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WAIT = 120_000;

/** Session 22's campaign (/tmp/p22/w.txt): Hadewych and Grallune meet at 1121/1122, fight, face each other, and Hadewych marches away. */
const SETUP = [
  '@referee /campaign create scenario:valormr name:"Autumn War"',
  '@referee /campaign assign army:hadewych user:alice',
  '@referee /campaign assign army:grallune user:bob',
  '@referee /campaign assign army:aeskrvald user:carol',
  '@referee /campaign settings positions:fog',
  '@referee /army edit army:hadewych hex:1123',
  '@referee /army edit army:grallune hex:1120',
  '@referee /campaign start',
].join('\n');
const PLAY = [
  '@alice /move to:1122', '@bob /move to:1121', '@carol /move to:2106', '!tick',
  '@alice /engage', '@bob /engage', '!tick',
  '@referee /battle result losses:"hadewych/first=4, grallune/first=2" withdraw:"hadewych=retreat"',
  '@alice /avoid to:1123', '@bob /delay', '!tick',
  '@alice /move to:1326', '@carol /move to:1909', '!tick 4',
  '@alice /hold', '!tick 2',
];

let w: WebHarness;
let browser: Browser;

beforeAll(async () => {
  w = await webHarness({ setup: SETUP, seed: 42 });
  await w.h.run(...PLAY);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'], timeout: WAIT });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await w?.close();
});

interface Line { when: string; to: string; text: string }

/** The page of `user` (a phone: the chronicle is the same list on every width), once it is shown. */
async function open(user: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  ctx.setDefaultTimeout(WAIT);
  const page = await ctx.newPage();
  await page.goto(await w.link(user));
  await page.waitForFunction(() => document.body.dataset.state === 'ready', undefined, { timeout: WAIT });
  return page;
}

/** The chronicle's lines as the page shows them, oldest first: the date, the "(to ...)" mark, the words. */
async function chronicle(page: Page): Promise<Line[]> {
  const lines = await page.evaluate(() => Array.from(document.querySelectorAll('#chronicle li')).map((li) => {
    const when = li.querySelector('.when')?.textContent ?? '';
    const to = li.querySelector('.to')?.textContent ?? '';
    return { when, to, text: (li.textContent ?? '').slice(when.length + to.length) };
  }));
  return lines.reverse();
}

const HALVES = ['Morning', 'Afternoon', 'Evening', 'Night'];

/** A march's account names its half period first ("Afternoon: Army of ... marched"): the date must be that half's. */
function accountsDatedByTheirHalf(lines: readonly Line[]): number {
  const accounts = lines.filter((l) => HALVES.some((h) => l.text.startsWith(`${h}: Army of`)));
  for (const l of accounts) expect(l.when, l.text).toMatch(new RegExp(`, ${l.text.split(':')[0]!.toLowerCase()}$`));
  return accounts.length;
}

describe('the web chronicle: each thing once, dated by its half period', { timeout: 300_000 }, () => {
  it('GIVEN alice marched into contact, fought, stood and marched away THEN her chronicle dates each line by its half period and tells each march once', async () => {
    const page = await open('alice');
    const lines = await chronicle(page);
    // Her march away, told once, in the afternoon it happened in (before: "Day 2, evening", beside "Hadewych the Arbiter marched from 1122 to 1222.").
    const away = lines.filter((l) => l.text.includes('1122 -> 1222') || l.text.includes('from 1122 to 1222'));
    expect(away).toEqual([{ when: 'Day 2, afternoon', to: '(to you)', text: 'Afternoon: Army of Hadewych marched 1122 -> 1222; 0 of 6 points left today.' }]);
    expect(lines.filter((l) => /Hadewych the Arbiter marched from/.test(l.text))).toEqual([]);
    expect(accountsDatedByTheirHalf(lines)).toBe(2);
    // The standoff: said when it starts, in the half period it happened in (the night), not again each round,
    // and when it is over (contactParted, as the evening after her march opens).
    const standoff = lines.filter((l) => /pressed the contact|face each other/.test(l.text));
    expect(standoff.map((l) => [l.when, l.text.split(':')[0]])).toEqual([
      ['Day 1, night', 'No commander pressed the contact (fight on the morrow)'],
      ['Day 2, evening', 'Ingegerd and Hadewych the Arbiter no longer face each other'],
    ]);
    // The clock's move is the date of the lines after it: told only where nothing else is ("Day 2, night: The clock moves on to Day 2, night." said the date twice).
    const clock = lines.filter((l) => l.text.startsWith('The clock moves on to'));
    expect(clock.map((l) => l.when)).toEqual(['Day 3, afternoon']);
    expect(clock.every((c) => c.text === `The clock moves on to ${c.when}.` && lines.filter((l) => l.when === c.when).length === 1)).toBe(true);
    // In the order they happened: the dates never go back.
    const order = (when: string): number => { const m = /^Day (\d+), (\w+)$/.exec(when)!; return Number(m[1]) * 4 + HALVES.map((h) => h.toLowerCase()).indexOf(m[2]!); };
    const dates = lines.map((l) => order(l.when));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    // The timeline's end of day 1 holds that day's night, logged on the morrow's clock, and nothing of day 2.
    await page.locator('#day-prev').click();
    await page.waitForFunction(() => document.body.dataset.map === 'open' && /day=2\b/.test(document.body.dataset.mapUrl ?? ''), undefined, { timeout: WAIT });
    await page.locator('#day-prev').click();
    await page.waitForFunction(() => document.body.dataset.map === 'open' && /day=1\b/.test(document.body.dataset.mapUrl ?? ''), undefined, { timeout: WAIT });
    const day1 = await chronicle(page);
    expect(day1.at(-1)).toMatchObject({ when: 'Day 1, night', text: expect.stringContaining('No commander pressed the contact') });
    expect(day1.every((l) => l.when.startsWith('Day 1,'))).toBe(true);
    await page.context().close();
  });

  it('GIVEN "Day before" clicked twice and day 2\'s answer coming after day 1\'s THEN the page shows day 1, not day 2\'s chronicle under "End of day 1"', async () => {
    const page = await open('alice');
    // Day 2's page data is held until day 1's has come (a slow answer, made certain).
    let day1Came!: () => void;
    const day1 = new Promise<void>((resolve) => { day1Came = resolve; });
    page.on('requestfinished', (r) => { if (/page\.json\?(.*&)?day=1\b/.test(r.url())) day1Came(); });
    let day2Came = false;
    page.on('response', (r) => { if (/page\.json\?(.*&)?day=2\b/.test(r.url())) day2Came = true; });
    await page.route(/page\.json\?(.*&)?day=2\b/, async (route) => { await day1; await route.continue(); });
    await page.locator('#day-prev').click();
    await page.locator('#day-prev').click();
    await page.waitForFunction(() => document.body.dataset.map === 'open' && /day=1\b/.test(document.body.dataset.mapUrl ?? ''), undefined, { timeout: WAIT });
    // Day 2's answer has come: dropped (data-dropped), or drawn over day 1's chronicle (before).
    await expect.poll(() => day2Came, { timeout: WAIT }).toBe(true);
    await page.waitForFunction(() => document.body.dataset.dropped === '1' || Array.from(document.querySelectorAll('#chronicle li')).some((li) => /^Day 2,/.test(li.textContent ?? '')), undefined, { timeout: WAIT });
    expect(await page.locator('#day-label').innerText()).toBe('End of day 1');
    const lines = await chronicle(page);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.every((l) => l.when.startsWith('Day 1,'))).toBe(true);
    await page.context().close();
  });

  it('GIVEN the referee reads every army\'s DMs THEN a DM both commanders got is one line to both, and no line is told twice', async () => {
    const page = await open('referee');
    const lines = await chronicle(page);
    // (Words addressed to each reader, "your force at the table: ...", are a fact per army, told to each.)
    const told = lines.filter((l) => !/\byour\b/i.test(l.text)).map((l) => `${l.when} ${l.text}`);
    expect(told.filter((t, i) => told.indexOf(t) !== i)).toEqual([]);
    expect(lines.filter((l) => l.text === 'Ingegerd and Hadewych the Arbiter are in contact near 1121.')).toEqual([
      { when: 'Day 1, morning', to: '(to Army of Grallune, Army of Hadewych)', text: 'Ingegerd and Hadewych the Arbiter are in contact near 1121.' },
      { when: 'Day 1, night', to: '(to Army of Grallune, Army of Hadewych)', text: 'Ingegerd and Hadewych the Arbiter are in contact near 1121.' },
    ]);
    expect(accountsDatedByTheirHalf(lines)).toBeGreaterThanOrEqual(8);
    await page.context().close();
  });

  it('GIVEN bob, of the other side, in fog THEN his chronicle holds nothing of Hadewych\'s march away', async () => {
    const page = await open('bob');
    const lines = await chronicle(page);
    expect(lines.some((l) => /1222/.test(l.text))).toBe(false);
    expect(accountsDatedByTheirHalf(lines)).toBe(1);
    await page.context().close();
  });

  it('GIVEN alice\'s estimate of Grallune THEN her intel reads "<date> — Army of Grallune: engaging regiment ...", without her own army\'s name and a second colon before it', async () => {
    const page = await open('alice');
    const intel = await page.evaluate(() => Array.from(document.querySelectorAll('#intel li')).map((li) => li.textContent ?? ''));
    // Before: "Day 1, morning, Army of Hadewych: Army of Grallune: engaging regiment ...".
    expect(intel.length).toBeGreaterThan(0);
    for (const line of intel) expect(line).toMatch(/^Day \d+, (morning|afternoon|evening|night) — Army of Grallune: (engaging regiment|you are unaware|an enemy is near)/);
    await page.context().close();
  });
});
