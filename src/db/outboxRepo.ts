import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from './client.js';
import { bound, perConnection, queryPlan } from './prepared.js';
import { type LegacyFile, type OutboxButton, outboxMessages } from './schema.js';

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
  readonly buttons: OutboxButton[] | null;
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
  readonly buttons?: OutboxButton[];
  readonly cards?: unknown;
  readonly mentions?: string[];
  readonly dedupeKey?: string;
  /** Stable id of the message, sent (with the part number) as Discord's nonce. */
  readonly nonce: string;
}

const o = outboxMessages;
const p = sql.placeholder;
/** A literal, not a bound value: SQLite uses a partial index (outbox_pending, outbox_lane) only when the query names its condition. */
const PENDING = sql`'pending'`;

const insertMessage = perConnection((db) => db.insert(o).values({
  campaignId: p('campaignId'), to: p('to'), userId: p('userId'), channelId: p('channelId'), content: p('content'), data: bound(o.data, 'data'),
  pictures: bound(o.pictures, 'pictures'), buttons: bound(o.buttons, 'buttons'), cards: bound(o.cards, 'cards'), mentions: bound(o.mentions, 'mentions'),
  status: 'pending', attempts: 0, nextAttemptAt: p('nextAttemptAt'), dedupeKey: p('dedupeKey'), nonce: p('nonce'), createdAt: p('createdAt'),
}).onConflictDoNothing().prepare());

type QueuedRow = Required<Pick<typeof o.$inferInsert, 'campaignId' | 'to' | 'userId' | 'channelId' | 'content' | 'data' | 'pictures' | 'buttons' | 'cards'
  | 'mentions' | 'nextAttemptAt' | 'dedupeKey' | 'nonce' | 'createdAt'>>;

/** Queues a message; a message with a dedupe key already queued is ignored. Returns whether it was added. */
export function enqueue(db: Database, m: NewOutboxMessage, now: string): boolean {
  const row: QueuedRow = {
    campaignId: m.campaignId, to: m.to, userId: m.userId ?? null, channelId: m.channelId ?? null, content: m.content, data: m.data ?? null,
    pictures: m.pictures ?? null, buttons: m.buttons ?? null, cards: m.cards ?? null, mentions: m.mentions ?? null, nextAttemptAt: now,
    dedupeKey: m.dedupeKey ?? null, nonce: m.nonce, createdAt: now,
  };
  return insertMessage(db).run(row).changes > 0;
}

function toRow(r: typeof o.$inferSelect): OutboxRow {
  return {
    id: r.id, campaignId: r.campaignId, to: r.to, userId: r.userId, channelId: r.channelId, content: r.content, data: r.data,
    pictures: r.pictures, legacyFiles: r.files, buttons: r.buttons, cards: r.cards, mentions: r.mentions, status: r.status,
    attempts: r.attempts, partsSent: r.partsSent, nonce: r.nonce ?? `legacy${r.id}`, createdAt: r.createdAt,
  };
}

const candidate = alias(o, 'o');
const prior = alias(o, 'prior');
const claimDueQuery = (db: Database) => db.update(o).set({ claimedBy: bound(o.claimedBy, 'owner'), leaseUntil: bound(o.leaseUntil, 'leaseUntil') })
  .where(sql`${o.id} in (
      select ${candidate.id} from ${o} ${candidate} indexed by outbox_pending
      where ${candidate.status} = ${PENDING} and ${candidate.nextAttemptAt} <= ${p('now')} and (${candidate.leaseUntil} is null or ${candidate.leaseUntil} < ${p('now')})
        and not exists (select 1 from ${o} ${prior} where ${prior.status} = ${PENDING} and ${prior.to} = ${candidate.to}
          and coalesce(${prior.userId}, '') = coalesce(${candidate.userId}, '') and coalesce(${prior.channelId}, '') = coalesce(${candidate.channelId}, '')
          and ${prior.id} < ${candidate.id})
      order by ${candidate.id} limit ${p('limit')})`)
  .returning();
const claimDueStatement = perConnection((db) => claimDueQuery(db).prepare());

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
  return claimDueStatement(db).all({ owner, leaseUntil, now, limit }).map(toRow).sort((a, b) => a.id - b.id);
}

/** How SQLite runs the claim (EXPLAIN QUERY PLAN, one line a step): which indexes it walks. */
export function claimPlan(db: Database): string[] {
  return queryPlan(db, claimDueQuery(db));
}

// No `limit`: `.get()` stops at the first row, and a bound `limit ?` makes SQLite prepare the
// statement again on every run (about 10 us, three times a cheap poll's own cost).
const due = perConnection((db) => db.select({ one: sql<number>`1` }).from(o)
  .where(and(eq(o.status, PENDING), lte(o.nextAttemptAt, p('now')), or(isNull(o.leaseUntil), lt(o.leaseUntil, p('now'))))).prepare());

