import { afterEach, describe, expect, it, vi } from 'vitest';
import { publicMapView } from '../../src/engine/views/mapView.js';
import { renderMap } from '../../src/render/index.js';
import { clearRenderCache, renderCacheStats } from '../../src/render/renderMap.js';
import { closeRenderPool, configureRenderPool, renderPoolState } from '../../src/render/renderPool.js';
import { testMap, testState } from './fixtures.js';

/**
 * What an idle render thread keeps (issue 25, rss100Mb): its static layers, and no picture's
 * pixels. The canvas a picture is drawn on is reused while pictures follow one another and let go
 * once the thread has nothing to draw; the next picture, on a new canvas, is the same.
 */
const title = { campaign: 'Memory', time: 'Day 2, morning', weather: 'Clear, no wind' };

afterEach(async () => {
  await closeRenderPool();
  configureRenderPool({ threads: 1, idleMs: 60_000 });
});

describe('an idle render thread', () => {
  it('GIVEN a drawn map WHEN the thread has nothing left to draw THEN it keeps the static layer and no picture canvas; AND the next picture, on a new canvas, is byte for byte the same', async () => {
    configureRenderPool({ threads: 1 });
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    const first = await renderMap(map, view, { title, cacheKey: 'idle-memory' }, { reuse: false });
    expect(renderPoolState().workers).toBe(1);
    await vi.waitFor(async () => {
      const stats = await renderCacheStats();
      expect(stats.scratchBytes).toBe(0);
      expect(stats.entries).toBe(1);
      expect(stats.bytes).toBeGreaterThan(0);
    }, { timeout: 30_000, interval: 50 });
    const again = await renderMap(map, view, { title, cacheKey: 'idle-memory' }, { reuse: false });
    expect(again.equals(first)).toBe(true);
    expect(renderPoolState().started).toBe(1);
  });
});
