/**
 * Which answers of prefetched reads the bridge (bridge.ts `prefetch`) may keep after a statement
 * ran: a kept answer must only ever be the answer its read would have had, had it run now.
 */

/** A plain read: it changes nothing, so answers kept before it still hold after it. */
const READS = /^\s*select\b(?![\s\S]*pg_advisory)/i;
/**
 * A write to one table named as Drizzle names it (quoted, no schema): an insert (an upsert too) or
 * an update. The schema has no triggers and no ON UPDATE cascade, so it changes that table alone,
 * and answers kept of reads that never name it still hold after it. Anything else that is not a
 * plain read (a delete, whose cascades reach other tables; a lock, after which other sessions'
 * commits show; a savepoint's rollback; the transaction's end) may change any answer.
 */
const ONE_TABLE_WRITE = /^\s*(?:insert\s+into|update)\s+"([a-z_][a-z0-9_]*)"[\s(]/i;

/** Whether running `statement` may change the answer of the read `read` (its text). */
export function mayChange(statement: string, read: string): boolean {
  if (READS.test(statement)) return false;
  const table = ONE_TABLE_WRITE.exec(statement)?.[1];
  return table === undefined || new RegExp(`\\b${table}\\b`, 'i').test(read);
}
