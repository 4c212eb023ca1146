import { afterEach, describe, expect, it } from 'vitest';
import { prewarmDue, runDueTicks, warmMapPicture } from '../../src/app/scheduler/index.js';
import { warmTickCode } from '../../src/app/scheduler/prewarm.js';
import { rawSqlite } from '../../src/db/client.js';
import { renderCacheStats } from '../../src/render/renderMap.js';
import { closeRenderPool, configureRenderPool, holdRenderThreads, renderPoolState } from '../../src/render/renderPool.js';
import type { Harness } from '../scenarios/harness.js';
import { FIRST_DUE, scheduled, state } from './fixtures.js';

let h: (Harness & { id: string }) | undefined;
let other: (Harness & { id: string }) | undefined;
afterEach(async () => {
  h?.close();
  h = undefined;
  other?.close();
  other = undefined;
  await closeRenderPool();
  configureRenderPool({ idleMs: 60_000 });
});

const before = (ms: number): Date => new Date(Date.parse(FIRST_DUE) - ms);
/** How long the last test holds the thread. */
const HOLD_MS = 2_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('pre-warming the render thread before a due tick', () => {
  it('GIVEN a tick due in 90 s and no render thread WHEN the minute check pre-warms THEN a thread runs with the map\'s static layer, and it outlives its idle stop until the tick', async () => {
    h = await scheduled();
    await closeRenderPool();
    // An idle stop of 20 ms: without the hold the thread would be gone long before the tick.
    configureRenderPool({ idleMs: 20 });
    h.clock.set(before(90_000));
    const startedBefore = renderPoolState().started;
    expect(await prewarmDue(h.app)).toEqual([h.id]);
    expect(renderPoolState().started).toBe(startedBefore + 1);
    expect((await renderCacheStats()).entries).toBeGreaterThanOrEqual(1);
    await sleep(300);
    expect(renderPoolState().workers).toBe(1);
  });

  it('GIVEN the next tick is more than two minutes away THEN nothing is drawn and no thread starts', async () => {
    h = await scheduled();
    await closeRenderPool();
    h.clock.set(before(3 * 60_000));
    const startedBefore = renderPoolState().started;
    expect(await prewarmDue(h.app)).toEqual([]);
    expect(renderPoolState().started).toBe(startedBefore);
  });

  it('GIVEN a tick already due THEN it is not pre-warmed for (the tick itself is played by the same check)', async () => {
    h = await scheduled();
    h.clock.set(new Date(FIRST_DUE));
    expect(await prewarmDue(h.app)).toEqual([]);
  });

  it('GIVEN a render thread held WHEN the hold has passed THEN the idle stop ends it as before, returning its memory', async () => {
    h = await scheduled();
    await closeRenderPool();
    configureRenderPool({ idleMs: 20 });
    await warmMapPicture(h.app, h.id);
    // Held from now (an idle thread's stop is put off at once). The hold is long beside the 100 ms
    // looked at inside it, so a loaded machine's late timers cannot carry the look past it.
    const heldAt = performance.now();
    holdRenderThreads(HOLD_MS);
    await sleep(100);
    expect(renderPoolState().workers).toBe(1); // held past its 20 ms idle stop
    // The hold is over: stopped, and not before the hold ended (timers never fire early; polled, no stopwatch).
    while (renderPoolState().workers > 0) await sleep(20);
    expect(performance.now() - heldAt).toBeGreaterThanOrEqual(HOLD_MS);
  });
});

/** Every row of every table of a SQLite database, as text: what a use-case could have written. */
function everyRow(x: Harness): string {
  const db = rawSqlite(x.app.db);
  const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[];
  return JSON.stringify(tables.map(({ name }) => [name, db.prepare(`select * from "${name}"`).raw().all()]));
}

describe('computing a due tick ahead to warm its code (warmTickCode)', () => {
  it('GIVEN a campaign due in 90 s WHEN its tick is computed ahead THEN nothing is written, and the tick played when due is the very one played without it', async () => {
    h = await scheduled();
    other = await scheduled();
    for (const x of [h, other]) x.clock.set(before(90_000));
    const rows = everyRow(h);
    warmTickCode(h.app, h.id);
    expect(everyRow(h)).toBe(rows);
    for (const x of [h, other]) x.clock.set(new Date(FIRST_DUE));
    for (const x of [h, other]) expect((await runDueTicks(x.app)).map((r) => r.played)).toEqual([1]);
    // Same seed, same orders: the same state after the tick (armies, weather, dice and their seeds).
    const { id: _a, ...warmed } = state(h.app, h.id);
    const { id: _b, ...cold } = state(other.app, other.id);
    expect(warmed).toEqual(cold);
  });

  it('GIVEN a tick due in 90 s WHEN the minute check pre-warms THEN the tick\'s code is warmed too, writing nothing (the render thread\'s warm picture is drawn as before)', async () => {
    h = await scheduled();
    h.clock.set(before(90_000));
    const rows = everyRow(h);
    expect(await prewarmDue(h.app)).toEqual([h.id]);
    expect(everyRow(h)).toBe(rows);
  });
});
