import { getCampaignMeta, loadState, saveState, setSchedule } from '../db/campaignRepo.js';
import { appendEvents } from '../db/eventRepo.js';
import { listMembers } from '../db/memberRepo.js';
import { dueMessages, enqueue, getOutbox, setOutboxStatus, type OutboxRow } from '../db/outboxRepo.js';
import type { Database } from '../db/client.js';
import { PUBLIC, REFEREE } from '../engine/events/events.js';
import type { App } from './app.js';
import type { Message, MessageButton } from './messages.js';
import { refereeIds } from './referees.js';

/** A message ready for a transport to deliver: a DM or a channel post, with its outbox row. */
export interface OutboxItem extends Omit<Message, 'to'> {
  readonly id: number;
  readonly campaignId: string;
  readonly to: 'dm' | 'channel';
  readonly attempts: number;
}

export type DeliveryResult = 'sent' | 'dmClosed' | 'retry' | 'permanent';
/** A transport may say why a delivery failed; the reason is kept for the referee. */
export type DeliveryOutcome = DeliveryResult | { readonly result: DeliveryResult; readonly reason?: string };

/**
 * Tries before a message is given up: 2 s doubling to the 10-minute cap, about two hours in all,
 * so a Discord outage of a few minutes does not drop a tick's secrets.
 */
const MAX_ATTEMPTS = 20;

function toItem(r: OutboxRow): OutboxItem {
  return {
    id: r.id,
    campaignId: r.campaignId,
    to: r.to,
    ...(r.userId ? { userId: r.userId } : {}),
    ...(r.channelId ? { channelId: r.channelId } : {}),
    content: r.content,
    data: r.data,
    ...(r.files ? { files: r.files.map((f) => ({ name: f.name, data: Buffer.from(f.base64, 'base64') })) } : {}),
    ...(r.buttons ? { buttons: r.buttons.map((b) => ({ id: b.id, label: b.label, ...(b.style ? { style: b.style as MessageButton['style'] } : {}) })) } : {}),
    attempts: r.attempts,
  };
}

/** Messages whose time has come, oldest first. */
export function claimDueMessages(app: App, limit = 25): OutboxItem[] {
  return dueMessages(app.db, app.clock.now().toISOString(), limit).map(toItem);
}

export function markSent(app: App, id: number): void {
  const now = app.clock.now().toISOString();
  setOutboxStatus(app.db, id, { status: 'sent', deliveredAt: now, lastError: null });
}

/**
 * Records a failed delivery.
 * - retry: tried again later with exponential backoff (a few seconds, doubling, capped at 10
 *   minutes), given up after MAX_ATTEMPTS (about two hours);
 * - dmClosed: the user does not accept DMs. The message is kept (readable with /intel), the
 *   channel is told without the content, the referee gets the list;
 * - permanent: the target is gone (a deleted channel); kept for the referee.
 */
