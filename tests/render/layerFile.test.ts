/**
 * Static layers kept on disk beside the database (src/render/layerFile.ts): a new render thread or
 * a restarted process reads the layer instead of drawing it, and a file that is stale, truncated,
 * from another version or damaged is never trusted: it is ignored and rebuilt.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publicMapView } from '../../src/engine/views/mapView.js';
import { setLayerCacheDir } from '../../src/render/layerCacheDir.js';
import { layerFilePath, readLayerFile } from '../../src/render/layerFile.js';
import { testTempDir } from '../support/tempDirs.js';
import { computeLayout } from '../../src/render/layout.js';
import { clearRenderCache, renderMapHere } from '../../src/render/renderMap.js';
import { legendEntryCount } from '../../src/render/legend.js';
import { testMap, testState } from './fixtures.js';

const title = { campaign: 'Test Campaign', time: 'Day 2, morning', weather: 'Clear, no wind' };
const options = { title, cacheKey: 'layer-file-test', hexIds: 'subset' as const };
/** The static layer's key as renderMap names it (map key, width, whole map, hex ids, view kind). */
const KEY = 'k:layer-file-test|1600|full|subset|public';
let dir: string;

async function pixels(png: Buffer): Promise<Buffer> {
  return (await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })).data;
}

const layout = () => computeLayout(testMap().width, testMap().height, { legendEntries: legendEntryCount('public') });

beforeEach(() => {
  dir = testTempDir('valormr-layers-');
  setLayerCacheDir(dir);
  clearRenderCache();
});

afterEach(() => {
  setLayerCacheDir(undefined);
  clearRenderCache();
});

describe('static layers on disk', () => {
  it('GIVEN a first render WHEN drawn THEN its layer is written; WHEN a new thread renders again THEN it reads the file (not rewritten) and the picture is the same', async () => {
    const view = publicMapView(testState());
    const first = await renderMapHere(testMap(), view, options);
    const path = layerFilePath(KEY)!;
    expect(readdirSync(dir)).toEqual([path.split('/').pop()]);
    const written = statSync(path).mtimeMs;
    expect(readLayerFile(KEY, layout())).toBeDefined();
    clearRenderCache(); // as a new render thread or a restarted process finds it
    const second = await renderMapHere(testMap(), view, options);
    expect(statSync(path).mtimeMs).toBe(written);
    expect((await pixels(second)).equals(await pixels(first))).toBe(true);
  });

  it('GIVEN a picture drawn at scale 2 (the web page\'s zoom levels) THEN it is its layout at twice the size in both directions, kept under a key of its own, and read back from its file', async () => {
    const view = publicMapView(testState());
    const one = await sharp(await renderMapHere(testMap(), view, options)).metadata();
    const two = await sharp(await renderMapHere(testMap(), view, { ...options, scale: 2 })).metadata();
    expect([two.width, two.height]).toEqual([2 * one.width, 2 * one.height]);
    const KEY2 = KEY.replace('|1600|', '|1600x2|');
    expect(readLayerFile(KEY2, layout(), 2)?.canvas.width).toBe(two.width);
    // The file holds the scaled pixels: read as the unscaled layout's, its size does not match.
    expect(readLayerFile(KEY2, layout(), 1)).toBeUndefined();
    expect(readLayerFile(KEY, layout(), 1)?.canvas.width).toBe(one.width);
  });

  it('GIVEN a truncated file WHEN read THEN it is ignored; WHEN rendered THEN the layer is drawn again and a whole file written', async () => {
    const view = publicMapView(testState());
    const first = await renderMapHere(testMap(), view, options);
    const path = layerFilePath(KEY)!;
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length - 1000));
    expect(readLayerFile(KEY, layout())).toBeUndefined();
    clearRenderCache();
    const again = await renderMapHere(testMap(), view, options);
    expect(readFileSync(path).length).toBe(whole.length);
    expect(readLayerFile(KEY, layout())).toBeDefined();
    expect((await pixels(again)).equals(await pixels(first))).toBe(true);
  });

  it('GIVEN a file from another version, for another key, with damaged pixels, or not a layer at all THEN it is never trusted', async () => {
    await renderMapHere(testMap(), publicMapView(testState()), options);
    const path = layerFilePath(KEY)!;
    const whole = readFileSync(path);
    const headerLength = whole.readUInt32BE(8);
    const header = JSON.parse(whole.subarray(12, 12 + headerLength).toString('utf8')) as Record<string, unknown>;
    const withHeader = (h: Record<string, unknown>): Buffer => {
      const json = Buffer.from(JSON.stringify(h));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(json.length);
      return Buffer.concat([whole.subarray(0, 8), length, json, whole.subarray(12 + headerLength)]);
    };
    const cases: Record<string, Buffer> = {
      'another version of the drawing code': withHeader({ ...header, version: 'an-older-renderer' }),
      'another format': withHeader({ ...header, format: 0 }),
      'a stale key (another map)': withHeader({ ...header, key: 'k:another-map|1600|full|subset|public' }),
      'another size': withHeader({ ...header, width: 10 }),
      'damaged pixels': Buffer.concat([whole.subarray(0, whole.length - 1), Buffer.from([whole[whole.length - 1]! ^ 0xff])]),
      // Inside the compressed pixels: the canvas library decodes such a PNG without an error (what it
      // cannot read is left transparent), so only the file's own check can refuse it.
      'a damaged byte inside the picture': (() => {
        const bytes = Buffer.from(whole);
        const at = 12 + headerLength + Math.floor((whole.length - 12 - headerLength) / 2);
        bytes[at] = bytes[at]! ^ 0xff;
        return bytes;
      })(),
      'not a layer file': Buffer.from('hello'),
      'a header that is not JSON': Buffer.concat([whole.subarray(0, 12), Buffer.alloc(headerLength, 0x7b), whole.subarray(12 + headerLength)]),
    };
    for (const [what, bytes] of Object.entries(cases)) {
      writeFileSync(path, bytes);
      expect(readLayerFile(KEY, layout()), what).toBeUndefined();
    }
  });

  it('GIVEN no cache directory (an in-memory database) THEN nothing is written', async () => {
    setLayerCacheDir(undefined);
    await renderMapHere(testMap(), publicMapView(testState()), options);
    expect(readdirSync(dir)).toEqual([]);
    expect(layerFilePath(KEY)).toBeUndefined();
  });
});
