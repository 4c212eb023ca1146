import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { type Database, oneStatement, type Orm, type Tables } from './client.js';
import { SESSION_PREFIX } from './processTag.js';
import { bound, oneOff, perConnection, queryPlan, readSoon, runUnanswered } from './prepared.js';
import type { LegacyFile, OutboxButton, outboxMessages } from './schema.js';

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

type Outbox = typeof outboxMessages;
const p = sql.placeholder;
/** A literal, not a bound value: SQLite uses a partial index (outbox_pending, outbox_lane) only when the query names its condition. */
const PENDING = sql`'pending'`;

const insertMessage = perConnection((q, { outboxMessages: o }) => q.insert(o).values({
  campaignId: p('campaignId'), to: p('to'), userId: p('userId'), channelId: p('channelId'), content: p('content'), data: bound(o.data, 'data'),
  pictures: bound(o.pictures, 'pictures'), buttons: bound(o.buttons, 'buttons'), cards: bound(o.cards, 'cards'), mentions: bound(o.mentions, 'mentions'),
  status: 'pending', attempts: 0, nextAttemptAt: p('nextAttemptAt'), dedupeKey: p('dedupeKey'), nonce: p('nonce'), createdAt: p('createdAt'),
}).onConflictDoNothing().prepare());

type QueuedRow = Required<Pick<Outbox['$inferInsert'], 'campaignId' | 'to' | 'userId' | 'channelId' | 'content' | 'data' | 'pictures' | 'buttons' | 'cards'
  | 'mentions' | 'nextAttemptAt' | 'dedupeKey' | 'nonce' | 'createdAt'>>;

/** Per database handle: how many times this process queued a message or gave claims back (queuedHere). */
const queuedCounts = new WeakMap<Database, number>();
const noteQueued = (db: Database): void => void queuedCounts.set(db, (queuedCounts.get(db) ?? 0) + 1);

/**
 * How many times this process has queued a message, or given claimed ones back, on `db`: what may
 * make a message due now. It only grows (a queue rolled back with its transaction counts too).
 * Delivery compares it with its value at the last look that found nothing due
 * (DeliveryLanes.fillIfQueued), so a command that queued nothing costs no look.
 */
export function queuedHere(db: Database): number {
  return queuedCounts.get(db) ?? 0;
}

/** Queues a message; a message with a dedupe key already queued is ignored. Returns whether it was added. */
export function enqueue(db: Database, m: NewOutboxMessage, now: string): boolean {
  noteQueued(db);
  return insertMessage(db).run(queuedRow(m, now)).changes > 0;
}

/** Queues a message in the open transaction, as `enqueue` does, without waiting to learn whether it was added (prepared.ts `runUnanswered`). */
export function queueMessage(db: Database, m: NewOutboxMessage, now: string): void {
  noteQueued(db);
  runUnanswered(insertMessage(db), queuedRow(m, now));
}

function queuedRow(m: NewOutboxMessage, now: string): QueuedRow {
  return {
    campaignId: m.campaignId, to: m.to, userId: m.userId ?? null, channelId: m.channelId ?? null, content: m.content, data: m.data ?? null,
    pictures: m.pictures ?? null, buttons: m.buttons ?? null, cards: m.cards ?? null, mentions: m.mentions ?? null, nextAttemptAt: now,
    dedupeKey: m.dedupeKey ?? null, nonce: m.nonce, createdAt: now,
  };
}

function toRow(r: Outbox['$inferSelect']): OutboxRow {
  return {
    id: r.id, campaignId: r.campaignId, to: r.to, userId: r.userId, channelId: r.channelId, content: r.content, data: r.data,
    pictures: r.pictures, legacyFiles: r.files, buttons: r.buttons, cards: r.cards, mentions: r.mentions, status: r.status,
    attempts: r.attempts, partsSent: r.partsSent, nonce: r.nonce ?? `legacy${r.id}`, createdAt: r.createdAt,
  };
}

