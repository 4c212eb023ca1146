/**
 * The manager's IDENTIFY gate (src/discord/identifyGate.ts): shards of one bucket
 * (`shard_id % max_concurrency`) go one at a time, the next one the spacing after the previous
 * one's IDENTIFY was answered (or, if it never says so, the hold limit after its turn); buckets do
 * not wait for each other. Time is the gate's injected wait, so the order is exact and no clock is
 * read.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdentifyGate, managerIdentifyThrottler } from '../../src/discord/identifyGate.js';
import { EventEmitter } from 'node:events';

const SPACING = 5_100;
const HOLD_LIMIT = 60_000;

/** Settles every promise chain that can move without a timer. */
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Plays the gate on a virtual clock: each wait advances it. `answerAfter(shard)` is how long after
 * its go the shard's IDENTIFY is answered (undefined: never). Returns when each shard was let
 * through and answered, and the shards the gate gave up waiting for.
 */
async function play(maxConcurrency: number, shardIds: readonly number[], answerAfter: (shard: number) => number | undefined): Promise<{ opened: Map<number, number>; answered: Map<number, number>; late: number[]; end: number }> {
  let now = 0;
  const timers: { at: number; seq: number; fire: () => void }[] = [];
  let seq = 0;
  const later = (ms: number, fire: () => void): { at: number; seq: number; fire: () => void } => {
    const timer = { at: now + ms, seq: seq++, fire };
    timers.push(timer);
    return timer;
  };
  // A wait cancelled is a timer cleared: it leaves the clock's list and never fires.
  const wait = (ms: number, cancel?: AbortSignal): Promise<void> => new Promise((resolve) => {
    if (cancel?.aborted) return;
    const timer = later(ms, resolve);
    cancel?.addEventListener('abort', () => {
      const at = timers.indexOf(timer);
      if (at >= 0) timers.splice(at, 1);
    });
  });
  const gate = new IdentifyGate(maxConcurrency, SPACING, wait, HOLD_LIMIT);
  const opened = new Map<number, number>();
  const answered = new Map<number, number>();
  const late: number[] = [];
  const all = shardIds.map((id) => gate.open(id, () => late.push(id)).then((settle) => {
    opened.set(id, now);
    const after = answerAfter(id);
    if (after !== undefined) later(after, () => {
      answered.set(id, now);
      settle();
    });
  }));
  // Run the virtual clock: settle what is ready, then jump to the next timer (first set first on a tie).
  for (;;) {
    await flush();
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const next = timers.shift();
    if (!next) break;
    now = next.at;
    next.fire();
  }
  await Promise.all(all);
  return { opened, answered, late, end: now };
}

/** A gate whose waits the test ends by hand, recording each wait asked for. */
function handGate(maxConcurrency: number): { gate: IdentifyGate; waits: { ms: number; end: () => void; cancel?: AbortSignal }[] } {
  const waits: { ms: number; end: () => void; cancel?: AbortSignal }[] = [];
  const gate = new IdentifyGate(maxConcurrency, SPACING, (ms, cancel) => new Promise((resolve) => waits.push({ ms, end: resolve, ...(cancel ? { cancel } : {}) })), HOLD_LIMIT);
  return { gate, waits };
}

/** A shard process's IPC (an EventEmitter) wired to the manager's gate; `sent` is what the shard sent. */
function shardProcess(gate: IdentifyGate): { proc: NodeJS.Process; child: EventEmitter; sent: unknown[] } {
  const child = new EventEmitter() as EventEmitter & { send: (m: unknown) => boolean; connected: boolean };
  const sent: unknown[] = [];
  child.connected = true;
  child.send = (m) => {
    sent.push(m);
    return gate.answer(m, (go) => setImmediate(() => child.emit('message', go)));
  };
  return { proc: child as unknown as NodeJS.Process, child, sent };
}

