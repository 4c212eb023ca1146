import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webMap } from '../../src/app/web/webPage.js';
import { privateBadge } from '../../src/render/overlay.js';
import { campaignIdOf, consoleHarness, type Harness } from '../scenarios/harness.js';
import { fogSetup } from './webHarness.js';

/*
 * The title band of the page's map. The referee's page draws every army as theirs, and the band's
 * red badge named all 24 commanders ("PRIVATE · Prince of Aeskrvald, Anax Archontas, ..."): it ran
 * off the band's right end, over the time and the weather (seen in session 23's screenshots). Read
 * from the picture the page shows: the badge's red ends before the time and weather's room.
 */

const BADGE = [0x8e, 0x2a, 0x22];

let h: Harness;
let campaignId: string;

beforeAll(async () => {
  h = await consoleHarness({ setup: fogSetup() });
  campaignId = campaignIdOf(h);
}, 120_000);

afterAll(() => h?.close());

/** The columns of the title band (its top 50 px at the 1,600 px layout) where the badge's red shows. */
async function badgeColumns(png: Buffer): Promise<{ width: number; first: number; last: number }> {
  const { data, info } = await sharp(png).extract({ left: 0, top: 0, width: 1600, height: 50 }).raw().toBuffer({ resolveWithObject: true });
  let first = Infinity;
  let last = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      if (BADGE.every((c, k) => Math.abs(data[i + k]! - c) <= 6)) { first = Math.min(first, x); last = Math.max(last, x); }
    }
  }
  return { width: info.width, first, last };
}

describe('the title band of the page\'s map', { timeout: 180_000 }, () => {
  it('GIVEN the referee\'s page (every army drawn as theirs) THEN the badge ends well before the band\'s right end, where the time and weather are', async () => {
    const png = await webMap(h.app, { campaignId, userId: 'referee' }, {}, 1600);
    const badge = await badgeColumns(png);
    expect(badge.last).toBeGreaterThan(badge.first);
    // The time ("Day 1, morning", 23 px serif) and the weather take more than 200 px at the right; before, the red reached the band's end.
    expect(badge.last).toBeLessThan(badge.width - 200);
  });

  it('GIVEN alice\'s page (one army) THEN the badge names her commander in full, as before', async () => {
    const png = await webMap(h.app, { campaignId, userId: 'alice' }, {}, 1600);
    const badge = await badgeColumns(png);
    expect(badge.last - badge.first).toBeGreaterThan(100);
    expect(badge.last).toBeLessThan(badge.width - 200);
  });

  it('GIVEN names that do not all fit THEN as many as fit, then how many more; none at all, "PRIVATE"', () => {
    const names = ['Ingegerd', 'Hadewych the Arbiter', 'Prince of Aeskrvald', 'Anax Archontas'];
    const fits = (max: number) => (text: string) => text.length <= max;
    expect(privateBadge(names, fits(1000))).toBe('PRIVATE · Ingegerd, Hadewych the Arbiter, Prince of Aeskrvald, Anax Archontas');
    expect(privateBadge(names, fits(55))).toBe('PRIVATE · Ingegerd, Hadewych the Arbiter and 2 more');
    expect(privateBadge(names, fits(30))).toBe('PRIVATE · Ingegerd and 3 more');
    expect(privateBadge(names, fits(20))).toBe('PRIVATE · 4 armies');
    expect(privateBadge(names, fits(10))).toBe('PRIVATE');
    expect(privateBadge([], fits(10))).toBe('PRIVATE');
  });
});
