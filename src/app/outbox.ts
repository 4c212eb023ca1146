import { randomBytes } from 'node:crypto';
import { getMaxListeners, setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { writeTransaction } from '../db/client.js';
import { anyDue, claimants, claimDue, markPartSent, markSent, markUndeliverable, pruneOutbox, releaseClaims, releaseForRetry, type OutboxRow } from '../db/outboxRepo.js';
import { type EngineEvent, REFEREE } from '../engine/events/index.js';
import { RenderThreadDied } from '../render/index.js';
import type { App } from './app.js';
import type { Card, MessageButton, MessageFile, Picture } from './messages.js';
import { paint } from './pictures.js';
import { deliver, OPEN, REFEREE_ONLY } from './deliveries/audience.js';
import { CHANNEL_FAULT } from './referee/heldMessages.js';
import { channelFaultPause } from './campaign/channelFault.js';
import { withOwnInvocation, type ChannelFault } from './journal/invocation.js';
import { inCampaign } from './unitOfWork.js';
import type { Outgoing } from './deliveries/outgoing.js';
import { dmTestRefused, isDmTest } from './deliveries/dmTest.js';

/** A message ready for a transport to deliver: a DM or a channel post, its pictures drawn. */
export interface OutboxItem {
  readonly id: number;
  readonly campaignId: string;
  readonly to: 'dm' | 'channel';
  readonly userId?: string;
  readonly channelId?: string;
  /** The text; with cards, a short headline. */
  readonly content: string;
  readonly cards?: readonly Card[];
  readonly data?: unknown;
  readonly buttons?: readonly MessageButton[];
  /** Users the message is meant to ping (a transport pings nobody else). */
  readonly mentions: readonly string[];
  readonly files: readonly MessageFile[];
  readonly attempts: number;
  /** Parts of a split message already delivered by an earlier attempt: send only the rest. */
  readonly partsSent: number;
  /** Stable id of the item: with the part number, the nonce that makes a repeated send harmless. */
  readonly nonce: string;
}

/** What a transport gets besides the item. */
export interface DeliveryContext {
  /** Call after part `index` (0-based) of the item went out, so a retry starts after it. */
  partSent(index: number): void;
  /** Aborted when the process shuts down: give up waiting (the item stays pending). */
  readonly signal: AbortSignal;
}

export type DeliveryResult = 'sent' | 'dmClosed' | 'retry' | 'permanent';
/**
 * A transport may say why a delivery failed (kept for the referee), and for a rate limit how long
 * to wait before this item is tried again (other items keep flowing meanwhile).
 */
export type DeliveryOutcome = DeliveryResult | {
  readonly result: DeliveryResult;
  readonly reason?: string;
  readonly retryAfterMs?: number;
  /** The permission the bot lacks in the channel, as the platform names it (the referee's notice says which). */
  readonly missingPermission?: string;
  /**
   * A refusal for missing permissions that the bot's live permissions in the channel do not
   * explain: the permissions it does hold there (the notice says so instead of guessing).
   */
  readonly permissionsHeld?: readonly string[];
};


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
}

/**
 * Tries before a message is given up: 2 s doubling to the 10-minute cap, about two hours in all,
 * so a Discord outage of a few minutes does not drop a tick's secrets.
 */
const MAX_ATTEMPTS = 20;
const DEFAULT_LEASE_MS = 120_000;
/**
 * Messages the Discord transport draws pictures for at once without holding a lane: enough to keep
 * every render thread busy, few enough that a claim's lease (2 minutes) never runs out meanwhile.
 */
export const DRAW_AHEAD = 32;
/** Sent messages are kept this long (for the audit of a recent delivery), then deleted. */
const DEFAULT_RETENTION_DAYS = 14;

const backoffMs = (attempts: number): number => Math.min(600_000, 2_000 * 2 ** (attempts - 1));

/** Cards as stored (the app's own JSON). */
function cardsOf(row: OutboxRow): readonly Card[] {
  return Array.isArray(row.cards) ? (row.cards as Card[]) : [];
}

/** Pictures as stored (the app's own JSON). */
function picturesOf(row: OutboxRow): readonly Picture[] {
  return Array.isArray(row.pictures) ? (row.pictures as Picture[]) : [];
}

