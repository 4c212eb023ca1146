import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { MapView } from '../../src/engine/views/mapView.js';
import { commanderMapView, publicMapView } from '../../src/engine/views/mapView.js';
import { drawMapEarly, renderBattlefield, renderMap } from '../../src/render/index.js';
import { clearRenderCache, renderCacheStatsHere, renderMapHere } from '../../src/render/renderMap.js';
import { closeRenderPool, configureRenderPool, crashRenderThreads, holdRenderThreads, RenderThreadDied, renderPoolState, workerCacheStats } from '../../src/render/renderPool.js';
import type { CacheStats } from '../../src/render/renderProtocol.js';
import { testMap, testState } from './fixtures.js';
import { testTempDir } from '../support/tempDirs.js';

const title = { campaign: 'Test Campaign', time: 'Day 2, morning', weather: 'Clear, no wind' };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function pixels(png: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** The render threads' figures once they have run an idle pass (waited for as long as it takes under load: no timing is asserted). */
async function afterAnIdlePass(): Promise<CacheStats> {
  for (let waited = 0; waited < 120_000; waited += 100) {
    const stats = await workerCacheStats();
    if ((stats.idlePasses ?? 0) > 0) return stats;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the render thread ran no idle pass in 120 s');
}

afterEach(async () => {
  await closeRenderPool();
  configureRenderPool({ threads: 1, perThread: 1, idleMs: 60_000, recentBytes: 2 * 1024 * 1024 });
});

describe('render threads', () => {
  it('GIVEN a map WHEN rendered THEN a worker drew it (this thread drew no static layer) AND its pixels equal a picture drawn here', async () => {
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    const png = await renderMap(map, view, { title, cacheKey: 'pool-test' });
    expect(renderPoolState().workers).toBe(1);
    expect(renderCacheStatsHere().entries).toBe(0);
    const here = await renderMapHere(map, view, { title, cacheKey: 'pool-test' });
    const [a, b] = await Promise.all([pixels(png), pixels(here)]);
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    expect(a.data.equals(b.data)).toBe(true);
  });

  it('GIVEN ten pictures asked at once WHEN they are drawn THEN each is right, the pool stays at its size and nothing is left waiting', async () => {
    const map = testMap();
    const views: MapView[] = [publicMapView(testState()), commanderMapView(testState(), ['arn'])];
    const pngs = await Promise.all(Array.from({ length: 10 }, (_, k) => renderMap(map, views[k % 2] as MapView, { title })));
    const expected = await Promise.all(views.map(async (v) => pixels(await renderMapHere(map, v, { title }))));
    for (const [k, png] of pngs.entries()) expect((await pixels(png)).data.equals((expected[k % 2] as { data: Buffer }).data)).toBe(true);
    expect(renderPoolState()).toMatchObject({ workers: 1, busy: 0, waiting: 0, inThisThread: false });
  });

  it('GIVEN a worker that let a map go (it keeps 16) WHEN that map is drawn again THEN the pool sends its data again and the picture is right', async () => {
    const map = testMap();
    const view = publicMapView(testState());
    const options = (k: number) => ({ title, cacheKey: `forget-${k}`, width: 400 });
    const first = await renderMap(map, view, options(0));
    for (let k = 1; k <= 17; k++) await renderMap(map, view, options(k));
    const again = await renderMap(map, view, options(0));
    expect((await pixels(again)).data.equals((await pixels(first)).data)).toBe(true);
  });

  it('GIVEN a battlefield sketch WHEN rendered THEN the worker answers a 960 x 720 PNG', async () => {
    const png = await renderBattlefield({ title: 'Terrain at 0608', cards: [{ row: 'near', column: 'centre', card: 'pond', orientation: 0 }] });
    expect(await pixels(png)).toMatchObject({ width: 960, height: 720 });
    expect(renderPoolState().workers).toBe(1);
  });

  it('GIVEN a picture that fails in the worker WHEN asked THEN the promise is rejected with the reason AND the worker goes on drawing', async () => {
    const broken = { ...publicMapView(testState()), tokens: undefined } as unknown as MapView;
    await expect(renderMap(testMap(), broken, { title })).rejects.toThrow();
    expect((await pixels(await renderMap(testMap(), publicMapView(testState()), { title }))).width).toBeGreaterThan(0);
    expect(renderPoolState().workers).toBe(1);
  });

  it('GIVEN running workers WHEN the pool is closed THEN none is left; WHEN a picture is asked again THEN a new worker draws it', async () => {
    await renderMap(testMap(), publicMapView(testState()), { title });
    await closeRenderPool();
    expect(renderPoolState().workers).toBe(0);
    await renderMap(testMap(), publicMapView(testState()), { title });
    expect(renderPoolState().workers).toBe(1);
  });

  it('GIVEN an idle time WHEN a worker has nothing to do for that long THEN it stops', async () => {
    configureRenderPool({ idleMs: 50 });
    await renderMap(testMap(), publicMapView(testState()), { title });
    expect(renderPoolState().workers).toBe(1);
    for (let waited = 0; renderPoolState().workers > 0 && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(renderPoolState().workers).toBe(0);
  });

  it('GIVEN a render thread that drew a map WHEN it has been idle a moment THEN it has let go of its scratch canvas; WHEN the map is drawn again THEN the PNG is byte for byte the same', async () => {
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    const options = { title, cacheKey: 'scratch-idle' };
    const first = await renderMap(map, view, options, { reuse: false });
    const idle = await afterAnIdlePass();
    expect(idle.scratchBytes).toBe(0);
    // The static layer stays: only what a burst reuses went.
    expect(idle.entries).toBe(1);
    const { started } = renderPoolState();
    const again = await renderMap(map, view, options, { reuse: false });
    expect(again.equals(first)).toBe(true);
    // Drawn by the same thread, on a new canvas (not by a new thread).
    expect(renderPoolState()).toMatchObject({ workers: 1, started });
  });

  it('GIVEN render threads held for a due tick WHEN the thread that drew a map is idle THEN it keeps its scratch canvas for the tick\'s picture', async () => {
    holdRenderThreads(600_000);
    const png = await renderMap(testMap(), publicMapView(testState()), { title, cacheKey: 'scratch-held' }, { reuse: false });
    const { width, height } = await pixels(png);
    const idle = await afterAnIdlePass();
    expect(idle.scratchBytes).toBe(width * height * 4);
  });

  it('GIVEN no render threads WHEN a picture is asked THEN it is drawn in this thread', async () => {
    configureRenderPool({ threads: 0 });
    const png = await renderMap(testMap(), publicMapView(testState()), { title });
    expect((await pixels(png)).width).toBeGreaterThan(0);
    expect(renderPoolState()).toMatchObject({ workers: 0, inThisThread: true });
  });

  it('GIVEN a process that drew a map and never closed the pool WHEN its work is done THEN it exits by itself (idle workers do not keep it alive)', async () => {
    const dir = testTempDir('valormr-pool-');
    const script = join(dir, 'draw.mts');
    const src = (p: string): string => JSON.stringify(new URL(p, `file://${ROOT}/`).href);
    writeFileSync(script, [
      `import { renderMap } from ${src('src/render/index.ts')};`,
      `import { publicMapView } from ${src('src/engine/views/mapView.ts')};`,
      `import { testMap, testState } from ${src('tests/render/fixtures.ts')};`,
      `const png = await renderMap(testMap(), publicMapView(testState()), { title: { campaign: 'x', time: 'y', weather: 'z' } });`,
      'process.stdout.write(String(png.length));',
    ].join('\n'));
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error('the process did not exit within 240 s'));
      }, 240_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve({ code: c, out });
      });
    });
    expect(code).toBe(0);
    expect(Number(out)).toBeGreaterThan(1000);
  }, 300_000);

  it('GIVEN a render thread that dies while it draws WHEN the picture was in its hands THEN a new thread replaces it and draws the picture', async () => {
    const map = testMap();
    const view = publicMapView(testState());
    const expected = await pixels(await renderMap(map, view, { title, cacheKey: 'crash-once' }));
    clearRenderCache(); // else the picture drawn a moment ago is answered from memory
    const asked = renderMap(map, view, { title, cacheKey: 'crash-once' });
    expect(renderPoolState().busy).toBe(1);
    crashRenderThreads();
    const png = await asked;
    expect((await pixels(png)).data.equals(expected.data)).toBe(true);
    expect(renderPoolState()).toMatchObject({ workers: 1, inThisThread: false });
  });

  it('GIVEN a picture whose second thread dies too WHEN it is retried THEN it is given up with RenderThreadDied, and the pool goes on drawing', async () => {
    const map = testMap();
    const view = publicMapView(testState());
    await renderMap(map, view, { title, cacheKey: 'crash-twice' });
    clearRenderCache();
    const asked = renderMap(map, view, { title, cacheKey: 'crash-twice' });
    const outcome = asked.then(() => 'drawn', (e: unknown) => e);
    const before = renderPoolState().started;
    crashRenderThreads();
    // The replacement thread gets the picture once the first one's death is seen: crash it too.
    for (let waited = 0; renderPoolState().started === before && waited < 30_000; waited += 2) await new Promise((r) => setTimeout(r, 2));
    expect(renderPoolState().busy).toBe(1);
    crashRenderThreads();
    const e = await outcome;
    expect(e).toBeInstanceOf(RenderThreadDied);
    expect((e as Error).message).toMatch(/render thread died twice/);
    expect(renderPoolState().inThisThread).toBe(false);
    expect((await pixels(await renderMap(map, view, { title, cacheKey: 'crash-twice' }))).width).toBeGreaterThan(0);
  });

  it('GIVEN one picture asked by ten callers at once WHEN it is drawn THEN one thread holds one job, and every caller gets the same bytes', async () => {
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    const asked = Array.from({ length: 10 }, () => renderMap(map, view, { title, cacheKey: 'same-ten' }));
    expect(renderPoolState()).toMatchObject({ busy: 1, waiting: 0 });
    const pngs = await Promise.all(asked);
    for (const png of pngs) expect(png.equals(pngs[0] as Buffer)).toBe(true);
    // A different title is another picture: drawn, not shared.
    const other = renderMap(map, view, { title: { ...title, campaign: 'Another' }, cacheKey: 'same-ten' });
    expect(renderPoolState().busy).toBe(1);
    expect((await other).equals(pngs[0] as Buffer)).toBe(false);
  });

  it('GIVEN a picture drawn a moment ago WHEN asked again THEN its bytes are answered without a drawing; WHEN the caches are cleared THEN it is drawn again', async () => {
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    const first = await renderMap(map, view, { title, cacheKey: 'recent' });
    const again = renderMap(map, view, { title, cacheKey: 'recent' });
    expect(renderPoolState().busy).toBe(0);
    expect(await again).toBe(first);
    clearRenderCache();
    const redrawn = renderMap(map, view, { title, cacheKey: 'recent' });
    expect(renderPoolState().busy).toBe(1);
    expect((await redrawn).equals(first)).toBe(true);
  });

  it('GIVEN pictures drawn in a row WHEN their bytes pass the budget THEN the oldest are drawn again when asked, the newest never is', async () => {
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    const named = (campaign: string) => ({ title: { ...title, campaign }, cacheKey: 'recent-bytes' });
    const drawnIfAsked = async (campaign: string): Promise<boolean> => {
      const asked = renderMap(map, view, named(campaign));
      const drawn = renderPoolState().busy === 1;
      await asked;
      return drawn;
    };
    // A budget that holds the last two pictures (these are of one size, give or take a few bytes).
    const a = await renderMap(map, view, named('A'));
    configureRenderPool({ recentBytes: Math.floor(a.byteLength * 2.5) });
    for (const c of ['B', 'C']) await renderMap(map, view, named(c));
    expect([await drawnIfAsked('A'), await drawnIfAsked('C')]).toEqual([true, false]);
    // A budget smaller than one picture keeps the newest only: A is drawn, then answered, and D, pushed out by A, drawn again.
    configureRenderPool({ recentBytes: 0 });
    await renderMap(map, view, named('D'));
    expect([await drawnIfAsked('A'), await drawnIfAsked('A'), await drawnIfAsked('D')]).toEqual([true, false, true]);
  });

  it('GIVEN a pool of two threads WHEN pictures come one at a time THEN one thread draws them; WHEN several wait THEN the second thread starts and both draw, each holding one picture at a time (the others wait in the pool)', async () => {
    configureRenderPool({ threads: 2 });
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    for (let k = 0; k < 3; k++) await renderMap(map, view, { title: { ...title, time: `one at a time ${k}` }, cacheKey: 'two' });
    expect(renderPoolState().workers).toBe(1);
    const burst = Array.from({ length: 6 }, (_, k) => renderMap(map, view, { title: { ...title, time: `burst ${k}` }, cacheKey: 'two' }));
    expect(renderPoolState()).toMatchObject({ workers: 2, busy: 2, waiting: 4 });
    // Every answer hands the thread the next waiting picture, never a second one.
    const held: number[] = [];
    for (const p of burst) void p.then(() => held.push(renderPoolState().busy));
    const pngs = await Promise.all(burst);
    expect(held).toHaveLength(6);
    expect(Math.max(...held)).toBeLessThanOrEqual(2);
    const here = await Promise.all([0, 5].map((k) => renderMapHere(map, view, { title: { ...title, time: `burst ${k}` }, cacheKey: 'two' })));
    expect((await pixels(pngs[0] as Buffer)).data.equals((await pixels(here[0] as Buffer)).data)).toBe(true);
    expect((await pixels(pngs[5] as Buffer)).data.equals((await pixels(here[1] as Buffer)).data)).toBe(true);
  });

  it('GIVEN two pictures in hand allowed per thread (configureRenderPool perThread) WHEN six wait THEN each of the two threads holds two and the rest wait', async () => {
    configureRenderPool({ threads: 2, perThread: 2 });
    const map = testMap();
    const view = publicMapView(testState());
    const burst = Array.from({ length: 6 }, (_, k) => renderMap(map, view, { title: { ...title, time: `two in hand ${k}` }, cacheKey: 'two-in-hand' }));
    expect(renderPoolState()).toMatchObject({ workers: 2, busy: 4, waiting: 2 });
    await Promise.all(burst);
    expect(renderPoolState()).toMatchObject({ busy: 0, waiting: 0 });
  });

  it('GIVEN an idle pool WHEN a map is drawn early THEN a thread draws it at once; WHEN it is asked THEN the ask takes that drawing (no second one), even after other pictures pushed everything out of the recent ones', async () => {
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    const opts = (campaign: string) => ({ title: { ...title, campaign }, cacheKey: 'early' });
    configureRenderPool({ recentBytes: 0 });
    drawMapEarly(map, view, opts('E'));
    expect(renderPoolState()).toMatchObject({ busy: 1, waiting: 0 });
    // Another picture drawn meanwhile: with no budget for recent pictures, only the newest would be kept.
    await renderMap(map, view, opts('other'));
    // The early drawing may still be in hand on its thread ('other' may have gone to another one): the ask joins it, drawing nothing.
    const drawn = renderPoolState().drawings;
    const asked = renderMap(map, view, opts('E'));
    expect(renderPoolState().drawings).toBe(drawn);
    const here = await renderMapHere(map, view, opts('E'));
    expect((await pixels(await asked)).data.equals((await pixels(here)).data)).toBe(true);
    // Taken once: asked again after the recent ones moved on, it is drawn again.
    await renderMap(map, view, opts('other 2'));
    const before = renderPoolState().drawings;
    const again = renderMap(map, view, opts('E'));
    expect(renderPoolState().drawings).toBe(before + 1);
    await again;
  });

  it('GIVEN a busy pool (a picture in hand) or no render threads WHEN a map would be drawn early THEN nothing is started: the ask draws it in its turn', async () => {
    clearRenderCache();
    const map = testMap();
    const view = publicMapView(testState());
    const opts = (campaign: string) => ({ title: { ...title, campaign }, cacheKey: 'early-busy' });
    const busy = renderMap(map, view, opts('busy'));
    drawMapEarly(map, view, opts('later'));
    expect(renderPoolState()).toMatchObject({ busy: 1, waiting: 0 });
    await busy;
    const asked = renderMap(map, view, opts('later'));
    expect(renderPoolState().busy).toBe(1);
    await asked;
    await closeRenderPool();
    configureRenderPool({ threads: 0 });
    drawMapEarly(map, view, opts('here'));
    expect(renderPoolState()).toMatchObject({ workers: 0, busy: 0, waiting: 0 });
  });
});