const claimDueQuery = (q: Orm, { outboxMessages: o }: Tables, db: Database) => {
  const candidate = alias(o, 'o');
  const prior = alias(o, 'prior');
  // SQLite is told which index to walk; PostgreSQL's planner picks the partial index by itself.
  const pendingIndex = db.dialect === 'sqlite' ? sql`indexed by outbox_pending` : sql``;
  // SQLite runs one writer at a time. PostgreSQL runs two workers' claims at once (READ COMMITTED),
  // both choosing from the same snapshot: each locks what it takes, and skips what another is taking.
  const skipTaken = db.dialect === 'sqlite' ? sql`` : sql`for update of ${sql.identifier('o')} skip locked`;
  return q.update(o).set({ claimedBy: bound(o.claimedBy, 'owner'), leaseUntil: bound(o.leaseUntil, 'leaseUntil') })
  .where(sql`${o.id} in (
      select ${candidate.id} from ${o} ${candidate} ${pendingIndex}
      where ${candidate.status} = ${PENDING} and ${candidate.nextAttemptAt} <= ${p('now')} and (${candidate.leaseUntil} is null or ${candidate.leaseUntil} < ${p('now')})
        and not exists (select 1 from ${o} ${prior} where ${prior.status} = ${PENDING} and ${prior.to} = ${candidate.to}
          and coalesce(${prior.userId}, '') = coalesce(${candidate.userId}, '') and coalesce(${prior.channelId}, '') = coalesce(${candidate.channelId}, '')
          and ${prior.id} < ${candidate.id})
      order by ${candidate.id} limit ${p('limit')} ${skipTaken})`)
    .returning();
};
const claimDueStatement = perConnection((q, t, db) => claimDueQuery(q, t, db).prepare());

/**
 * Claims up to `limit` messages due at `now` for the worker `owner`, until `leaseUntil`, in one
 * statement (atomic: two workers, in one process or two, never claim the same message; on
 * PostgreSQL the messages another worker is claiming at that moment are skipped, FOR UPDATE SKIP
 * LOCKED, so neither waits for the other nor takes what it took). A message
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
  return queryPlan(db, claimDueQuery(db.orm, db.tables, db));
}

// No `limit`: `.get()` stops at the first row, and a bound `limit ?` makes SQLite prepare the
// statement again on every run (about 10 us, three times a cheap poll's own cost).
const due = perConnection((q, { outboxMessages: o }) => q.select({ one: sql<number>`1` }).from(o)
  .where(and(eq(o.status, PENDING), lte(o.nextAttemptAt, p('now')), or(isNull(o.leaseUntil), lt(o.leaseUntil, p('now'))))).prepare());

/** Whether any message is due at `now` (a read, so an idle delivery poll takes no write lock). */
function anyDue(db: Database, now: string): boolean {
  return due(db).get({ now }) !== undefined;
}

/**
 * The delivery's poll: claims what is due (`claimDue`, as a statement of its own), or nothing. On
 * SQLite a read looks first, so an idle poll takes no write lock; on PostgreSQL the claim is the
 * look (it locks only the rows it takes, skipping those another worker is taking): one round trip
 * instead of two.
 */
export function claimIfDue(db: Database, owner: string, now: string, leaseUntil: string, limit: number): OutboxRow[] {
  if (db.dialect === 'sqlite' && !anyDue(db, now)) return [];
  return oneStatement(db, () => claimDue(db, owner, now, leaseUntil, limit));
}

/** The workers holding live claims at `now`. */
export function claimants(db: Database, now: string): string[] {
  return holders(db).all({ now }).map((r) => r.owner).filter((owner): owner is string => owner !== null);
}

const holders = perConnection((q, { outboxMessages: o }) => q.selectDistinct({ owner: o.claimedBy }).from(o)
  .where(and(eq(o.status, PENDING), sql`${o.leaseUntil} >= ${p('now')}`, isNotNull(o.claimedBy))).prepare());

// Every role may read every session's application_name (pg_stat_activity hides other roles' queries, not their names).
const sessionNames = perConnection((q) => q.select({ name: sql<string>`application_name` }).from(sql`pg_stat_activity`)
  .where(sql`datname = current_database() and starts_with(application_name, ${SESSION_PREFIX})`).prepare());

/**
 * The tags (src/db/processTag.ts) of the bot processes connected to this database now, from any
 * machine (PostgreSQL); undefined on SQLite, whose processes all share one host (pids tell there).
 */
export function connectedProcessTags(db: Database): ReadonlySet<string> | undefined {
  if (db.dialect === 'sqlite') return undefined;
  return new Set(sessionNames(db).all().map((r) => r.name.slice(SESSION_PREFIX.length)));
}

const release = perConnection((q, { outboxMessages: o }) => q.update(o).set({ claimedBy: null, leaseUntil: null })
  .where(and(eq(o.claimedBy, p('owner')), eq(o.status, 'pending'))).prepare());

/** Ends the claims of a worker that is gone (its process died): its items may be taken over at once. */
export function releaseClaims(db: Database, owner: string): number {
  noteQueued(db);
  return release(db).run({ owner }).changes;
}

/** Records that part `index` (0-based) of a claimed message went out: a retry starts after it. */
export function markPartSent(db: Database, id: number, owner: string, index: number): void {
  partSent(db).run({ parts: index + 1, id, owner });
}

