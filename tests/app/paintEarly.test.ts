import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { playTick } from '../../src/app/turn/playTick.js';
import { clearRenderCache } from '../../src/render/renderMap.js';
import { renderPoolState } from '../../src/render/renderPool.js';
import { consoleHarness, type Harness } from '../scenarios/harness.js';

/*
 * Issue 25: a tick's map starts drawing on a render thread while the tick's transaction still
 * writes (src/app/unitOfWork.ts, src/app/pictures.ts paintEarly), and the delivery after the
 * commit takes that drawing: the map is drawn once, and before anything was delivered.
 */
let h: Harness | undefined;
afterEach(() => h?.close());

describe('a transaction\'s pictures drawn early', () => {
  it('GIVEN a tick that moves an army WHEN its transaction commits THEN its map is already in a render thread\'s hands; WHEN delivered THEN the channel gets that map and nothing is drawn again', { timeout: 120_000 }, async () => {
    h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Autumn War"' });
    const campaignId = (h.outputs.find((o) => (o.data as { campaignId?: string } | undefined)?.campaignId)?.data as { campaignId: string }).campaignId;
    await h.run('@referee /campaign assign army:hadewych user:alice', '@referee /campaign start', '@alice /move army:hadewych to:0913');
    // Nothing waits or is drawn before the tick, and no picture drawn lately (another test file in
    // this process may have drawn this very map: the delivery would reuse it, and nothing is drawn early).
    await h.deliver();
    clearRenderCache();
    expect(renderPoolState()).toMatchObject({ busy: 0, waiting: 0 });
    const before = renderPoolState().drawings;
    expect(playTick(h.app, { campaignId }).played).toBe(true);
    expect(renderPoolState()).toMatchObject({ busy: 1, waiting: 0, drawings: before + 1 });
    const out = await h.deliver();
    const map = out.find((o) => o.to === 'channel' && o.content === 'Map after Day 1, morning');
    expect(map?.files?.[0]).toMatch(/map-day1-afternoon\.png$/);
    expect(renderPoolState().drawings).toBe(before + 1);
    const meta = await sharp(readFileSync(map?.files?.[0] as string)).metadata();
    expect([meta.format, meta.width]).toEqual(['png', 1600]);
  });
});
