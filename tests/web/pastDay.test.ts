import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHRONICLE_LINES, webPage } from '../../src/app/web/webPage.js';
import { campaignIdOf, consoleHarness, type Harness } from '../scenarios/harness.js';

/*
 * A past day's chronicle on the page ("End of day 1") holds that day's lines, its night's tick
 * included (logged on the morrow's clock), and reads no further than the morrow's first tick: the
 * page carries the newest CHRONICLE_LINES lines of its window, and a morrow busier than that
 * (here alice gives her order again and again on day 2, after its first tick) must not push the
 * day itself out of the window. And the same order given again is a line again.
 */

let h: Harness;
let campaignId: string;

beforeAll(async () => {
  h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Busy"\n@referee /campaign assign army:hadewych user:alice\n@referee /campaign start' });
  campaignId = campaignIdOf(h);
  // Day 1 played to its end, and day 2's morning: now day 2, afternoon.
  await h.run('@alice /move to:0817', '!tick 5');
  const orders = Array.from({ length: CHRONICLE_LINES + 20 }, (_, i) => `@alice /move to:${i % 2 === 0 ? '0816' : '0818'}`);
  await h.run(orders.join('\n'));
}, 300_000);

afterAll(() => h?.close());

describe('a past day\'s chronicle on the page', { timeout: 120_000 }, () => {
  it('GIVEN more lines on the morrow than the page carries THEN "End of day 1" still shows day 1, to its night, and nothing of day 2', () => {
    const page = webPage(h.app, { campaignId, userId: 'alice' }, { day: 1 });
    const days = page.chronicle.map((l) => l.day);
    expect(days.length).toBeGreaterThan(5);
    expect(days.every((d) => d === 1)).toBe(true);
    expect(page.chronicle.some((l) => l.time === 'Day 1, night')).toBe(true);
    expect(page.chronicle.some((l) => l.text === 'Move order: day, to 0817.' && l.time === 'Day 1, morning')).toBe(true);
    // Now: the newest lines, day 2's orders.
    const now = webPage(h.app, { campaignId, userId: 'alice' }, {});
    expect(now.chronicle.at(-1)).toMatchObject({ time: 'Day 2, afternoon', text: expect.stringMatching(/^Move order: day, to 081[68]\.$/) });
    // Each order is a line: the same words to the same reader again are a new thing, not a copy to fold (the console's clock stands still, so every command has the same write time).
    expect(now.chronicle.filter((l) => l.time === 'Day 2, afternoon' && l.text.startsWith('Move order')).length).toBe(CHRONICLE_LINES);
  });
});
