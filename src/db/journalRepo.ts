import { asc, desc, eq } from 'drizzle-orm';
import type { Database } from './client.js';
import { journal } from './schema.js';

/** One row of a campaign's journal, as stored (docs/replay.md). */
export type JournalRow = typeof journal.$inferSelect;

/** The number of the campaign's last journal row; -1 when it has none (a campaign from before the journal). */
export function lastJournalSeq(db: Database, campaignId: string): number {
  const r = db.select({ seq: journal.seq }).from(journal).where(eq(journal.campaignId, campaignId)).orderBy(desc(journal.seq)).limit(1).get();
  return r ? r.seq : -1;
}

/** Appends rows to the journal (inside the transaction they record). */
export function appendJournal(db: Database, rows: readonly JournalRow[]): void {
  if (rows.length > 0) db.insert(journal).values([...rows]).run();
}

/** The whole journal of a campaign, in order (the export). */
export function journalOf(db: Database, campaignId: string): JournalRow[] {
  return db.select().from(journal).where(eq(journal.campaignId, campaignId)).orderBy(asc(journal.seq)).all();
}