describe('the IDENTIFY gate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('GIVEN max_concurrency 2, shards 0-5 asking at once and each IDENTIFY answered 300 ms after its go THEN two go at once, and each bucket\'s next goes 5.1 s after the previous answer', async () => {
    const { opened, late } = await play(2, [0, 1, 2, 3, 4, 5], () => 300);
    expect([...opened.entries()].sort((a, b) => a[0] - b[0])).toEqual([[0, 0], [1, 0], [2, 5_400], [3, 5_400], [4, 10_800], [5, 10_800]]);
    expect(late).toEqual([]);
  });

  it('GIVEN a shard let through whose IDENTIFY is answered only 4 s after its go (a loaded machine) THEN the next of its bucket goes 5.1 s after that answer, not 5.1 s after the go', async () => {
    const { opened, answered } = await play(1, [0, 1], (shard) => (shard === 0 ? 4_000 : 10));
    expect(answered.get(0)).toBe(4_000);
    expect(opened.get(1)).toBe(9_100);
  });

  it('GIVEN a shard let through that never says its IDENTIFY was answered THEN the next of its bucket goes after the hold limit and the spacing, and the gate says so', async () => {
    const { opened, late } = await play(1, [0, 1, 2], (shard) => (shard === 0 ? undefined : 10));
    expect(opened.get(1)).toBe(HOLD_LIMIT + SPACING);
    expect(opened.get(2)).toBe(HOLD_LIMIT + SPACING + 10 + SPACING);
    expect(late).toEqual([0]);
  });

  it('GIVEN every shard\'s IDENTIFY answered soon after its go THEN each answer clears its hold limit\'s timer: the clock stops when the last spacing ends, no minute-long timer left running', async () => {
    const { opened, end, late } = await play(1, [0, 1], () => 300);
    expect(opened.get(1)).toBe(300 + SPACING);
    // Shard 1 answered at 5,700 and the spacing after it ended at 10,800: nothing was left to fire after.
    expect(end).toBe(300 + SPACING + 300 + SPACING);
    expect(late).toEqual([]);
  });

  it('PROPERTY: whatever max_concurrency, order of asking and answer times, the first of each bucket opens at once, every shard opens, and each next one of a bucket opens at least 5 s after the previous one\'s answer (or the hold limit after its turn, when it never answers)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }),
      fc.uniqueArray(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 10 }),
      fc.array(fc.option(fc.integer({ min: 0, max: 70_000 }), { nil: undefined, freq: 6 }), { minLength: 16, maxLength: 16 }),
      async (concurrency, shards, answers) => {
        const { opened, answered } = await play(concurrency, shards, (shard) => answers[shard]);
        expect(opened.size).toBe(shards.length);
        for (let key = 0; key < concurrency; key++) {
          const order = shards.filter((s) => s % concurrency === key).sort((a, b) => opened.get(a)! - opened.get(b)!);
          if (order.length > 0) expect(opened.get(order[0]!)).toBe(0);
          for (let i = 1; i < order.length; i++) {
            const previous = order[i - 1]!;
            const at = opened.get(order[i]!)!;
            const answer = answered.get(previous);
            // Answered within the hold limit: spaced from the answer. Otherwise from the turn plus the hold limit.
            if (answer !== undefined && answer - opened.get(previous)! <= HOLD_LIMIT) expect(at - answer).toBeGreaterThanOrEqual(5_000);
            else expect(at - opened.get(previous)!).toBeGreaterThanOrEqual(HOLD_LIMIT + 5_000);
          }
        }
      },
    ), { numRuns: 100 });
  });

  it('GIVEN shard processes asking over IPC WHEN the first is let through THEN the next waits, no spacing even begun, until the first says its IDENTIFY was answered; then it goes after the spacing', async () => {
    const { gate, waits } = handGate(1);
    const a = shardProcess(gate);
    const b = shardProcess(gate);
    const first = managerIdentifyThrottler(a.proc);
    const second = managerIdentifyThrottler(b.proc);
    await first.waitForIdentify(0, new AbortController().signal);
    let secondGo = false;
    const secondWait = second.waitForIdentify(1, new AbortController().signal).then(() => void (secondGo = true));
    await flush();
    // Only the hold limit runs: the spacing waits for the answer.
    expect(waits.map((w) => w.ms)).toEqual([HOLD_LIMIT]);
    expect(waits[0]!.cancel?.aborted).toBe(false);
    first.settled(0);
    await flush();
    expect(a.sent.at(-1)).toEqual({ valormrIdentified: expect.any(String) });
    expect(waits.map((w) => w.ms)).toEqual([HOLD_LIMIT, SPACING]);
    // The answer cleared the hold limit's timer.
    expect(waits[0]!.cancel?.aborted).toBe(true);
    expect(secondGo).toBe(false);
    waits[1]!.end();
    await secondWait;
    expect(secondGo).toBe(true);
    // Settled once: a second READY (a later session) tells the manager nothing more.
    const told = a.sent.length;
    first.settled(0);
    expect(a.sent.length).toBe(told);
  });

  it('GIVEN the gate\'s own timers (node\'s, faked) WHEN a shard let through settles at once THEN only the spacing\'s timer is left, and once it ends only the next shard\'s own hold limit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gate = new IdentifyGate(1);
    const settle = await gate.open(0);
    expect(vi.getTimerCount()).toBe(1);
    settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    let next = false;
    const second = gate.open(1).then(() => void (next = true));
    await vi.advanceTimersByTimeAsync(SPACING - 1);
    expect(next).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await second;
    // Shard 1's turn came: its own hold limit runs, nothing of shard 0's.
    expect(vi.getTimerCount()).toBe(1);
  });

  it('GIVEN a settle for an ask id the gate never queued (a stray or repeated message) THEN it is ignored: a later ask under that id still gets its go', async () => {
    const { gate, waits } = handGate(1);
    const gone: unknown[] = [];
    expect(gate.answer({ valormrIdentified: '77.1' }, (go) => gone.push(go))).toBe(true);
    expect(gate.answer({ valormrIdentify: '77.1', shardId: 0 }, (go) => gone.push(go))).toBe(true);
    await flush();
    expect(gone).toEqual([{ valormrIdentifyGo: '77.1' }]);
    // Settled twice: the second is ignored too, and the id asked again is let through after the spacing.
    gate.answer({ valormrIdentified: '77.1' }, () => undefined);
    gate.answer({ valormrIdentified: '77.1' }, () => undefined);
    gate.answer({ valormrIdentify: '77.1', shardId: 0 }, (go) => gone.push(go));
    await flush();
    expect(waits.map((w) => w.ms)).toEqual([HOLD_LIMIT, SPACING]);
    waits[1]!.end();
    await flush();
    expect(gone).toEqual([{ valormrIdentifyGo: '77.1' }, { valormrIdentifyGo: '77.1' }]);
  });

  it('GIVEN a shard let through that asks again (its connection went before READY) THEN its first attempt is settled and the new one waits the spacing', async () => {
    const { gate, waits } = handGate(1);
    const a = shardProcess(gate);
    const throttler = managerIdentifyThrottler(a.proc);
    await throttler.waitForIdentify(0, new AbortController().signal);
    let again = false;
    const retry = throttler.waitForIdentify(0, new AbortController().signal).then(() => void (again = true));
    await flush();
    expect(a.sent.map((m) => Object.keys(m as object)[0])).toEqual(['valormrIdentify', 'valormrIdentified', 'valormrIdentify']);
    expect(waits.map((w) => w.ms)).toEqual([HOLD_LIMIT, SPACING]);
    expect(again).toBe(false);
    waits[1]!.end();
    await retry;
    expect(again).toBe(true);
  });

  it('GIVEN a shard waiting its turn WHEN it gives up (abort) THEN it rejects, leaves no listener, and its turn does not hold the bucket: it is let go at once (no go sent), the next one the spacing after it', async () => {
    const { gate, waits } = handGate(1);
    const a = shardProcess(gate);
    const b = shardProcess(gate);
    const c = shardProcess(gate);
    const first = managerIdentifyThrottler(a.proc);
    await first.waitForIdentify(0, new AbortController().signal);
    const abort = new AbortController();
    const second = managerIdentifyThrottler(b.proc).waitForIdentify(1, abort.signal);
    let thirdGo = false;
    const third = managerIdentifyThrottler(c.proc).waitForIdentify(2, new AbortController().signal).then(() => void (thirdGo = true));
    abort.abort(new Error('shutting down'));
    await expect(second).rejects.toThrow('shutting down');
    expect(b.child.listenerCount('message')).toBe(0);
    first.settled(0);
    await flush();
    expect(waits.map((w) => w.ms)).toEqual([HOLD_LIMIT, SPACING]);
    waits[1]!.end();
    await flush();
    // Shard 1's turn came and was let go at once (never sent a go); shard 2's turn waits the spacing after it.
    expect(b.sent).toHaveLength(2);
    expect(waits.map((w) => w.ms)).toEqual([HOLD_LIMIT, SPACING, HOLD_LIMIT, SPACING]);
    expect(thirdGo).toBe(false);
    waits[3]!.end();
    await third;
    expect(thirdGo).toBe(true);
  });
});
