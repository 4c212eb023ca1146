import { and, asc, eq, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import type { Database } from './client.js';
import { fromJson, prepared } from './prepared.js';
import { outboxMessages } from './schema.js';

/** A file as versions before pictures stored it (base64 inline). Read for old pending rows only. */
export interface LegacyFile {
  readonly name: string;
  readonly base64: string;
}

export type OutboxStatus = 'pending' | 'sent' | 'dmClosed' | 'failed';

export interface OutboxRow {
  readonly id: number;
  readonly campaignId: string;
  readonly to: 'dm' | 'channel';
  readonly userId: string | null;
  readonly channelId: string | null;
  readonly content: string;
  readonly data: unknown;
  /** The pictures to draw at send time, as the app stored them (its own JSON). */
  readonly pictures: unknown;
  readonly legacyFiles: LegacyFile[] | null;
  readonly buttons: { id: string; label: string; style?: string; command?: string }[] | null;
  /** The cards to show, as the app stored them (its own JSON). */
  readonly cards: unknown;
  readonly mentions: string[] | null;
  readonly status: OutboxStatus;
  readonly attempts: number;
  readonly partsSent: number;
  readonly nonce: string;
  readonly createdAt: string;
}

export interface NewOutboxMessage {
  readonly campaignId: string;
  readonly to: 'dm' | 'channel';
  readonly userId?: string;
  readonly channelId?: string;
  readonly content: string;
  readonly data?: unknown;
  readonly pictures?: unknown;
  readonly buttons?: { id: string; label: string; style?: string; command?: string }[];
  readonly cards?: unknown;
  readonly mentions?: string[];
  readonly dedupeKey?: string;
  /** Stable id of the message, sent (with the part number) as Discord's nonce. */
  readonly nonce: string;
}

/** Queues a message; a message with a dedupe key already queued is ignored. Returns whether it was added. */
export function enqueue(db: Database, m: NewOutboxMessage, now: string): boolean {
  const json = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));
  const r = prepared(db, `insert into outbox_messages (campaign_id, "to", user_id, channel_id, content, data, pictures, buttons, cards, mentions,
    status, attempts, next_attempt_at, dedupe_key, nonce, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?) on conflict do nothing`)
    .run(m.campaignId, m.to, m.userId ?? null, m.channelId ?? null, m.content, json(m.data), json(m.pictures), json(m.buttons), json(m.cards), json(m.mentions),
      now, m.dedupeKey ?? null, m.nonce, now);
  return r.changes > 0;
}

function toRow(r: typeof outboxMessages.$inferSelect): OutboxRow {
  return {
    id: r.id, campaignId: r.campaignId, to: r.to, userId: r.userId, channelId: r.channelId, content: r.content, data: r.data,
    pictures: r.pictures, legacyFiles: r.files as LegacyFile[] | null, buttons: r.buttons as OutboxRow['buttons'], cards: r.cards, mentions: r.mentions as string[] | null, status: r.status,
    attempts: r.attempts, partsSent: r.partsSent, nonce: r.nonce ?? `legacy${r.id}`, createdAt: r.createdAt,
  };
}

const CLAIM_DUE = `update outbox_messages set claimed_by = ?, lease_until = ?
    where id in (
      select o.id from outbox_messages o indexed by outbox_pending
      where o.status = 'pending' and o.next_attempt_at <= ? and (o.lease_until is null or o.lease_until < ?)
        and not exists (select 1 from outbox_messages prior where prior.status = 'pending' and prior."to" = o."to"
          and coalesce(prior.user_id, '') = coalesce(o.user_id, '') and coalesce(prior.channel_id, '') = coalesce(o.channel_id, '') and prior.id < o.id)
      order by o.id limit ?)
    returning *`;

/**
 * Claims up to `limit` messages due at `now` for the worker `owner`, until `leaseUntil`, in one
 * statement (atomic: two workers, in one process or two, never claim the same message). A message
 * is due when it is pending, its retry time has come, and no other worker holds a live claim on
 * it (an expired claim, from a worker that died, is taken over). Messages to one destination go
 * out in order: a message waits while an older one to the same user or channel is still pending.
 * Pending messages are walked oldest first on their own index and each lane is checked on its own
 * (outbox_pending, outbox_lane): the sent rows kept for the audit are never read, and a claim
 * costs O(log n) per message looked at.
 */
export function claimDue(db: Database, owner: string, now: string, leaseUntil: string, limit: number): OutboxRow[] {
  const rows = prepared(db, CLAIM_DUE).all(owner, leaseUntil, now, now, limit) as RawOutboxRow[];
  return rows.map(fromRaw).sort((a, b) => a.id - b.id);
}

/** How SQLite runs the claim (EXPLAIN QUERY PLAN, one line a step): which indexes it walks. */
export function claimPlan(db: Database): string[] {
  const rows = db.$client.prepare(`explain query plan ${CLAIM_DUE}`).all('w', '', '', '', 1) as { detail: string }[];
  return rows.map((r) => r.detail);
}

/** Whether any message is due at `now` (a read, so an idle delivery poll takes no write lock). */
export function anyDue(db: Database, now: string): boolean {
  return prepared(db, `select 1 from outbox_messages where status = 'pending' and next_attempt_at <= ? and (lease_until is null or lease_until < ?) limit 1`).get(now, now) !== undefined;
}

/** An outbox row as the driver returns it (snake_case columns, JSON as text). */
interface RawOutboxRow {
  readonly id: number; readonly campaign_id: string; readonly to: 'dm' | 'channel'; readonly user_id: string | null; readonly channel_id: string | null;
  readonly content: string; readonly data: string | null; readonly pictures: string | null; readonly files: string | null; readonly buttons: string | null; readonly cards: string | null;
  readonly mentions: string | null; readonly status: OutboxStatus; readonly attempts: number; readonly parts_sent: number; readonly nonce: string | null; readonly created_at: string;
}

