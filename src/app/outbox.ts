import { getMaxListeners, setMaxListeners } from 'node:events';
import { writeTransaction } from '../db/client.js';
import { claimIfDue, pruneOutbox, queuedHere, type OutboxRow } from '../db/outboxRepo.js';
import type { App } from './app.js';
import { deliverOne } from './deliverOne.js';
import { newDeliveryOwner, releaseDeadClaims } from './deliveryClaims.js';
import { picturesOf, type Deliver } from './outboxItem.js';

// The outbox's delivery, by concern: this file the pool (lanes, claims, the rate); outboxItem.ts what a
// transport gets; deliverOne.ts one claimed message sent and settled; giveUp.ts a delivery that will
// not happen; deliveryClaims.ts claim owners and dead workers' claims.
export type { DeliveryContext, DeliveryOutcome, DeliveryResult, OutboxItem } from './outboxItem.js';

export interface DeliveryOptions {
  /** Who claims (a process and worker id); random by default. */
  readonly owner?: string;
  /** Destinations delivered to at the same time, one message in flight each (the pool). Default 16. */
  readonly lanes?: number;
  /**
   * At most this many deliveries started in any second: Discord's global rate limit is 50
   * requests a second for a bot, and a message claimed faster than it can be sent only holds its
   * lease. Default 50.
   */
  readonly perSecond?: number;
  /** How long a claim holds before another worker may take the item over. Default 2 minutes. */
  readonly leaseMs?: number;
  readonly signal?: AbortSignal;
  /** What to do with a failure of the pool itself (a claim the database refused). Default: log it. */
  readonly onError?: (error: unknown) => void;
  /**
   * Messages whose pictures are drawn at once WITHOUT holding a lane (default 0: a message holds
   * its lane while its pictures are drawn, as the console wants, one message after another). With
   * it (the Discord transport), text to other destinations keeps going out at the rate limit while
   * maps are drawn; a drawn message then waits for a lane and the rate like any other. Order per
   * destination is the claim's: nothing newer to that destination is handed out meanwhile.
   */
  readonly drawAhead?: number;
  /**
   * Of the messages drawing ahead, how many may be drawing their pictures or holding them drawn
   * while they wait for a lane and the rate (default: all of them, `drawAhead`). The others keep
   * their claim and wait to be drawn, oldest first: the pictures' bytes held at once (about 1.3 MB
   * a map) are bounded by this, not by how many messages are due.
   */
  readonly picturesAhead?: number;
}

const DEFAULT_LEASE_MS = 120_000;
/**
 * Messages with pictures the Discord transport claims at once without holding a lane (PICTURES_AHEAD
 * of them drawing or drawn, the others waiting their turn to draw): few enough that a claim's lease
 * (2 minutes) never runs out meanwhile.
 */
export const DRAW_AHEAD = 32;
/**
 * Of those, the pictures the Discord transport draws or holds drawn at once ahead of their lane:
 * enough for every render thread (at most four, one picture in hand each: src/render/renderPool.ts)
 * and the next picture of each, so a thread never waits for the rate; few enough that pictures
 * drawn faster than Discord takes them do not pile up in this thread (at 1.3 MB a map, all 32
 * drawn ahead could hold 42 MB).
 */
export const PICTURES_AHEAD = 8;
/** Sent messages are kept this long (for the audit of a recent delivery), then deleted. */
const DEFAULT_RETENTION_DAYS = 14;

/** How often the claims of dead workers on this host are looked for (not on every poll). */
const REAP_EVERY_MS = 10_000;

/**
 * The delivery pool. Each destination (a channel, a user's DMs) is a lane: its messages go out one
 * at a time, in order (the claim never hands out a message while an older one to the same
 * destination is pending, whoever holds it, in this process or another). Up to `lanes` lanes are
 * in flight at once, and a lane that frees up is refilled at once from what is due, so a slow or
 * stuck send delays only its own destination. Deliveries start at most `perSecond` a second.
 *
 * `fill` is synchronous and cheap when nothing is due (one indexed read): call it on a timer, after
 * each command and tick, and it is called again after each delivery ends.
 */
