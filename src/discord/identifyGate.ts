/**
 * Shard IDENTIFYs spaced across processes. Discord lets a bot identify `max_concurrency` shards
 * at a time, one per bucket (`shard_id % max_concurrency`), each bucket once every 5 seconds.
 * Inside one process discord.js keeps to that by itself (@discordjs/ws's SimpleIdentifyThrottler);
 * under the ShardingManager every shard is its own process with its own throttler, and the
 * manager only spaces the process starts (`delay` from one spawn to the next), not the IDENTIFYs:
 * a shard that starts slowly identifies later, closer to the next one. So the manager holds the
 * one gate: each shard process asks it over IPC before identifying, and the gate lets one shard
 * of a bucket through at a time.
 *
 * The spacing is counted from Discord's answer, not from the gate opening: the shard that was let
 * through tells the gate once its IDENTIFY is answered (READY, which Discord sends after it has
 * received the IDENTIFY) or its connection is gone, and only then does the bucket's next shard
 * wait IDENTIFY_SPACING_MS. However long a loaded machine takes between the go and the IDENTIFY
 * leaving, two IDENTIFYs of a bucket reach Discord at least 5 s apart.
 */

/** Discord's window (5 s), counted from the previous IDENTIFY's answer, and 100 ms for timer and clock granularity. */
const IDENTIFY_SPACING_MS = 5_100;
/**
 * How long the gate waits for a shard let through to say its IDENTIFY was answered before the
 * bucket's next shard goes anyway (a shard that hangs must not keep the others off Discord).
 * discord.js gives up waiting for READY after 15 s and reconnects, which tells the gate.
 */
const IDENTIFY_HOLD_LIMIT_MS = 60_000;

/** A timer of `ms` as a promise; `cancel` clears it (the promise then never resolves). */
function clearableWait(ms: number, cancel?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (cancel?.aborted) return;
    const timer = setTimeout(resolve, ms);
    cancel?.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });
}

interface Ask { readonly valormrIdentify: string; readonly shardId: number }
interface Go { readonly valormrIdentifyGo: string }
/** The shard is done with the ask `valormrIdentified`: its IDENTIFY was answered, its connection is gone, or it no longer waits. */
interface Settled { readonly valormrIdentified: string }

function isAsk(m: unknown): m is Ask {
  return typeof m === 'object' && m !== null && typeof (m as Ask).valormrIdentify === 'string' && Number.isInteger((m as Ask).shardId);
}

function isSettled(m: unknown): m is Settled {
  return typeof m === 'object' && m !== null && typeof (m as Settled).valormrIdentified === 'string';
}

/** The manager's side: one queue per bucket. */
export class IdentifyGate {
  private readonly buckets = new Map<number, Promise<void>>();
  /** Asks let through whose shard has not yet said it is done, by ask id: what lets the bucket's next one wait its spacing. */
  private readonly holding = new Map<string, () => void>();
  /**
   * Asks waiting their turn, by ask id: true once the shard gave one up (settled it) before its
   * turn came. Only ids asked are kept, each until its turn: a settle of an id the gate is not
   * waiting on (never asked, or already let through and settled) is ignored, not kept for ever.
   */
  private readonly queued = new Map<string, boolean>();

  /**
   * `wait(ms, cancel)`: resolves after `ms`; once `cancel` aborts, its timer is cleared and it never
   * resolves (the gate cancels a hold limit when its shard settles).
   */
  constructor(
    private readonly maxConcurrency: number,
    private readonly spacingMs = IDENTIFY_SPACING_MS,
    private readonly wait: (ms: number, cancel?: AbortSignal) => Promise<void> = clearableWait,
    private readonly holdLimitMs = IDENTIFY_HOLD_LIMIT_MS,
  ) {}

