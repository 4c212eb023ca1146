import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScheduler, type SchedulerRun, type Trigger } from '../../src/cron/startScheduler.js';
import type { Harness } from '../scenarios/harness.js';
import { capturingLogger, meta, scheduled, state } from './fixtures.js';

let h: (Harness & { id: string }) | undefined;
let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
  h?.close();
  h = undefined;
});

/** A trigger the test fires by hand instead of every minute. */
function manualTrigger() {
  const fns: (() => void)[] = [];
  let stopped = false;
  const trigger: Trigger = (fn) => {
    fns.push(fn);
    return { stop: () => void (stopped = true) };
  };
  return { trigger, fire: () => fns.forEach((f) => f()), isStopped: () => stopped };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('startScheduler: cron triggers, the database decides', () => {
  it('GIVEN downtime WHEN the scheduler starts THEN it runs at once and catches up', async () => {
    h = await scheduled();
    h.clock.set(new Date('2026-11-23T09:00:00Z'));
    const runs: SchedulerRun[] = [];
    const t = manualTrigger();
    const s = startScheduler(h.app, { trigger: t.trigger, onRun: (r) => runs.push(r) });
    stop = () => s.stop();
    await vi.waitFor(() => expect(runs).toHaveLength(1), { timeout: 10_000 });
    expect(runs[0]?.ticks).toEqual([{ campaignId: h.id, played: 2 }]);
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 2 });
  });

  it('GIVEN a run is still going WHEN triggered again THEN that trigger is skipped (no overlap)', async () => {
    h = await scheduled();
    const runs: SchedulerRun[] = [];
    const t = manualTrigger();
    const s = startScheduler(h.app, { trigger: t.trigger, onRun: (r) => runs.push(r) });
    stop = () => s.stop();
    t.fire(); // the start-up run is still going
    t.fire();
    await vi.waitFor(() => expect(runs).toHaveLength(1), { timeout: 10_000 });
    h.clock.set(new Date('2026-11-22T20:00:05Z'));
    t.fire();
    await vi.waitFor(() => expect(runs).toHaveLength(2), { timeout: 10_000 });
    expect(runs[1]?.ticks).toEqual([{ campaignId: h.id, played: 1 }]);
  });

  it('GIVEN runs in a row THEN reminders follow the ticks', async () => {
    h = await scheduled();
    h.clock.set(new Date('2026-11-22T19:00:00Z'));
    const runs: SchedulerRun[] = [];
    const t = manualTrigger();
    const s = startScheduler(h.app, { trigger: t.trigger, onRun: (r) => runs.push(r) });
    stop = () => s.stop();
    await vi.waitFor(() => expect(runs.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(runs[0]?.reminders).toEqual([{ campaignId: h.id, reminded: expect.arrayContaining(['alice', 'bob']) }]);
  });

  it('GIVEN the database fails THEN nothing escapes: every failure is logged and the runs complete', async () => {
    h = await scheduled();
    const { lines, logger } = capturingLogger();
    const runs: SchedulerRun[] = [];
    const broken = { ...h.app, logger, get db(): never { throw new Error('database gone'); } };
    const t = manualTrigger();
    const s = startScheduler(broken, { trigger: t.trigger, onRun: (r) => runs.push(r) });
    stop = () => s.stop();
    await settle();
    t.fire();
    await settle();
    expect(runs).toEqual([{ ticks: [], reminders: [] }, { ticks: [], reminders: [] }]);
    expect(lines.filter((l) => l.level === 'error').map((l) => (l.obj.err as { message: string }).message)).toEqual(Array(8).fill('database gone')); // per run: pauses, ticks, reminders, pruning
  });

  it('GIVEN onRun itself throws THEN the error goes to onError and the scheduler keeps going', async () => {
    h = await scheduled();
    const errors: unknown[] = [];
    const t = manualTrigger();
    const s = startScheduler(h.app, { trigger: t.trigger, onRun: () => { throw new Error('observer broke'); }, onError: (e) => errors.push(e) });
    stop = () => s.stop();
    await settle();
    t.fire();
    await settle();
    expect(errors.map((e) => (e as Error).message)).toEqual(['observer broke', 'observer broke']);
  });

  it('GIVEN stop THEN the trigger is stopped and later runs do nothing', async () => {
    h = await scheduled();
    const t = manualTrigger();
    const s = startScheduler(h.app, { trigger: t.trigger });
    await settle();
    s.stop();
    expect(t.isStopped()).toBe(true);
    h.clock.set(new Date('2026-11-22T20:00:05Z'));
    expect(await s.runNow()).toBeUndefined();
    expect(meta(h.app, h.id)?.nextTickAt).toBe('2026-11-22T20:00:00.000Z');
  });

  it('GIVEN no trigger is given THEN node-cron is used, and stop ends it', async () => {
    h = await scheduled();
    const s = startScheduler(h.app);
    await settle();
    s.stop();
    expect(state(h.app, h.id).clock).toEqual({ day: 1, half: 0 });
  });
});
