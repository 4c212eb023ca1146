import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Database } from './client.js';
import { outboxMessages } from './schema.js';

export interface StoredFile {
  readonly name: string;
  /** Base64 of the file's bytes. */
  readonly base64: string;
}

export interface OutboxRow {
  readonly id: number;
  readonly campaignId: string;
  readonly to: 'dm' | 'channel';
  readonly userId: string | null;
  readonly channelId: string | null;
  readonly content: string;
  readonly data: unknown;
  readonly files: StoredFile[] | null;
  readonly buttons: { id: string; label: string; style?: string }[] | null;
  readonly status: 'pending' | 'sent' | 'dmClosed' | 'failed';
  readonly attempts: number;
  readonly createdAt: string;
}

export interface NewOutboxMessage {
  readonly campaignId: string;
  readonly to: 'dm' | 'channel';
  readonly userId?: string;
  readonly channelId?: string;
  readonly content: string;
  readonly data?: unknown;
  readonly files?: StoredFile[];
  readonly buttons?: { id: string; label: string; style?: string }[];
  readonly dedupeKey?: string;
}

/** Queues a message; a message with a dedupe key already queued is ignored. Returns whether it was added. */
export function enqueue(db: Database, m: NewOutboxMessage, now: string): boolean {
  const r = db.insert(outboxMessages).values({
    campaignId: m.campaignId,
    to: m.to,
    userId: m.userId ?? null,
    channelId: m.channelId ?? null,
    content: m.content,
    data: m.data ?? null,
    files: m.files ?? null,
    buttons: m.buttons ?? null,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    dedupeKey: m.dedupeKey ?? null,
    createdAt: now,
  }).onConflictDoNothing().run();
  return r.changes > 0;
}

function toRow(r: typeof outboxMessages.$inferSelect): OutboxRow {
  return {
    id: r.id, campaignId: r.campaignId, to: r.to, userId: r.userId, channelId: r.channelId, content: r.content, data: r.data,
    files: r.files as StoredFile[] | null, buttons: r.buttons as OutboxRow['buttons'], status: r.status, attempts: r.attempts, createdAt: r.createdAt,
  };
}

export function dueMessages(db: Database, now: string, limit: number): OutboxRow[] {
  return db.select().from(outboxMessages)
    .where(and(eq(outboxMessages.status, 'pending'), lte(outboxMessages.nextAttemptAt, now)))
    .orderBy(asc(outboxMessages.id)).limit(limit).all().map(toRow);
}

export function getOutbox(db: Database, id: number): OutboxRow | undefined {
  const r = db.select().from(outboxMessages).where(eq(outboxMessages.id, id)).get();
  return r ? toRow(r) : undefined;
}

export function setOutboxStatus(db: Database, id: number, set: { status: OutboxRow['status']; attempts?: number; nextAttemptAt?: string; lastError?: string | null; deliveredAt?: string | null }): void {
  db.update(outboxMessages).set(set).where(eq(outboxMessages.id, id)).run();
}

export function outboxByStatus(db: Database, campaignId: string, statuses: readonly OutboxRow['status'][]): OutboxRow[] {
  return db.select().from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), inArray(outboxMessages.status, [...statuses])))
    .orderBy(asc(outboxMessages.id)).all().map(toRow);
}