export class DeliveryLanes {
  private readonly owner: string;
  private readonly lanes: number;
  private readonly perSecond: number;
  private readonly leaseMs: number;
  private readonly signal: AbortSignal;
  private readonly onError: (error: unknown) => void;
  private readonly drawAhead: number;
  /** Every delivery under way: drawing its pictures, waiting for a lane, or sending. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries holding a lane (at most `lanes`). */
  private holding = 0;
  /** Deliveries drawing their pictures without a lane (at most `drawAhead`). */
  private drawingNow = 0;
  /** Drawn deliveries waiting for a lane and the rate, oldest first (each given its start when let go). */
  private readonly waiting: ((start: { at: number }) => void)[] = [];
  /** At most this many deliveries drawing ahead, or drawn and waiting for a lane, at once. */
  private readonly picturesAhead: number;
  /** Deliveries drawing ahead or drawn and waiting for a lane (at most `picturesAhead`). */
  private picturing = 0;
  /** Claimed deliveries waiting for their turn to draw, oldest first. */
  private readonly toDraw: (() => void)[] = [];
  /** The most deliveries drawing ahead or drawn and waiting for a lane at once (the bound's witness). */
  private picturingPeak = 0;
  /**
   * Deliveries started in the last second, each with its time (performance.now): when its lane was
   * given, then when the transport was called with it. Counted from the call, as Discord counts the
   * request: a start counted from the grant (a claim or a microtask earlier) let the next second's
   * first deliveries reach Discord inside this second's window, answered 429 (the busy minute of
   * 1,000 campaigns: 137-300 requests answered 429).
   */
  private readonly starts: { at: number }[] = [];
  /** Set while due work waits for the rate window: the fill it will run. */
  private paced: Promise<void> | undefined;
  private reapedAt = -Infinity;
  /** queuedHere when the last look found nothing due; undefined once a look found work, or before the first. */
  private quietAt: number | undefined;
  private sentCount = 0;
  private closed = false;

