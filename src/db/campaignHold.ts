import { eq, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { isTrue, perConnection } from './prepared.js';

// The campaign's lock is PostgreSQL's advisory lock on hashtextextended(<campaign id>, 0), the key a
// write transaction on the campaign takes (src/db/pg/transaction.ts, `lockKey`). Held here at the
// session level, around that transaction: the transaction's own lock on the same key is granted at
// once to the session that holds it, and waits in every other session.
const p = sql.placeholder;
const tryHold = perConnection((q, { campaigns }) => q.select({ held: sql<boolean>`pg_try_advisory_lock(hashtextextended(${campaigns.id}, 0))`.mapWith(isTrue) })
  .from(campaigns).where(eq(campaigns.id, p('campaignId'))).prepare());
const letGo = perConnection((q, { campaigns }) => q.select({ released: sql<boolean>`pg_advisory_unlock(hashtextextended(${campaigns.id}, 0))`.mapWith(isTrue) })
  .from(campaigns).where(eq(campaigns.id, p('campaignId'))).prepare());

/**
 * Runs `fn` holding the campaign, or returns `undefined` at once when another process holds it:
 * the scheduler's claim of a due tick. Several processes on one PostgreSQL all find the same
 * campaigns due; each skips the ones another is playing (its tick's transaction holds the
 * campaign) and goes on to the next, so they share the minute's ticks instead of queueing on one
 * campaign, and none waits on a campaign that another then finds already played. A process that
 * dies while holding one lets go of it with its connection (its transaction rolled back), and the
 * next run of any scheduler plays it.
 *
 * On SQLite every write transaction is the database's one writer (BEGIN IMMEDIATE): `fn` simply runs.
 */
export function ifCampaignFree<T>(db: Database, campaignId: string, fn: () => T): T | undefined {
  if (db.dialect === 'sqlite') return fn();
  // No row: the campaign is gone; `fn` finds that out in its own transaction.
  const row = tryHold(db).get({ campaignId });
  if (row && !row.held) return undefined;
  try {
    return fn();
  } finally {
    if (row) letGo(db).get({ campaignId });
  }
}
