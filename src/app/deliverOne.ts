import { oneStatement } from '../db/client.js';
import { markPartSent, markSent, markUndeliverable, releaseForRetry, type OutboxRow } from '../db/outboxRepo.js';
import { releasePicture, RenderThreadDied } from '../render/index.js';
import type { App } from './app.js';
import { giveUp } from './giveUp.js';
import { toItem, type Deliver, type DeliveryContext, type DeliveryResult, type OutboxItem } from './outboxItem.js';

/**
 * Tries before a message is given up: 2 s doubling to the 10-minute cap, about two hours in all,
 * so a Discord outage of a few minutes does not drop a tick's secrets.
 */
const MAX_ATTEMPTS = 20;

const backoffMs = (attempts: number): number => Math.min(600_000, 2_000 * 2 ** (attempts - 1));

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
      oneStatement(app.db, () => markSent(app.db, row.id, owner, now));
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

/** What the pool awaits around drawing a message's pictures (DeliveryLanes). */
export interface DeliveryHooks {
  /** Awaited before the pictures are drawn (the pool bounds the pictures drawn ahead of their lane there). */
  readonly beforeDraw?: () => Promise<void>;
  /** Awaited between drawing the pictures and sending (the lane and the rate are taken there). */
  readonly beforeSend?: () => Promise<void>;
  /** Called right before the transport is (the pool counts the rate from there). */
  readonly onSend?: () => void;
}

/** The row as its transport gets it, its pictures drawn in the pool's turn; ready to send once the pool lets it. */
async function drawnItem(app: App, row: OutboxRow, hooks: DeliveryHooks): Promise<OutboxItem> {
  if (hooks.beforeDraw) await hooks.beforeDraw();
  const item = await toItem(app, row);
  if (hooks.beforeSend) await hooks.beforeSend();
  return item;
}

/**
 * The transport answered (whatever the outcome), so it is done with the pictures: their bytes go now,
 * not at the next full collection (src/render/pictureBytes.ts), whether sent or to be tried again (a
 * retry asks for them anew; kept after a 429 on the busy minute, they were tens of MB of this
 * thread's memory).
 */
function givePicturesBack(item: OutboxItem | undefined): void {
  for (const f of item?.files ?? []) releasePicture(f.data);
}

export async function deliverOne(app: App, row: OutboxRow, owner: string, deliver: Deliver, signal: AbortSignal, hooks: DeliveryHooks = {}): Promise<boolean> {
  let result: DeliveryResult;
  let reason = '';
  let undrawable = false;
  let retryAfterMs: number | undefined;
  let permission: string | undefined;
  let held: readonly string[] | undefined;
  let item: OutboxItem | undefined;
  /** The transport answered (whatever the outcome): it is done with the pictures. */
  let answered = false;
  // Each delivery gets its own signal, aborted with the worker's: listeners a transport hangs on it
  // (one per request) go with the delivery instead of piling up on the long-lived one.
  const own = new AbortController();
  const abort = (): void => own.abort();
  signal.addEventListener('abort', abort, { once: true });
  try {
    item = await drawnItem(app, row, hooks);
    const ctx: DeliveryContext = { signal: own.signal, partSent: (index) => oneStatement(app.db, () => markPartSent(app.db, row.id, owner, index)) };
    hooks.onSend?.();
    const outcome = await deliver(item, ctx);
    answered = true;
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
  if (answered) givePicturesBack(item);
  const now = app.clock.now();
  if (result === 'sent') {
    await settleSent(app, row, owner, now.toISOString());
    return true;
  }
  if (signal.aborted && result === 'retry') {
    // Shutting down mid-wait: the item goes back as it was, for the next start.
    oneStatement(app.db, () => releaseForRetry(app.db, row.id, owner, { attempts: row.attempts, nextAttemptAt: now.toISOString(), lastError: row.attempts > 0 ? reason : null }));
    return false;
  }
  const attempts = row.attempts + 1;
  if (result === 'retry' && attempts < MAX_ATTEMPTS) {
    const wait = retryAfterMs ?? backoffMs(attempts);
    oneStatement(app.db, () => releaseForRetry(app.db, row.id, owner, { attempts, nextAttemptAt: new Date(now.getTime() + wait).toISOString(), lastError: reason || result }));
    return false;
  }
  const lostChannel = result === 'permanent' && row.to === 'channel' && !undrawable;
  try {
    giveUp(app, row, owner, result === 'dmClosed' ? 'dmClosed' : 'failed', reason || result, lostChannel, { permission, held });
  } catch (err) {
    // The campaign could not be loaded: only the row is left to settle.
    oneStatement(app.db, () => markUndeliverable(app.db, row.id, owner, 'failed', attempts, reason || result));
    app.logger.warn({ outboxId: row.id, err: err instanceof Error ? err.message : String(err) }, 'delivery given up for a campaign that could not be loaded');
  }
  return false;
}