async function toItem(app: App, r: OutboxRow): Promise<OutboxItem> {
  const drawn: MessageFile[] = [];
  for (const p of picturesOf(r)) drawn.push(await paint(app, r.campaignId, p));
  const legacy = (r.legacyFiles ?? []).map((f) => ({ name: f.name, data: new Uint8Array(Buffer.from(f.base64, 'base64')) }));
  return {
    id: r.id,
    campaignId: r.campaignId,
    to: r.to,
    ...(r.userId ? { userId: r.userId } : {}),
    ...(r.channelId ? { channelId: r.channelId } : {}),
    content: r.content,
    ...(cardsOf(r).length > 0 ? { cards: cardsOf(r) } : {}),
    data: r.data,
    ...(r.buttons ? { buttons: r.buttons.map((b) => ({ id: b.id, label: b.label, ...(b.style ? { style: b.style as MessageButton['style'] } : {}), ...(b.command ? { command: b.command } : {}) })) } : {}),
    mentions: r.mentions ?? [],
    files: [...legacy, ...drawn],
    attempts: r.attempts,
    partsSent: r.partsSent,
    nonce: r.nonce,
  };
}

/**
 * Records a delivery that will not happen, in one transaction with what it implies:
 * - dmClosed: the user does not accept DMs. The message is kept (readable with /intel), the
 *   channel is told without the content, the referee gets the list;
 * - failed (given up after MAX_ATTEMPTS, or a target that is gone): kept for the referee; a lost
 *   campaign channel pauses the campaign.
 */
function giveUp(app: App, row: OutboxRow, owner: string, status: 'dmClosed' | 'failed', reason: string, lostChannel: boolean, fault: { permission?: string | undefined; held?: readonly string[] | undefined } = {}): void {
  const { permission, held } = fault;
  const pauseFor: ChannelFault = { reason, ...(permission !== undefined ? { permission } : {}), ...(held !== undefined ? { held } : {}) };
  const run = (): void => inCampaign(app, { campaignId: row.campaignId }, (tx) => {
    const now = tx.now;
    const slot = Math.floor(now.getTime() / 600_000);
    const outbox: Outgoing[] = [];
    const events: EngineEvent[] = [{ type: status === 'dmClosed' ? 'dmUndeliverable' : 'deliveryFailed', audience: REFEREE, text: `Delivery ${status === 'dmClosed' ? 'refused (closed DMs)' : 'failed'}: message ${row.id} to ${row.userId ?? row.channelId ?? '?'}: ${reason}`, data: { outboxId: row.id } }];
    if (status === 'dmClosed' && row.userId) {
      const who = tx.members.find((m) => m.userId === row.userId)?.displayName || row.userId;
      if (isDmTest(row.data)) {
        // A DM test (assign, start): the channel names the player and the referee, pinging nobody.
        outbox.push(...dmTestRefused(tx, row.userId, `dmTest:${row.userId}:${row.campaignId}:${slot}`));
      } else {
        outbox.push(...deliver(tx, 'channel', OPEN, {
          content: `<@${row.userId}>, I could not send you a direct message (your DMs are closed). Run \`/intel\` here to read it privately.`,
          data: { dmClosed: row.userId },
          mentions: [row.userId],
          dedupeKey: `dmClosed:${row.userId}:${row.campaignId}:${slot}`,
        }));
      }
      if (row.userId !== tx.meta.ownerUserId) {
        // One notice per player per ten minutes, like the channel's: a busy tick fails many DMs at once.
        outbox.push(...deliver(tx, { user: tx.meta.ownerUserId }, REFEREE_ONLY, { content: `Referee: a DM to ${who} could not be delivered (closed DMs). They were told to use /intel.`, data: { dmClosed: row.userId, outboxId: row.id }, dedupeKey: `dmClosedReferee:${row.userId}:${row.campaignId}:${slot}` }));
      }
    }
    // Another worker took the item over (this one's lease ran out): it settles it.
    if (!tx.read.claimedMessage(row.id, owner)) return { result: undefined };
    const undeliverable = { id: row.id, owner, status, attempts: row.attempts + 1, reason: lostChannel ? `${CHANNEL_FAULT}${reason}` : reason };
    if (lostChannel && tx.state.status === 'running') {
      // Nobody can read the chronicle or give orders there: paused rather than played on unseen.
      const pause = channelFaultPause(tx, pauseFor);
      return { ...pause, events: [...events, ...pause.events], outbox: [...outbox, ...pause.outbox], undeliverable, result: undefined };
    }
    return { events, outbox, undeliverable, result: undefined };
  });
  // A pause for a lost channel is the delivery loop's own change: journalled as such (docs/replay.md).
  if (lostChannel) withOwnInvocation({ kind: 'channelFault', campaignId: row.campaignId, fault: pauseFor }, run);
  else run();
}