const claimed = (o: Outbox) => and(eq(o.id, p('id')), eq(o.claimedBy, p('owner')));
const partSent = perConnection((q, { outboxMessages: o }) => q.update(o).set({ partsSent: bound(o.partsSent, 'parts') }).where(and(claimed(o), lt(o.partsSent, p('parts')))).prepare());
const sent = perConnection((q, { outboxMessages: o }) => q.update(o).set({ status: 'sent', deliveredAt: bound(o.deliveredAt, 'now'), lastError: null, claimedBy: null, leaseUntil: null, files: null })
  .where(claimed(o)).prepare());

export function markSent(db: Database, id: number, owner: string, now: string): void {
  sent(db).run({ id, owner, now });
}

/** Gives a claimed message back for another try at `nextAttemptAt` (a failure, or a shutdown while it waited). */
export function releaseForRetry(db: Database, id: number, owner: string, set: { attempts: number; nextAttemptAt: string; lastError: string | null }): void {
  retry(db).run({ ...set, id, owner });
}

const retry = perConnection((q, { outboxMessages: o }) => q.update(o).set({
  attempts: bound(o.attempts, 'attempts'), nextAttemptAt: bound(o.nextAttemptAt, 'nextAttemptAt'), lastError: bound(o.lastError, 'lastError'), claimedBy: null, leaseUntil: null,
}).where(claimed(o)).prepare());
const undeliverable = perConnection((q, { outboxMessages: o }) => q.update(o).set({
  status: bound(o.status, 'status'), attempts: bound(o.attempts, 'attempts'), lastError: bound(o.lastError, 'lastError'), claimedBy: null, leaseUntil: null, files: null,
}).where(and(claimed(o), eq(o.status, PENDING))).prepare());

/** Ends a claimed message's delivery without sending it: kept for /intel (dmClosed) or for the referee (failed). */
export function markUndeliverable(db: Database, id: number, owner: string, status: 'dmClosed' | 'failed', attempts: number, lastError: string): void {
  undeliverable(db).run({ id, owner, status, attempts, lastError });
}

/** The message, if it is still pending and claimed by `owner`. */
export function claimedMessage(db: Database, id: number, owner: string): OutboxRow | undefined {
  const r = claimedRow(db).get({ id, owner });
  return r ? toRow(r) : undefined;
}

const claimedRow = perConnection((q, { outboxMessages: o }) => q.select().from(o).where(and(claimed(o), eq(o.status, PENDING))).prepare());
const notDelivered = (o: Outbox) => sql`${o.status} in ('dmClosed', 'failed')`;
const kept = perConnection((q, { outboxMessages: o }) => q.select().from(o)
  .where(and(eq(o.campaignId, p('campaignId')), eq(o.to, 'dm'), eq(o.userId, p('userId')), notDelivered(o), isNull(o.readAt))).orderBy(asc(o.id)).prepare());
const undelivered = perConnection((q, { outboxMessages: o }) => q.select().from(o)
  .where(and(eq(o.campaignId, p('campaignId')), notDelivered(o), isNull(o.readAt))).orderBy(asc(o.id)).prepare());


export function outboxByStatus(db: Database, campaignId: string, statuses: readonly OutboxStatus[]): OutboxRow[] {
  return oneOff(db, (q, { outboxMessages: o }) => q.select().from(o)
    .where(and(eq(o.campaignId, campaignId), inArray(o.status, [...statuses])))
    .orderBy(asc(o.id)).prepare()).all().map(toRow);
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

/** `undeliveredMessages` will be read soon, in this transaction (prepared.ts `readSoon`). */
export function undeliveredSoon(db: Database, campaignId: string): void {
  readSoon(undelivered(db), { campaignId });
}

export function markRead(db: Database, ids: readonly number[], now: string): void {
  if (ids.length === 0) return;
  runUnanswered(oneOff(db, (q, { outboxMessages: o }) => q.update(o).set({ readAt: now }).where(inArray(o.id, [...ids])).prepare()));
}

const prune = perConnection((q, { outboxMessages: o }) => q.delete(o).where(or(
  and(eq(o.status, 'sent'), lt(o.deliveredAt, p('before'))),
  and(inArray(o.status, ['dmClosed', 'failed']), lt(o.readAt, p('before'))),
  and(eq(o.status, 'failed'), ne(o.to, 'dm'), lt(o.createdAt, p('before'))),
)).prepare());

/**
 * Deletes delivered messages older than `before`, kept DMs read with /intel before it, and channel
 * posts given up before it. Undeliverable DMs not yet read stay. Returns how many went.
 */
export function pruneOutbox(db: Database, before: string): number {
  return prune(db).run({ before }).changes;
}
