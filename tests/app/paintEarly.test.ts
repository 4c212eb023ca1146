import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { campaignDice } from '../../src/app/campaignDice.js';
import type { Picture } from '../../src/app/messages.js';
import { playTick, tickChange } from '../../src/app/turn/playTick.js';
import { readCampaign } from '../../src/app/unitOfWork.js';
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

  it('GIVEN a tick that moves an army WHEN its change is worked out THEN its map is handed to drawSoon (the caller starts drawing it) as soon as it is decided, once, and the change is the same as without the hint', { timeout: 120_000 }, async () => {
    h = await consoleHarness({ setup: '@referee /campaign create scenario:valormr name:"Autumn War"' });
    const campaignId = (h.outputs.find((o) => (o.data as { campaignId?: string } | undefined)?.campaignId)?.data as { campaignId: string }).campaignId;
    await h.run('@referee /campaign assign army:hadewych user:alice', '@referee /campaign start', '@alice /move army:hadewych to:0913');
    // The same tick twice, read only (its own dice copied, fixed seeds), with and without the hint.
    const seeds = { newSeed: () => '0'.repeat(32), newMaster: () => '0'.repeat(32) };
    const handed: (readonly Picture[])[] = [];
    const change = (hint: boolean) => readCampaign(h!.app, { campaignId }, (tx) => tickChange({ ...tx, dice: campaignDice(tx.state, []), seeds }, hint ? { drawSoon: (p) => handed.push(p) } : {}));
    const without = change(false);
    const withHint = change(true);
    expect(withHint.result.played).toBe(true);
    expect(JSON.stringify(withHint)).toBe(JSON.stringify(without));
    const posted = (withHint.outbox ?? []).flatMap((o) => o.pictures ?? []);
    expect(posted.map((p) => p.name)).toEqual(['map-day1-afternoon.png']);
    expect(handed).toEqual([posted]);
  });
});