  constructor(private readonly app: App, private readonly deliver: Deliver, opts: DeliveryOptions = {}) {
    this.owner = opts.owner ?? newDeliveryOwner();
    this.lanes = Math.max(1, opts.lanes ?? 16);
    this.perSecond = Math.max(1, opts.perSecond ?? 50);
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.signal = opts.signal ?? new AbortController().signal;
    this.drawAhead = Math.max(0, Math.floor(opts.drawAhead ?? 0));
    this.picturesAhead = Math.max(1, Math.floor(opts.picturesAhead ?? this.drawAhead));
    // Each delivery in flight listens for the shutdown: one listener a lane or a drawing, not a leak.
    setMaxListeners(Math.max(getMaxListeners(this.signal), this.lanes + this.drawAhead + 10), this.signal);
    this.onError = opts.onError ?? ((err) => app.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'outbox delivery failed to claim'));
  }

  /** Messages sent so far. */
  get sent(): number {
    return this.sentCount;
  }

  /** Deliveries in flight now (one per lane, and those drawing their pictures ahead). */
  get busy(): number {
    return this.inFlight.size;
  }

  /**
   * Pictures ahead of their lane: `now` deliveries drawing theirs or holding them drawn while they
   * wait for a lane, `peak` the most at once so far, `queued` claimed deliveries waiting to draw.
   */
  get pictures(): { readonly now: number; readonly peak: number; readonly queued: number } {
    return { now: this.picturing, peak: this.picturingPeak, queued: this.toDraw.length };
  }

  /** Claims what is due into the free lanes and starts it. Throws only if the database does. */
  fill(): void {
    if (this.closed || this.signal.aborted) return;
    const at = performance.now();
    if (at - this.reapedAt >= REAP_EVERY_MS) {
      this.reapedAt = at;
      releaseDeadClaims(this.app);
    }
    this.pump(at);
    for (;;) {
      const laneRoom = this.lanes - this.holding - this.waiting.length;
      const rateRoom = this.perSecond - this.starts.length - this.waiting.length;
      const free = Math.min(laneRoom, rateRoom, this.drawAhead > 0 ? this.drawAhead - this.drawingNow : Number.POSITIVE_INFINITY);
      if (free <= 0) {
        if (laneRoom > 0 && rateRoom <= 0) this.pace(at);
        return;
      }
      const now = this.app.clock.now();
      // An idle poll (several times a second under Discord) takes no write lock on SQLite (outboxRepo claimIfDue).
      const queued = queuedHere(this.app.db);
      const rows = claimIfDue(this.app.db, this.owner, now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), free);
      if (rows.length === 0) {
        // Nothing to claim now: what comes of this process's own queue makes the next fillIfQueued look.
        this.quietAt = queued;
        return;
      }
      this.quietAt = undefined;
      let ahead = false;
      for (const row of rows) ahead = this.start(row, at) || ahead;
      // Messages gone to draw their pictures left their lanes free: claim again for those.
      if (!ahead || rows.length < free) return;
    }
  }

  /**
   * `fill`, unless the last look found nothing due and this process has queued nothing (nor given
   * claims back) since: for after a command, so a command that queued nothing costs no look (a
   * round trip on PostgreSQL). What comes due otherwise (a retry's time, another process's message)
   * is found by the next `fill` (the transport's timer, a delivery's end, `drain`).
   */
  fillIfQueued(): void {
    if (this.quietAt !== undefined && this.quietAt === queuedHere(this.app.db)) return;
    this.fill();
  }

  /**
   * Resolves once nothing is in flight and nothing is due (what is queued meanwhile goes out too).
   * `ifQueued`: start with `fillIfQueued` instead of `fill` (what is in flight is still waited for).
   */
  async drain(opts?: { ifQueued?: boolean }): Promise<void> {
    if (opts?.ifQueued === true) this.fillIfQueued();
    else this.fill();
    while (this.inFlight.size > 0 || this.paced) await Promise.race([...this.inFlight, ...(this.paced ? [this.paced] : [])]);
  }

  /** Claims nothing more; resolves once the deliveries in flight have ended. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Starts a claimed message; true when it went to draw its pictures without a lane. */
  private start(row: OutboxRow, at: number): boolean {
    const ahead = this.drawAhead > 0 && picturesOf(row).length > 0;
    const phase = { drawing: ahead, holding: !ahead, picturing: false };
    // Its place in the rate window: given with the lane, stamped again when the transport is called.
    let started: { at: number } | undefined;
    if (ahead) {
      this.drawingNow++;
    } else {
      this.holding++;
      started = { at };
      this.starts.push(started);
    }
    const sending = (): void => {
      if (started) started.at = performance.now();
      // Its pictures go to the transport now: the next message waiting may draw.
      if (phase.picturing) {
        phase.picturing = false;
        this.endTurn();
      }
    };
    // Ahead of its lane, a message draws in its turn (at most picturesAhead drawing or drawn at once)
    // and gives its turn on when its pictures are handed to the transport.
    const hooks = ahead
      ? {
        beforeDraw: async (): Promise<void> => {
          await this.turnToDraw();
          phase.picturing = true;
        },
        beforeSend: async (): Promise<void> => {
          phase.drawing = false;
          this.drawingNow--;
          const lane = this.lane();
          this.safeFill();
          started = await lane;
          phase.holding = true;
        },
        onSend: sending,
      }
      : { onSend: sending };
    const delivery: Promise<void> = deliverOne(this.app, row, this.owner, this.deliver, this.signal, hooks)
      .then((sent) => {
        if (sent) this.sentCount++;
      }, this.onError)
      .finally(() => {
        if (phase.drawing) this.drawingNow--;
        if (phase.picturing) this.endTurn();
        if (phase.holding) this.holding--;
        this.inFlight.delete(delivery);
        this.safeFill();
      });
    this.inFlight.add(delivery);
    return ahead;
  }

  /** Resolves when a claimed message may draw its pictures: fewer than picturesAhead are drawing or drawn (oldest claim first). */
  private turnToDraw(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.toDraw.push(resolve);
      this.nextToDraw();
    });
  }

  /** A message drawn ahead has its lane (or ended): the next claimed one may draw. */
  private endTurn(): void {
    this.picturing--;
    this.nextToDraw();
  }

  private nextToDraw(): void {
    while (this.toDraw.length > 0 && this.picturing < this.picturesAhead) {
      this.picturing++;
      this.picturingPeak = Math.max(this.picturingPeak, this.picturing);
      (this.toDraw.shift() as () => void)();
    }
  }

  /** Resolves when a drawn message may send: a lane is free and the rate allows (oldest waiting first). */
  private lane(): Promise<{ at: number }> {
    return new Promise<{ at: number }>((resolve) => {
      this.waiting.push(resolve);
      this.pump(performance.now());
    });
  }

  /** Gives free lanes to drawn messages waiting, within the rate. */
  private pump(at: number): void {
    while (this.starts.length > 0 && (this.starts[0] as { at: number }).at <= at - 1000) this.starts.shift();
    while (this.waiting.length > 0 && this.holding < this.lanes && this.starts.length < this.perSecond) {
      this.holding++;
      const start = { at };
      this.starts.push(start);
      (this.waiting.shift() as (start: { at: number }) => void)(start);
    }
    if (this.waiting.length > 0 && this.holding < this.lanes) this.pace(at);
  }

  /** Lanes are free but the second's starts are used: fill again when the oldest start is a second old. */
  private pace(at: number): void {
    if (this.paced) return;
    const wait = Math.max(1, (this.starts[0] as { at: number }).at + 1000 - at);
    this.paced = new Promise<void>((resolve) => {
      setTimeout(() => {
        this.paced = undefined;
        this.safeFill();
        resolve();
      }, wait).unref();
    });
  }

  private safeFill(): void {
    try {
      this.fill();
    } catch (error) {
      this.onError(error);
    }
  }
}

/**
 * Drains the messages due now through `deliver`, in lanes (see DeliveryLanes); messages queued
 * meanwhile (a closed-DM notice) go out in the same call. Several workers, in one process or
 * several, share the outbox safely. Returns how many were sent.
 */
export async function runDelivery(app: App, deliver: Deliver, opts: DeliveryOptions = {}): Promise<number> {
  const lanes = new DeliveryLanes(app, deliver, opts);
  await lanes.drain();
  return lanes.sent;
}

/** Deletes delivered messages (and kept DMs already read) older than the retention period. Returns how many. */
export function pruneDelivered(app: App, retentionDays = DEFAULT_RETENTION_DAYS): number {
  const before = new Date(app.clock.now().getTime() - retentionDays * 86_400_000).toISOString();
  return writeTransaction(app.db, () => pruneOutbox(app.db, before));
}