  /**
   * Resolves when `shardId` may identify, with the function to call once its IDENTIFY is answered
   * (or its attempt is over): the bucket's next shard goes `spacingMs` after that call, or after
   * `holdLimitMs` without it (then `late` is called).
   */
  open(shardId: number, late?: () => void): Promise<() => void> {
    const key = shardId % Math.max(1, this.maxConcurrency);
    const turn = this.buckets.get(key) ?? Promise.resolve();
    // Settling clears the hold limit's timer: a shard answered at once leaves no minute-long timer behind.
    const holdOver = new AbortController();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = () => {
      holdOver.abort();
      resolve();
    }));
    const answeredOrLate = Promise.race([settled.then(() => true), turn.then(() => this.wait(this.holdLimitMs, holdOver.signal)).then(() => false)]);
    // The bucket's next shard waits for this one's turn, its answer, then the spacing.
    this.buckets.set(key, turn.then(() => answeredOrLate).then((answered) => {
      if (!answered) late?.();
      return this.wait(this.spacingMs);
    }));
    return turn.then(() => settle);
  }

  /**
   * Answers a shard process's message (from `Shard#message`): an ask is answered with a go on its
   * turn; a settled ask lets the bucket's next shard wait its spacing. False when it is neither.
   */
  answer(message: unknown, send: (reply: Go) => unknown, late?: () => void): boolean {
    if (isSettled(message)) {
      const id = message.valormrIdentified;
      const settle = this.holding.get(id);
      this.holding.delete(id);
      if (settle) settle();
      else if (this.queued.has(id)) this.queued.set(id, true);
      return true;
    }
    if (!isAsk(message)) return false;
    const id = message.valormrIdentify;
    this.queued.set(id, false);
    void this.open(message.shardId, late).then((settle) => {
      const withdrawn = this.queued.get(id) === true;
      this.queued.delete(id);
      // Given up before its turn (the shard's connection closed while it waited): nothing to send.
      if (withdrawn) return settle();
      this.holding.set(id, settle);
      send({ valormrIdentifyGo: id });
    });
    return true;
  }
}

/** The shard process's throttler: discord.js asks `waitForIdentify`; the client's events call `settled`. */
export interface ManagerIdentifyThrottler {
  waitForIdentify(shardId: number, signal: AbortSignal): Promise<void>;
  /** The shard's IDENTIFY was answered (READY) or its connection is gone: the manager may space the next one from now. */
  settled(shardId: number): void;
}

/**
 * The shard process's side: a discord.js identify throttler (`ws.buildIdentifyThrottler`) that asks
 * the manager's gate over IPC and identifies when it answers, then tells the gate when that
 * IDENTIFY is answered or its connection is gone (`settled`, from the client's events:
 * src/discord/gateway.ts). An attempt that ends any other way is settled when the shard asks again
 * or gives up waiting.
 */
export function managerIdentifyThrottler(proc: Pick<NodeJS.Process, 'send' | 'on' | 'off' | 'connected'> = process): ManagerIdentifyThrottler {
  let asked = 0;
  /** The ask whose go each shard used, until it is settled. */
  const unsettled = new Map<number, string>();
  const tell = (id: string): void => {
    // The manager gone (it is stopping): nobody to tell.
    if (proc.connected !== false) proc.send!({ valormrIdentified: id } satisfies Settled, undefined, undefined, () => undefined);
  };
  const settled = (shardId: number): void => {
    const id = unsettled.get(shardId);
    if (id === undefined) return;
    unsettled.delete(shardId);
    tell(id);
  };
  return {
    settled,
    waitForIdentify(shardId, signal) {
      // Asking again: the shard's previous IDENTIFY is over (its connection is gone).
      settled(shardId);
      const id = `${process.pid}.${++asked}`;
      return new Promise<void>((resolve, reject) => {
        const done = (): void => {
          proc.off('message', onMessage);
          signal.removeEventListener('abort', onAbort);
        };
        const onMessage = (m: unknown): void => {
          if (typeof m === 'object' && m !== null && (m as Go).valormrIdentifyGo === id) {
            done();
            unsettled.set(shardId, id);
            resolve();
          }
        };
        const onAbort = (): void => {
          done();
          // No IDENTIFY will follow this ask: its turn, if it comes, is not held.
          tell(id);
          reject(signal.reason instanceof Error ? signal.reason : new Error('identify aborted'));
        };
        if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('identify aborted'));
        if (proc.connected === false) return reject(new Error('the shard manager is gone: no IDENTIFY without its turn'));
        proc.on('message', onMessage);
        signal.addEventListener('abort', onAbort, { once: true });
        proc.send!({ valormrIdentify: id, shardId } satisfies Ask);
      });
    },
  };
}