function fromRaw(r: RawOutboxRow): OutboxRow {
  return {
    id: r.id, campaignId: r.campaign_id, to: r.to, userId: r.user_id, channelId: r.channel_id, content: r.content, data: fromJson(r.data),
    pictures: fromJson(r.pictures), legacyFiles: fromJson(r.files), buttons: fromJson(r.buttons), cards: fromJson(r.cards), mentions: fromJson(r.mentions), status: r.status,
    attempts: r.attempts, partsSent: r.parts_sent, nonce: r.nonce ?? `legacy${r.id}`, createdAt: r.created_at,
  };
}

/** The workers holding live claims at `now`. */
export function claimants(db: Database, now: string): string[] {
  const rows = prepared(db, `select distinct claimed_by as owner from outbox_messages indexed by outbox_pending
    where status = 'pending' and lease_until >= ? and claimed_by is not null`).all(now) as { owner: string }[];
  return rows.map((r) => r.owner);
}

/** Ends the claims of a worker that is gone (its process died): its items may be taken over at once. */
export function releaseClaims(db: Database, owner: string): number {
  return db.update(outboxMessages).set({ claimedBy: null, leaseUntil: null })
    .where(and(eq(outboxMessages.claimedBy, owner), eq(outboxMessages.status, 'pending'))).run().changes;
}

/** Records that part `index` (0-based) of a claimed message went out: a retry starts after it. */
export function markPartSent(db: Database, id: number, owner: string, index: number): void {
  prepared(db, 'update outbox_messages set parts_sent = ? where id = ? and claimed_by = ? and parts_sent < ?').run(index + 1, id, owner, index + 1);
}

export function markSent(db: Database, id: number, owner: string, now: string): void {
  prepared(db, `update outbox_messages set status = 'sent', delivered_at = ?, last_error = null, claimed_by = null, lease_until = null, files = null
    where id = ? and claimed_by = ?`).run(now, id, owner);
}

/** Gives a claimed message back for another try at `nextAttemptAt` (a failure, or a shutdown while it waited). */
export function releaseForRetry(db: Database, id: number, owner: string, set: { attempts: number; nextAttemptAt: string; lastError: string | null }): void {
  db.update(outboxMessages).set({ ...set, claimedBy: null, leaseUntil: null })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.claimedBy, owner))).run();
}

/** Ends a claimed message's delivery without sending it: kept for /intel (dmClosed) or for the referee (failed). */
export function markUndeliverable(db: Database, id: number, owner: string, status: 'dmClosed' | 'failed', attempts: number, lastError: string): void {
  db.update(outboxMessages).set({ status, attempts, lastError, claimedBy: null, leaseUntil: null, files: null })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.claimedBy, owner), eq(outboxMessages.status, 'pending'))).run();
}

/** The message, if it is still pending and claimed by `owner`. */
export function claimedMessage(db: Database, id: number, owner: string): OutboxRow | undefined {
  const r = db.select().from(outboxMessages).where(and(eq(outboxMessages.id, id), eq(outboxMessages.claimedBy, owner), eq(outboxMessages.status, 'pending'))).get();
  return r ? toRow(r) : undefined;
}


export function outboxByStatus(db: Database, campaignId: string, statuses: readonly OutboxStatus[]): OutboxRow[] {
  return db.select().from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), inArray(outboxMessages.status, [...statuses])))
    .orderBy(asc(outboxMessages.id)).all().map(toRow);
}

/** Direct messages to a user that could not be delivered and have not been read with /intel yet. */
export function keptMessages(db: Database, campaignId: string, userId: string): OutboxRow[] {
  return db.select().from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), eq(outboxMessages.to, 'dm'), eq(outboxMessages.userId, userId),
      inArray(outboxMessages.status, ['dmClosed', 'failed']), isNull(outboxMessages.readAt)))
    .orderBy(asc(outboxMessages.id)).all().map(toRow);
}

/** A message that was not delivered, as the referee's inbox lists it. */
export interface UndeliveredRow extends OutboxRow {
  readonly status: 'dmClosed' | 'failed';
  readonly lastError: string | null;
}

/**
 * Messages of a campaign not delivered and not yet dealt with: DMs refused by closed DMs (kept for
 * /intel, until read) and deliveries given up (until resent or dismissed). Oldest first.
 */
export function undeliveredMessages(db: Database, campaignId: string): UndeliveredRow[] {
  return db.select().from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), inArray(outboxMessages.status, ['dmClosed', 'failed']), isNull(outboxMessages.readAt)))
    .orderBy(asc(outboxMessages.id)).all()
    .map((r) => ({ ...toRow(r), status: r.status as 'dmClosed' | 'failed', lastError: r.lastError }));
}

export function markRead(db: Database, ids: readonly number[], now: string): void {
  if (ids.length === 0) return;
  db.update(outboxMessages).set({ readAt: now }).where(inArray(outboxMessages.id, [...ids])).run();
}

/**
 * Deletes delivered messages older than `before`, kept DMs read with /intel before it, and channel
 * posts given up before it. Undeliverable DMs not yet read stay. Returns how many went.
 */
export function pruneOutbox(db: Database, before: string): number {
  const o = outboxMessages;
  const r = db.delete(o).where(or(
    and(eq(o.status, 'sent'), lt(o.deliveredAt, before)),
    and(inArray(o.status, ['dmClosed', 'failed']), lt(o.readAt, before)),
    and(eq(o.status, 'failed'), ne(o.to, 'dm'), lt(o.createdAt, before)),
  )).run();
  return r.changes;
}
