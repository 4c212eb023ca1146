import { afterEach, describe, expect, it } from 'vitest';
import { runDueTicks, sendReminders } from '../../src/app/scheduler/index.js';
import { ConsoleSession } from '../../src/console/session.js';
import type { Harness } from '../scenarios/harness.js';
import { campaignIds, FIRST_DUE, scheduled, SETUP, ticksPlayed } from './fixtures.js';
import { testTempDir } from '../support/tempDirs.js';

let h: (Harness & { id: string }) | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

/** The first campaign of the fixture and two more like it in other channels, all started together. */
async function threeCampaigns(): Promise<Harness & { id: string }> {
  const x = await scheduled();
  for (const channelId of ['second', 'third']) {
    const s = new ConsoleSession(x.app, { where: { guildId: 'console', channelId, baseDir: process.cwd() }, outDir: testTempDir('valormr-slices-'), write: () => {} });
    for (const line of [...SETUP.split('\n'), '@referee /campaign start']) await s.handle(line);
  }
  expect(campaignIds(x.app)).toHaveLength(3);
  return x;
}

/** Runs `work` while counting the event loop's turns (a callback re-queued with setImmediate). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  running = false;
  return { result, turns };
}

describe('the scheduler works through many campaigns in slices that yield to the event loop', () => {
  it('GIVEN three campaigns whose reminders are due THEN the event loop runs between one campaign and the next, and every commander is reminded', async () => {
    h = await threeCampaigns();
    h.clock.set(new Date('2026-11-22T18:30:00Z'));
    const { result, turns } = await turnsDuring(() => sendReminders(h!.app));
    expect(result).toHaveLength(3);
    for (const r of result) expect([...r.reminded].sort()).toEqual(['alice', 'bob']);
    // At least one turn of the loop after each campaign but the last (one synchronous block gives 0).
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('GIVEN three campaigns due on the same minute THEN each tick is played and the event loop runs between them', async () => {
    h = await threeCampaigns();
    h.clock.set(new Date(FIRST_DUE));
    const { result, turns } = await turnsDuring(() => runDueTicks(h!.app));
    expect(result.map((r) => r.played)).toEqual([1, 1, 1]);
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('GIVEN three campaigns due on the same minute THEN what waits on the event loop as the run starts runs after the scan of due campaigns and before the first tick', async () => {
    h = await threeCampaigns();
    h.clock.set(new Date(FIRST_DUE));
    const x = h;
    let playedWhenItRan: number | undefined;
    setImmediate(() => {
      playedWhenItRan = campaignIds(x.app).reduce((n, id) => n + ticksPlayed(x.app, id), 0);
    });
    const run = runDueTicks(x.app);
    const result = await run;
    expect(result.map((r) => r.played)).toEqual([1, 1, 1]);
    expect(playedWhenItRan).toBe(0);
  });
});