/** Waits before each new try to record a sent message: about 50 s in all, well inside the lease. */
const MARK_SENT_WAITS_MS = [100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600];

/**
 * Records a sent message. If the database refuses (locked past its busy timeout, disk full) the
 * record is tried again for about 50 s, inside the claim's lease: a message that went out must not
 * be taken for unsent when the lease ends and go out a second time.
 */
async function settleSent(app: App, row: OutboxRow, owner: string, now: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      writeTransaction(app.db, () => markSent(app.db, row.id, owner, now));
      if (attempt > 0) app.logger.info({ outboxId: row.id, attempts: attempt + 1 }, 'sent message recorded after a retry');
      return;
    } catch (err) {
      const wait = MARK_SENT_WAITS_MS[attempt];
      const about = { outboxId: row.id, err: err instanceof Error ? err.message : String(err) };
      if (wait === undefined) {
        app.logger.error(about, 'a sent message could not be recorded as sent: it may go out again when its claim ends (Discord drops the repeat by its nonce)');
        return;
      }
      app.logger.warn({ ...about, retryInMs: wait }, 'recording a sent message failed; trying again');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** `beforeSend`, when given, is awaited between drawing the pictures and sending (the lane and the rate are taken there). */
async function deliverOne(app: App, row: OutboxRow, owner: string, deliver: (item: OutboxItem, ctx: DeliveryContext) => Promise<DeliveryOutcome>, signal: AbortSignal, beforeSend?: () => Promise<void>): Promise<boolean> {
  let result: DeliveryResult;
  let reason = '';
  let undrawable = false;
  let retryAfterMs: number | undefined;
  let permission: string | undefined;
  let held: readonly string[] | undefined;
  // Each delivery gets its own signal, aborted with the worker's: listeners a transport hangs on it
  // (one per request) go with the delivery instead of piling up on the long-lived one.
  const own = new AbortController();
  const abort = (): void => own.abort();
  signal.addEventListener('abort', abort, { once: true });
  try {
    const item = await toItem(app, row);
    if (beforeSend) await beforeSend();
    const ctx: DeliveryContext = { signal: own.signal, partSent: (index) => writeTransaction(app.db, () => markPartSent(app.db, row.id, owner, index)) };
    const outcome = await deliver(item, ctx);
    result = typeof outcome === 'string' ? outcome : outcome.result;
    if (typeof outcome !== 'string') {
      reason = outcome.reason ?? '';
      retryAfterMs = outcome.retryAfterMs;
      permission = outcome.missingPermission;
      held = outcome.permissionsHeld;
    }
  } catch (e) {
    // A picture that killed two render threads would kill the next: given up at once, the referee told.
    undrawable = e instanceof RenderThreadDied;
    result = undrawable ? 'permanent' : 'retry';
    reason = e instanceof Error ? e.message : String(e);
  } finally {
    signal.removeEventListener('abort', abort);
  }
  const now = app.clock.now();
  if (result === 'sent') {
    await settleSent(app, row, owner, now.toISOString());
    return true;
  }
  if (signal.aborted && result === 'retry') {
    // Shutting down mid-wait: the item goes back as it was, for the next start.
    writeTransaction(app.db, () => releaseForRetry(app.db, row.id, owner, { attempts: row.attempts, nextAttemptAt: now.toISOString(), lastError: row.attempts > 0 ? reason : null }));
    return false;
  }
  const attempts = row.attempts + 1;
  if (result === 'retry' && attempts < MAX_ATTEMPTS) {
    const wait = retryAfterMs ?? backoffMs(attempts);
    writeTransaction(app.db, () => releaseForRetry(app.db, row.id, owner, { attempts, nextAttemptAt: new Date(now.getTime() + wait).toISOString(), lastError: reason || result }));
    return false;
  }
  const lostChannel = result === 'permanent' && row.to === 'channel' && !undrawable;
  try {
    giveUp(app, row, owner, result === 'dmClosed' ? 'dmClosed' : 'failed', reason || result, lostChannel, { permission, held });
  } catch (err) {
    // The campaign could not be loaded: only the row is left to settle.
    writeTransaction(app.db, () => markUndeliverable(app.db, row.id, owner, 'failed', attempts, reason || result));
    app.logger.warn({ outboxId: row.id, err: err instanceof Error ? err.message : String(err) }, 'delivery given up for a campaign that could not be loaded');
  }
  return false;
}

/** A claim owner unique to this worker: its host and process id, and random bits. */
function newDeliveryOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Whether a claim owner is a process on this host that no longer runs. */
function deadHere(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !pid || !/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Releases the claims of delivery workers on this host whose process has died (a crash, a kill),
 * so a restarted bot takes their items over at once instead of waiting for the leases to run out.
 * What they had half sent resumes from its recorded parts (and Discord drops a repeated nonce).
 */
function releaseDeadClaims(app: App): number {
  const now = app.clock.now().toISOString();
  const dead = claimants(app.db, now).filter(deadHere);
  if (dead.length === 0) return 0;
  return writeTransaction(app.db, () => dead.reduce((n, owner) => n + releaseClaims(app.db, owner), 0));
}

type Deliver = (item: OutboxItem, ctx: DeliveryContext) => Promise<DeliveryOutcome>;

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
  /** Drawn deliveries waiting for a lane and the rate, oldest first. */
  private readonly waiting: (() => void)[] = [];
  /** Start times (performance.now) of the deliveries started in the last second. */
  private readonly starts: number[] = [];
  /** Set while due work waits for the rate window: the fill it will run. */
  private paced: Promise<void> | undefined;
  private reapedAt = -Infinity;
  private sentCount = 0;
  private closed = false;

  constructor(private readonly app: App, private readonly deliver: Deliver, opts: DeliveryOptions = {}) {
    this.owner = opts.owner ?? newDeliveryOwner();
    this.lanes = Math.max(1, opts.lanes ?? 16);
    this.perSecond = Math.max(1, opts.perSecond ?? 50);
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.signal = opts.signal ?? new AbortController().signal;
    this.drawAhead = Math.max(0, Math.floor(opts.drawAhead ?? 0));
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
      // An idle poll (several times a second under Discord) reads; only work to claim takes the write lock.
      if (!anyDue(this.app.db, now.toISOString())) return;
      const rows = writeTransaction(this.app.db, () => claimDue(this.app.db, this.owner, now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), free));
      let ahead = false;
      for (const row of rows) ahead = this.start(row, at) || ahead;
      // Messages gone to draw their pictures left their lanes free: claim again for those.
      if (!ahead || rows.length < free) return;
    }
  }

  /** Resolves once nothing is in flight and nothing is due (what is queued meanwhile goes out too). */
  async drain(): Promise<void> {
    this.fill();
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
    const phase = { drawing: ahead, holding: !ahead };
    if (ahead) {
      this.drawingNow++;
    } else {
      this.holding++;
      this.starts.push(at);
    }
    const beforeSend = ahead
      ? async (): Promise<void> => {
        phase.drawing = false;
        this.drawingNow--;
        const lane = this.lane();
        this.safeFill();
        await lane;
        phase.holding = true;
      }
      : undefined;
    const delivery: Promise<void> = deliverOne(this.app, row, this.owner, this.deliver, this.signal, beforeSend)
      .then((sent) => {
        if (sent) this.sentCount++;
      }, this.onError)
      .finally(() => {
        if (phase.drawing) this.drawingNow--;
        if (phase.holding) this.holding--;
        this.inFlight.delete(delivery);
        this.safeFill();
      });
    this.inFlight.add(delivery);
    return ahead;
  }

  /** Resolves when a drawn message may send: a lane is free and the rate allows (oldest waiting first). */
  private lane(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.pump(performance.now());
    });
  }

  /** Gives free lanes to drawn messages waiting, within the rate. */
  private pump(at: number): void {
    while (this.starts.length > 0 && (this.starts[0] as number) <= at - 1000) this.starts.shift();
    while (this.waiting.length > 0 && this.holding < this.lanes && this.starts.length < this.perSecond) {
      this.holding++;
      this.starts.push(at);
      (this.waiting.shift() as () => void)();
    }
    if (this.waiting.length > 0 && this.holding < this.lanes) this.pace(at);
  }

  /** Lanes are free but the second's starts are used: fill again when the oldest start is a second old. */
  private pace(at: number): void {
    if (this.paced) return;
    const wait = Math.max(1, (this.starts[0] as number) + 1000 - at);
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
