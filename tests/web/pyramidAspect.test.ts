import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { fogSetup, webHarness, type WebHarness } from './webHarness.js';

/*
 * Issue 28: every level of the deep-zoom pyramid is the map picture at another size. The levels
 * up to 1,600 px are scaled from the first picture, the ones above from the 3,200 px picture
 * (map.png); both must be one picture at two sizes, or the deepest levels come out stretched (the
 * 3,200 px picture was 3200 x 2977 while the pyramid, taken from the first picture, assumed
 * 3200 x 3208: 7.8 % taller). Each level's tiles, put together, must have the picture's aspect,
 * and the size the viewer is told (map.json) must be map.png's real size.
 */

let w: WebHarness | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const get = (url: string, cookie: string) => fetch(url, { headers: { cookie } });

async function pngOf(r: Response): Promise<Buffer> {
  expect(r.status).toBe(200);
  return Buffer.from(await r.arrayBuffer());
}

/** A picture scaled to `width` x `height` (fill), grey, as raw bytes: for comparing two pictures of one thing at a glance. */
const thumb = async (png: Buffer, width: number, height: number) => sharp(png).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer();

describe('the deep-zoom pyramid has the map picture\'s aspect at every level', () => {
  it('GIVEN alice\'s page WHEN each level\'s tiles are put together THEN each level is map.png\'s aspect within a pixel, map.json declares map.png\'s size, and first.png shows the same picture', { timeout: 300_000 }, async () => {
    w = await webHarness({ setup: fogSetup(), ticks: 1 });
    const { cookie, page } = await w.login(await w.link('alice'));
    const p = (await (await get(`${page}/map.json`, cookie)).json()) as { width: number; height: number; tileSize: number; minLevel: number; maxLevel: number };
    const full = await pngOf(await get(`${page}/map.png`, cookie));
    const fm = await sharp(full).metadata();
    // The viewer's declared size is the picture's.
    expect([p.width, p.height]).toEqual([fm.width, fm.height]);
    expect(p.width).toBe(3200);

    for (let level = p.minLevel; level <= p.maxLevel; level++) {
      // The level's grid: the last column and row of tiles end where the level ends (the tile past them is 404).
      const scale = 2 ** (p.maxLevel - level);
      const across = Math.ceil(Math.ceil(p.width / scale) / p.tileSize);
      const down = Math.ceil(Math.ceil(p.height / scale) / p.tileSize);
      const last = await sharp(await pngOf(await get(`${page}/tile/${level}/${across - 1}/${down - 1}.png`, cookie))).metadata();
      expect((await get(`${page}/tile/${level}/${across}/0.png`, cookie)).status, `level ${level}: a tile past the right edge`).toBe(404);
      expect((await get(`${page}/tile/${level}/0/${down}.png`, cookie)).status, `level ${level}: a tile past the bottom edge`).toBe(404);
      const width = (across - 1) * p.tileSize + last.width;
      const height = (down - 1) * p.tileSize + last.height;
      // Put together, the level is map.png at 1 / scale: its aspect within a pixel.
      expect(Math.abs(width - fm.width / scale), `level ${level} width`).toBeLessThanOrEqual(1);
      expect(Math.abs(height - width * (fm.height / fm.width)), `level ${level}: ${width} x ${height} against map.png's ${fm.width} x ${fm.height}`).toBeLessThanOrEqual(1);
    }

    // The deepest level is map.png itself: its bottom-right tile is map.png's bottom-right corner, pixel for pixel.
    const across = Math.ceil(p.width / p.tileSize);
    const down = Math.ceil(p.height / p.tileSize);
    const corner = await pngOf(await get(`${page}/tile/${p.maxLevel}/${across - 1}/${down - 1}.png`, cookie));
    const cm = await sharp(corner).metadata();
    const cut = await sharp(full).extract({ left: (across - 1) * p.tileSize, top: (down - 1) * p.tileSize, width: cm.width, height: cm.height }).removeAlpha().raw().toBuffer();
    expect((await sharp(corner).removeAlpha().raw().toBuffer()).equals(cut)).toBe(true);

    // The first view (the level 800 px wide, from the 1,600 px picture) shows what map.png shows: the same picture, scaled (title, map and legend in the same places).
    const first = await pngOf(await get(`${page}/first.png`, cookie));
    const a = await thumb(first, 200, Math.round(200 * fm.height / fm.width));
    const b = await thumb(full, 200, Math.round(200 * fm.height / fm.width));
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - b[i]!);
    expect(diff / a.length, 'mean grey difference of first.png and map.png, both 200 px wide').toBeLessThan(4);
  });
});