export function markFailed(app: App, id: number, reason: string, kind: Exclude<DeliveryResult, 'sent'>): void {
  const now = app.clock.now();
  app.db.transaction((tx) => {
    const db = tx as unknown as Database;
    const row = getOutbox(db, id);
    if (!row || row.status !== 'pending') return;
    const attempts = row.attempts + 1;
    if (kind === 'retry' && attempts < MAX_ATTEMPTS) {
      const delay = Math.min(600_000, 2_000 * 2 ** (attempts - 1));
      setOutboxStatus(db, id, { status: 'pending', attempts, nextAttemptAt: new Date(now.getTime() + delay).toISOString(), lastError: reason });
      return;
    }
    const status = kind === 'dmClosed' ? 'dmClosed' : 'failed';
    setOutboxStatus(db, id, { status, attempts, lastError: reason });
    const meta = getCampaignMeta(db, row.campaignId);
    if (!meta) return;
    const iso = now.toISOString();
    if (kind === 'dmClosed' && row.userId) {
      const member = listMembers(db, row.campaignId).find((m) => m.userId === row.userId);
      const who = member?.displayName || row.userId;
      enqueue(db, {
        campaignId: row.campaignId, to: 'channel', channelId: meta.channelId,
        content: `<@${row.userId}>, I could not send you a direct message (your DMs are closed). Run \`/intel\` here to read it privately.`,
        data: { dmClosed: row.userId },
        dedupeKey: `dmClosed:${row.userId}:${row.campaignId}:${Math.floor(now.getTime() / 600_000)}`,
      }, iso);
      if (row.userId !== meta.ownerUserId) {
        enqueue(db, { campaignId: row.campaignId, to: 'dm', userId: meta.ownerUserId, content: `Referee: a DM to ${who} could not be delivered (closed DMs). They were told to use /intel.`, data: { dmClosed: row.userId, outboxId: id },
          // One notice per player per ten minutes, like the channel's: a busy tick fails many DMs at once.
          dedupeKey: `dmClosedReferee:${row.userId}:${row.campaignId}:${Math.floor(now.getTime() / 600_000)}` }, iso);
      }
    }
    if (kind === 'permanent' && row.to === 'channel' && row.channelId === meta.channelId) pauseForLostChannel(db, meta, reason, iso);
    appendEvents(db, row.campaignId, { day: 0, half: 0 }, null, [{ type: kind === 'dmClosed' ? 'dmUndeliverable' : 'deliveryFailed', audience: REFEREE, text: `Delivery ${kind}: message ${id} to ${row.userId ?? row.channelId ?? '?'}: ${reason}`, data: { outboxId: id } }], iso);
  });
}

/**
 * The campaign channel is gone (deleted) or closed to the bot: nobody can read the chronicle or
 * give orders there, so a running campaign is paused rather than played on unseen, and every
 * referee is told by DM once.
 */
function pauseForLostChannel(db: Database, meta: NonNullable<ReturnType<typeof getCampaignMeta>>, reason: string, iso: string): void {
  const state = loadState(db, meta.id);
  if (!state || state.status !== 'running') return;
  saveState(db, state, { ...state, status: 'paused' }, iso);
  setSchedule(db, meta.id, null);
  const text = `The campaign **${state.name}** is paused: I cannot post in its channel <#${meta.channelId}> (${reason.slice(0, 200)}). If the channel still exists, give me access to it again and use \`/campaign resume\` there.`;
  appendEvents(db, meta.id, state.clock, null, [{ type: 'campaignPaused', audience: PUBLIC, text, data: { reason: 'channelLost' } }], iso);
  const referees = refereeIds(meta, listMembers(db, meta.id));
  for (const userId of referees) {
    enqueue(db, { campaignId: meta.id, to: 'dm', userId, content: `**Referee** (${state.name})\n${text}`, data: { campaignPaused: meta.id, reason: 'channelLost' } }, iso);
  }
}

/**
 * Drains the messages due now through `deliver`, one at a time (a transport never hammers).
 * Messages queued while draining (a closed-DM notice) go out in the same call.
 */
export async function runDelivery(app: App, deliver: (item: OutboxItem) => Promise<DeliveryOutcome>): Promise<number> {
  let sent = 0;
  const tried = new Set<number>();
  for (let round = 0; round < 5; round++) {
    const batch = claimDueMessages(app).filter((m) => !tried.has(m.id));
    if (batch.length === 0) break;
    for (const item of batch) {
      tried.add(item.id);
      let result: DeliveryResult;
      let reason = '';
      try {
        const outcome = await deliver(item);
        result = typeof outcome === 'string' ? outcome : outcome.result;
        reason = typeof outcome === 'string' ? '' : outcome.reason ?? '';
      } catch (e) {
        result = 'retry';
        reason = (e as Error).message;
      }
      if (result === 'sent') {
        markSent(app, item.id);
        sent++;
      } else {
        markFailed(app, item.id, reason || result, result);
      }
    }
  }
  return sent;
}
