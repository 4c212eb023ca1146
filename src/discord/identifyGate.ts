/**
 * Shard IDENTIFYs spaced across processes. Discord lets a bot identify `max_concurrency` shards
 * at a time, one per bucket (`shard_id % max_concurrency`), each bucket once every 5 seconds.
 * Inside one process discord.js keeps to that by itself (@discordjs/ws's SimpleIdentifyThrottler);
 * under the ShardingManager every shard is its own process with its own throttler, and the
 * manager only spaces the process starts (`delay` from one spawn to the next), not the IDENTIFYs:
 * a shard that starts slowly identifies later, closer to the next one. So the manager holds the
 * one gate: each shard process asks it over IPC before identifying, and the gate lets one shard
 * of a bucket through at a time, at least IDENTIFY_SPACING_MS after the previous one.
 */

/** Discord's window (5 s) and a margin for the time between the gate opening and the IDENTIFY going out. */
const IDENTIFY_SPACING_MS = 5_500;

interface Ask { readonly valormrIdentify: string; readonly shardId: number }
interface Go { readonly valormrIdentifyGo: string }

function isAsk(m: unknown): m is Ask {
  return typeof m === 'object' && m !== null && typeof (m as Ask).valormrIdentify === 'string' && Number.isInteger((m as Ask).shardId);
}

/** The manager's side: one queue per bucket; `open(shardId)` resolves when that shard may identify. */
export class IdentifyGate {
  private readonly buckets = new Map<number, Promise<void>>();

  constructor(
    private readonly maxConcurrency: number,
    private readonly spacingMs = IDENTIFY_SPACING_MS,
    private readonly wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** Resolves when `shardId` may identify: its bucket's previous IDENTIFY is `spacingMs` behind. */
  open(shardId: number): Promise<void> {
    const key = shardId % Math.max(1, this.maxConcurrency);
    const previous = this.buckets.get(key);
    const turn = previous ? previous.then(() => this.wait(this.spacingMs)) : Promise.resolve();
    // The next shard of the bucket waits for this one's turn, then the spacing.
    this.buckets.set(key, turn);
    return turn;
  }

  /** Answers a shard process's request (a message from `Shard#message`); false when it is not one. */
  answer(message: unknown, send: (reply: Go) => unknown): boolean {
    if (!isAsk(message)) return false;
    void this.open(message.shardId).then(() => send({ valormrIdentifyGo: message.valormrIdentify }));
    return true;
  }
}

/**
 * The shard process's side: a discord.js identify throttler (`ws.buildIdentifyThrottler`) that asks
 * the manager's gate over IPC and identifies when it answers.
 */
export function managerIdentifyThrottler(proc: Pick<NodeJS.Process, 'send' | 'on' | 'off' | 'connected'> = process): { waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> } {
  let asked = 0;
  return {
    waitForIdentify(shardId, signal) {
      const id = `${process.pid}.${++asked}`;
      return new Promise<void>((resolve, reject) => {
        const done = (): void => {
          proc.off('message', onMessage);
          signal.removeEventListener('abort', onAbort);
        };
        const onMessage = (m: unknown): void => {
          if (typeof m === 'object' && m !== null && (m as Go).valormrIdentifyGo === id) {
            done();
            resolve();
          }
        };
        const onAbort = (): void => {
          done();
          reject(signal.reason instanceof Error ? signal.reason : new Error('identify aborted'));
        };
        if (signal.aborted) return onAbort();
        if (proc.connected === false) return reject(new Error('the shard manager is gone: no IDENTIFY without its turn'));
        proc.on('message', onMessage);
        signal.addEventListener('abort', onAbort, { once: true });
        proc.send!({ valormrIdentify: id, shardId } satisfies Ask);
      });
    },
  };
}