/** Whether any message is due at `now` (a read, so an idle delivery poll takes no write lock). */
export function anyDue(db: Database, now: string): boolean {
  return due(db).get({ now }) !== undefined;
}

/** The workers holding live claims at `now`. */
export function claimants(db: Database, now: string): string[] {
  return holders(db).all({ now }).map((r) => r.owner).filter((owner): owner is string => owner !== null);
}

const holders = perConnection((db) => db.selectDistinct({ owner: o.claimedBy }).from(o)
  .where(and(eq(o.status, PENDING), sql`${o.leaseUntil} >= ${p('now')}`, isNotNull(o.claimedBy))).prepare());

/** Ends the claims of a worker that is gone (its process died): its items may be taken over at once. */
export function releaseClaims(db: Database, owner: string): number {
  return db.update(outboxMessages).set({ claimedBy: null, leaseUntil: null })
    .where(and(eq(outboxMessages.claimedBy, owner), eq(outboxMessages.status, 'pending'))).run().changes;
}

/** Records that part `index` (0-based) of a claimed message went out: a retry starts after it. */
export function markPartSent(db: Database, id: number, owner: string, index: number): void {
  partSent(db).run({ parts: index + 1, id, owner });
}

const claimed = and(eq(o.id, p('id')), eq(o.claimedBy, p('owner')));
const partSent = perConnection((db) => db.update(o).set({ partsSent: bound(o.partsSent, 'parts') }).where(and(claimed, lt(o.partsSent, p('parts')))).prepare());
const sent = perConnection((db) => db.update(o).set({ status: 'sent', deliveredAt: bound(o.deliveredAt, 'now'), lastError: null, claimedBy: null, leaseUntil: null, files: null })
  .where(claimed).prepare());

export function markSent(db: Database, id: number, owner: string, now: string): void {
  sent(db).run({ id, owner, now });
}

/** Gives a claimed message back for another try at `nextAttemptAt` (a failure, or a shutdown while it waited). */
export function releaseForRetry(db: Database, id: number, owner: string, set: { attempts: number; nextAttemptAt: string; lastError: string | null }): void {
  retry(db).run({ ...set, id, owner });
}

const retry = perConnection((db) => db.update(o).set({
  attempts: bound(o.attempts, 'attempts'), nextAttemptAt: bound(o.nextAttemptAt, 'nextAttemptAt'), lastError: bound(o.lastError, 'lastError'), claimedBy: null, leaseUntil: null,
}).where(claimed).prepare());
const undeliverable = perConnection((db) => db.update(o).set({
  status: bound(o.status, 'status'), attempts: bound(o.attempts, 'attempts'), lastError: bound(o.lastError, 'lastError'), claimedBy: null, leaseUntil: null, files: null,
}).where(and(claimed, eq(o.status, PENDING))).prepare());

/** Ends a claimed message's delivery without sending it: kept for /intel (dmClosed) or for the referee (failed). */
export function markUndeliverable(db: Database, id: number, owner: string, status: 'dmClosed' | 'failed', attempts: number, lastError: string): void {
  undeliverable(db).run({ id, owner, status, attempts, lastError });
}

/** The message, if it is still pending and claimed by `owner`. */
export function claimedMessage(db: Database, id: number, owner: string): OutboxRow | undefined {
  const r = claimedRow(db).get({ id, owner });
  return r ? toRow(r) : undefined;
}

const claimedRow = perConnection((db) => db.select().from(o).where(and(claimed, eq(o.status, PENDING))).prepare());
const NOT_DELIVERED = sql`${o.status} in ('dmClosed', 'failed')`;
const kept = perConnection((db) => db.select().from(o)
  .where(and(eq(o.campaignId, p('campaignId')), eq(o.to, 'dm'), eq(o.userId, p('userId')), NOT_DELIVERED, isNull(o.readAt))).orderBy(asc(o.id)).prepare());
const undelivered = perConnection((db) => db.select().from(o)
  .where(and(eq(o.campaignId, p('campaignId')), NOT_DELIVERED, isNull(o.readAt))).orderBy(asc(o.id)).prepare());


export function outboxByStatus(db: Database, campaignId: string, statuses: readonly OutboxStatus[]): OutboxRow[] {
  return db.select().from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), inArray(outboxMessages.status, [...statuses])))
    .orderBy(asc(outboxMessages.id)).all().map(toRow);
}

/** Direct messages to a user that could not be delivered and have not been read with /intel yet. */
export function keptMessages(db: Database, campaignId: string, userId: string): OutboxRow[] {
  return kept(db).all({ campaignId, userId }).map(toRow);
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
  return undelivered(db).all({ campaignId })
    .flatMap((r) => (r.status === 'dmClosed' || r.status === 'failed' ? [{ ...toRow(r), status: r.status, lastError: r.lastError }] : []));
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
