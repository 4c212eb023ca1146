import { and, asc, eq, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from './client.js';
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
  readonly buttons: { id: string; label: string; style?: string }[] | null;
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
  readonly buttons?: { id: string; label: string; style?: string }[];
  readonly mentions?: string[];
  readonly dedupeKey?: string;
  /** Stable id of the message, sent (with the part number) as Discord's nonce. */
  readonly nonce: string;
}

/** Queues a message; a message with a dedupe key already queued is ignored. Returns whether it was added. */
export function enqueue(db: Db, m: NewOutboxMessage, now: string): boolean {
  const r = db.insert(outboxMessages).values({
    campaignId: m.campaignId,
    to: m.to,
    userId: m.userId ?? null,
    channelId: m.channelId ?? null,
    content: m.content,
    data: m.data ?? null,
    pictures: m.pictures ?? null,
    buttons: m.buttons ?? null,
    mentions: m.mentions ?? null,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    dedupeKey: m.dedupeKey ?? null,
    nonce: m.nonce,
    createdAt: now,
  }).onConflictDoNothing().run();
  return r.changes > 0;
}

function toRow(r: typeof outboxMessages.$inferSelect): OutboxRow {
  return {
    id: r.id, campaignId: r.campaignId, to: r.to, userId: r.userId, channelId: r.channelId, content: r.content, data: r.data,
    pictures: r.pictures, legacyFiles: r.files as LegacyFile[] | null, buttons: r.buttons as OutboxRow['buttons'], mentions: r.mentions as string[] | null, status: r.status,
    attempts: r.attempts, partsSent: r.partsSent, nonce: r.nonce ?? `legacy${r.id}`, createdAt: r.createdAt,
  };
}

/**
 * Claims up to `limit` messages due at `now` for the worker `owner`, until `leaseUntil`, in one
 * statement (atomic: two workers, in one process or two, never claim the same message). A message
 * is due when it is pending, its retry time has come, and no other worker holds a live claim on
 * it (an expired claim, from a worker that died, is taken over). Messages to one destination go
 * out in order: a message waits while an older one to the same user or channel is still pending.
 */
export function claimDue(db: Db, owner: string, now: string, leaseUntil: string, limit: number): OutboxRow[] {
  const o = outboxMessages;
  const older = sql`exists (select 1 from ${o} as prior where prior.status = 'pending' and prior.id < ${o.id}
    and prior."to" = ${o.to} and coalesce(prior.user_id, '') = coalesce(${o.userId}, '') and coalesce(prior.channel_id, '') = coalesce(${o.channelId}, ''))`;
  const due = db.select({ id: o.id }).from(o)
    .where(and(eq(o.status, 'pending'), lte(o.nextAttemptAt, now), or(isNull(o.leaseUntil), lt(o.leaseUntil, now)), sql`not ${older}`))
    .orderBy(asc(o.id)).limit(limit);
  return db.update(o).set({ claimedBy: owner, leaseUntil })
    .where(and(inArray(o.id, due), eq(o.status, 'pending'), or(isNull(o.leaseUntil), lt(o.leaseUntil, now))))
    .returning().all().map(toRow).sort((a, b) => a.id - b.id);
}

/** The workers holding live claims at `now`. */
export function claimants(db: Db, now: string): string[] {
  return db.selectDistinct({ owner: outboxMessages.claimedBy }).from(outboxMessages)
    .where(and(eq(outboxMessages.status, 'pending'), sql`${outboxMessages.leaseUntil} >= ${now}`)).all()
    .flatMap((r) => (r.owner ? [r.owner] : []));
}

/** Ends the claims of a worker that is gone (its process died): its items may be taken over at once. */
export function releaseClaims(db: Db, owner: string): number {
  return db.update(outboxMessages).set({ claimedBy: null, leaseUntil: null })
    .where(and(eq(outboxMessages.claimedBy, owner), eq(outboxMessages.status, 'pending'))).run().changes;
}

/** Records that part `index` (0-based) of a claimed message went out: a retry starts after it. */
export function markPartSent(db: Db, id: number, owner: string, index: number): void {
  db.update(outboxMessages).set({ partsSent: index + 1 })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.claimedBy, owner), lt(outboxMessages.partsSent, index + 1))).run();
}

export function markSent(db: Db, id: number, owner: string, now: string): void {
  db.update(outboxMessages).set({ status: 'sent', deliveredAt: now, lastError: null, claimedBy: null, leaseUntil: null, files: null })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.claimedBy, owner))).run();
}

/** Gives a claimed message back for another try at `nextAttemptAt` (a failure, or a shutdown while it waited). */
export function releaseForRetry(db: Db, id: number, owner: string, set: { attempts: number; nextAttemptAt: string; lastError: string | null }): void {
  db.update(outboxMessages).set({ ...set, claimedBy: null, leaseUntil: null })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.claimedBy, owner))).run();
}

/** Ends a claimed message's delivery without sending it: kept for /intel (dmClosed) or for the referee (failed). */
export function markUndeliverable(db: Db, id: number, owner: string, status: 'dmClosed' | 'failed', attempts: number, lastError: string): void {
  db.update(outboxMessages).set({ status, attempts, lastError, claimedBy: null, leaseUntil: null, files: null })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.claimedBy, owner), eq(outboxMessages.status, 'pending'))).run();
}

/** The message, if it is still pending and claimed by `owner`. */
export function claimedMessage(db: Db, id: number, owner: string): OutboxRow | undefined {
  const r = db.select().from(outboxMessages).where(and(eq(outboxMessages.id, id), eq(outboxMessages.claimedBy, owner), eq(outboxMessages.status, 'pending'))).get();
  return r ? toRow(r) : undefined;
}

export function getOutbox(db: Db, id: number): OutboxRow | undefined {
  const r = db.select().from(outboxMessages).where(eq(outboxMessages.id, id)).get();
  return r ? toRow(r) : undefined;
}

export function outboxByStatus(db: Db, campaignId: string, statuses: readonly OutboxStatus[]): OutboxRow[] {
  return db.select().from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), inArray(outboxMessages.status, [...statuses])))
    .orderBy(asc(outboxMessages.id)).all().map(toRow);
}

/** Direct messages to a user that could not be delivered and have not been read with /intel yet. */
export function keptMessages(db: Db, campaignId: string, userId: string): OutboxRow[] {
  return db.select().from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), eq(outboxMessages.to, 'dm'), eq(outboxMessages.userId, userId),
      inArray(outboxMessages.status, ['dmClosed', 'failed']), isNull(outboxMessages.readAt)))
    .orderBy(asc(outboxMessages.id)).all().map(toRow);
}

export function markRead(db: Db, ids: readonly number[], now: string): void {
  if (ids.length === 0) return;
  db.update(outboxMessages).set({ readAt: now }).where(inArray(outboxMessages.id, [...ids])).run();
}

/**
 * Deletes delivered messages older than `before`, kept DMs read with /intel before it, and channel
 * posts given up before it. Undeliverable DMs not yet read stay. Returns how many went.
 */
export function pruneOutbox(db: Db, before: string): number {
  const o = outboxMessages;
  const r = db.delete(o).where(or(
    and(eq(o.status, 'sent'), lt(o.deliveredAt, before)),
    and(inArray(o.status, ['dmClosed', 'failed']), lt(o.readAt, before)),
    and(eq(o.status, 'failed'), ne(o.to, 'dm'), lt(o.createdAt, before)),
  )).run();
  return r.changes;
}
